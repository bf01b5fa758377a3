#pragma once
// The state behind a trnfft plan (plan.cpp): the checked geometry, the creation arrays and what new arrays
// must share with them, and the backend's Executor.

#include "executor.hpp"

#include <trnfft/plan.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace trnfft::detail {

template <Real T>
struct PlanState {
  Geometry geometry;
  /// The creation arrays (Arrays order), their names and element sizes.
  Arrays arrays{};
  std::array<const char*, 4> names{};
  std::array<std::size_t, 4> element_size{};
  /// Bit i·4 + j: read array i is written array j.
  unsigned aliasing = 0;
  /// Split layouts: byte distance from the real to the imaginary array, reads and writes (0 if interleaved).
  std::ptrdiff_t read_separation = 0;
  std::ptrdiff_t write_separation = 0;
  /// The backend's planned transform.
  std::unique_ptr<Executor<T>> executor;

  template <class P>
  static P wrap(std::unique_ptr<PlanState> state) noexcept {
    return P(std::move(state));
  }

  /// Checks arrays for a new-array execute against the creation arrays (the frontend's rules, then the
  /// executor's).
  void check_new_arrays(const char* function, const Arrays& arrays) const;
  std::string description() const { return describe(geometry) + executor->description_suffix(); }
};

}  // namespace trnfft::detail
