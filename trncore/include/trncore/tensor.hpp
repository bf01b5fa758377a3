#pragma once
/// @file
/// Dense tensors of any rank: the owning row-major Tensor<T> and the non-owning strided TensorView<T>, the
/// suite's one dense tensor type (trntensor's operands and results, trnfft's N-D results as trnfft::Array).
/// Compiled for T = float, double, std::complex<float> and std::complex<double> (views also const-qualified).
///
/// Element (i_0, …, i_{r−1}) of a view is data[Σ_d i_d·stride_d]. Strides are in elements and ≥ 0; a
/// stride 0 repeats one element along an axis (broadcast), which is legal for reading. Construction checks
/// the arguments; operator() is unchecked, at() is checked.

#include <trncore/error.hpp>

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace trncore {

/// Extents (or strides) of a tensor, outermost first.
using Shape = std::vector<std::int64_t>;

namespace detail {
/// The product of the extents. @throws trncore::InvalidArgument naming `function` for a negative extent
/// or a product that overflows int64.
std::int64_t checked_size(std::string_view function, std::span<const std::int64_t> shape);
/// Row-major strides of a shape (the last axis has stride 1).
Shape row_major_strides(std::span<const std::int64_t> shape);
/// Checks a strided view: extents ≥ 0, strides ≥ 0, as many strides as extents, a non-null pointer when the
/// view has elements, and a largest offset that fits int64. @throws trncore::InvalidArgument /
/// trncore::DimensionMismatch naming `function`.
void check_view(std::string_view function, std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                bool null_data);
/// "[2, 3, 4]".
std::string shape_string(std::span<const std::int64_t> shape);
}  // namespace detail

/// A non-owning strided view of a tensor. T may be const-qualified.
template <class T>
class TensorView {
 public:
  /// An empty rank-0 view with no data (size 1, so it must not be read).
  TensorView() = default;
  /// A view with explicit strides. @throws trncore::InvalidArgument for negative extents or strides, a null
  /// pointer with a nonzero size, or offsets beyond int64; trncore::DimensionMismatch when the stride count
  /// differs from the rank.
  TensorView(T* data, Shape shape, Shape strides)
      : data_(data), shape_(std::move(shape)), strides_(std::move(strides)) {
    detail::check_view("trncore::TensorView", shape_, strides_, data == nullptr);
  }
  /// A dense row-major view. @throws as above.
  TensorView(T* data, Shape shape)
      : data_(data), shape_(std::move(shape)), strides_(detail::row_major_strides(shape_)) {
    detail::check_view("trncore::TensorView", shape_, strides_, data == nullptr);
  }
  /// The same view with const elements.
  operator TensorView<const T>() const  // NOLINT(google-explicit-constructor)
      requires(!std::is_const_v<T>) {
    return TensorView<const T>(data_, shape_, strides_);
  }

  /// The element at index (0, …, 0).
  T* data() const noexcept { return data_; }
  /// The number of axes.
  int rank() const noexcept { return static_cast<int>(shape_.size()); }
  /// Extents, outermost first.
  const Shape& shape() const noexcept { return shape_; }
  /// Strides in elements, one per axis.
  const Shape& strides() const noexcept { return strides_; }
  /// Extent / stride of one axis (unchecked: 0 <= axis < rank()).
  std::int64_t extent(int axis) const noexcept { return shape_[static_cast<std::size_t>(axis)]; }
  /// The stride of one axis, in elements (unchecked: 0 <= axis < rank()).
  std::int64_t stride(int axis) const noexcept { return strides_[static_cast<std::size_t>(axis)]; }
  /// The number of elements (1 for rank 0).
  std::int64_t size() const noexcept {
    std::int64_t s = 1;
    for (auto e : shape_) s *= e;
    return s;
  }
  /// Whether the elements are dense in row-major order (strides of extent-1 axes are ignored).
  bool is_row_major_contiguous() const noexcept {
    std::int64_t expect = 1;
    for (int d = rank() - 1; d >= 0; --d) {
      if (extent(d) != 1 && stride(d) != expect) return false;
      expect *= extent(d);
    }
    return true;
  }
  /// Unchecked element access by a multi-index of length rank().
  T& operator()(std::span<const std::int64_t> index) const noexcept {
    std::int64_t off = 0;
    for (std::size_t d = 0; d < index.size(); ++d) off += index[d] * strides_[d];
    return data_[off];
  }
  /// Checked access. @throws trncore::InvalidArgument naming the index and the shape.
  T& at(std::initializer_list<std::int64_t> index) const {
    const std::span<const std::int64_t> idx(index.begin(), index.size());
    bool ok = idx.size() == shape_.size();
    for (std::size_t d = 0; ok && d < idx.size(); ++d) ok = idx[d] >= 0 && idx[d] < shape_[d];
    if (!ok)
      throw trncore::InvalidArgument(
          "trncore::TensorView::at",
          "index " + detail::shape_string(idx) + " is outside the tensor of shape " + detail::shape_string(shape_),
          "give one index per axis with 0 <= index < extent");
    return (*this)(idx);
  }
  /// The view with its axes reordered: axis d of the result is axis axes[d] of this view.
  /// @throws trncore::InvalidArgument when `axes` is not a permutation of 0..rank−1.
  TensorView permuted(std::span<const int> axes) const;
  /// Elements [begin, end) along `axis`. @throws trncore::InvalidArgument for a bad axis or range.
  TensorView slice(int axis, std::int64_t begin, std::int64_t end) const;

 private:
  T* data_ = nullptr;
  Shape shape_;
  Shape strides_;
};

/// An owning dense tensor in row-major order, value-initialised (zeros) unless given values.
template <class T>
class Tensor {
  static_assert(!std::is_const_v<T>, "Tensor owns mutable elements; use TensorView<const T> for read-only data");

 public:
  /// A rank-0 tensor holding one zero.
  Tensor() : data_(1) {}
  /// Zeros of the given shape. @throws trncore::InvalidArgument for a negative extent or an overflowing size.
  explicit Tensor(Shape shape)
      : shape_(std::move(shape)), data_(static_cast<std::size_t>(detail::checked_size("trncore::Tensor", shape_))) {}
  /// The given row-major values, taken over without a copy when passed as an rvalue
  /// (`Tensor(shape, std::move(values))`). @throws trncore::InvalidArgument for a negative extent or an
  /// overflowing size; trncore::DimensionMismatch when values.size() is not the shape's size.
  Tensor(Shape shape, std::vector<T> values);
  /// A dense row-major copy of any view (its elements read through the view's strides).
  static Tensor copy_of(TensorView<const T> view);

  /// The number of axes (0 for a scalar).
  int rank() const noexcept { return static_cast<int>(shape_.size()); }
  /// Extents, outermost first.
  const Shape& shape() const noexcept { return shape_; }
  /// The extent of one axis (unchecked: 0 <= axis < rank()).
  std::int64_t extent(int axis) const noexcept { return shape_[static_cast<std::size_t>(axis)]; }
  /// The number of elements (1 for rank 0).
  std::int64_t size() const noexcept { return static_cast<std::int64_t>(data_.size()); }
  /// The row-major elements (resizing values() breaks the tensor's invariant; assign same-size vectors).
  T* data() noexcept { return data_.data(); }
  /// The row-major elements, read-only.
  const T* data() const noexcept { return data_.data(); }
  /// The element vector itself, row-major (keep its size: it must equal the shape's size).
  std::vector<T>& values() & noexcept { return data_; }
  /// The element vector, read-only.
  const std::vector<T>& values() const& noexcept { return data_; }
  /// The element vector of an expiring tensor, to move out without a copy
  /// (`std::vector<T> v = std::move(t).values();` or `f().values()`); the tensor is left empty.
  std::vector<T>&& values() && noexcept { return std::move(data_); }

  /// A dense row-major view of the elements (valid while the tensor lives and is not resized).
  TensorView<T> view() { return TensorView<T>(data_.data(), shape_); }
  /// A dense row-major read-only view of the elements (valid while the tensor lives and is not resized).
  TensorView<const T> view() const { return TensorView<const T>(data_.data(), shape_); }
  /// view(), so a Tensor passes where a TensorView<const T> is expected.
  operator TensorView<const T>() const { return view(); }  // NOLINT(google-explicit-constructor)
  /// view(), so a Tensor passes where a TensorView<T> is expected.
  operator TensorView<T>() { return view(); }  // NOLINT(google-explicit-constructor)

  /// Unchecked access: t(i, j, k).
  template <class... I>
  T& operator()(I... index) noexcept {
    const std::int64_t idx[] = {static_cast<std::int64_t>(index)..., 0};
    return data_[static_cast<std::size_t>(offset(std::span<const std::int64_t>(idx, sizeof...(I))))];
  }
  /// Unchecked read-only access: t(i, j, k) (one index per axis, each in [0, extent)).
  template <class... I>
  const T& operator()(I... index) const noexcept {
    const std::int64_t idx[] = {static_cast<std::int64_t>(index)..., 0};
    return data_[static_cast<std::size_t>(offset(std::span<const std::int64_t>(idx, sizeof...(I))))];
  }
  /// Checked access. @throws trncore::InvalidArgument naming the index and the shape.
  T& at(std::initializer_list<std::int64_t> index) { return view().at(index); }
  /// Checked read-only access. @throws trncore::InvalidArgument naming the index and the shape.
  const T& at(std::initializer_list<std::int64_t> index) const { return view().at(index); }

 private:
  std::int64_t offset(std::span<const std::int64_t> idx) const noexcept {
    std::int64_t off = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) off = off * shape_[d] + idx[d];
    return off;
  }
  Shape shape_;
  std::vector<T> data_;
};

}  // namespace trncore
