#pragma once
// Buffer<T>: a std::vector whose elements start uninitialised. The sim passes overwrite their outputs
// completely, so zero-filling them first would only add a serial memset in which every fresh page faults;
// without it the first touch happens inside the (row-block parallel) pass that writes the values.

#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace trnblas::detail {

template <class T>
struct NoInitAllocator : std::allocator<T> {
  static_assert(std::is_trivially_default_constructible_v<T>, "only for trivially constructible element types");
  template <class U>
  struct rebind {
    using other = NoInitAllocator<U>;
  };
  NoInitAllocator() = default;
  template <class U>
  NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialisation: no value is written
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using Buffer = std::vector<T, NoInitAllocator<T>>;

}  // namespace trnblas::detail
