// Tensor and TensorView: argument checks and the few out-of-line members, instantiated for float, double and
// their complex types.
#include <trncore/tensor.hpp>

#include <algorithm>
#include <limits>

namespace trncore {
namespace detail {

std::string shape_string(std::span<const std::int64_t> shape) {
  std::string s = "[";
  for (std::size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

std::int64_t checked_size(std::string_view function, std::span<const std::int64_t> shape) {
  std::int64_t size = 1;
  bool overflow = false;
  for (auto e : shape) {
    if (e < 0)
      throw trncore::InvalidArgument(function, "the shape " + shape_string(shape) + " has a negative extent",
                                     "use extents >= 0");
    if (e != 0 && size > std::numeric_limits<std::int64_t>::max() / e)
      overflow = true;
    else
      size *= e;
  }
  // A zero extent makes the size 0 even when other extents overflow together.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  if (overflow)
    throw trncore::InvalidArgument(function, "the shape " + shape_string(shape) + " has more than 2^63 elements",
                                   "use smaller extents");
  return size;
}

Shape row_major_strides(std::span<const std::int64_t> shape) {
  Shape strides(shape.size());
  std::int64_t s = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = s;
    s *= std::max<std::int64_t>(shape[d], 1);
  }
  return strides;
}

void check_view(std::string_view function, std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                bool null_data) {
  if (strides.size() != shape.size())
    throw trncore::DimensionMismatch(function,
                                     "the shape " + shape_string(shape) + " has rank " + std::to_string(shape.size()) +
                                         " but " + std::to_string(strides.size()) + " strides were given",
                                     "give one stride per axis");
  const std::int64_t size = checked_size(function, shape);
  std::int64_t last = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (strides[d] < 0)
      throw trncore::InvalidArgument(
          function, "stride " + std::to_string(strides[d]) + " of axis " + std::to_string(d) + " is negative",
          "use strides >= 0 (reverse an axis by copying)");
    if (shape[d] > 1 && strides[d] > (std::numeric_limits<std::int64_t>::max() - last) / (shape[d] - 1))
      throw trncore::InvalidArgument(
          function,
          "the strides " + shape_string(strides) + " of shape " + shape_string(shape) + " address beyond 2^63 elements",
          "use smaller strides");
    if (shape[d] > 0) last += (shape[d] - 1) * strides[d];
  }
  if (size > 0 && null_data)
    throw trncore::InvalidArgument(function, "a null pointer was given for a tensor of shape " + shape_string(shape),
                                   "pass the data of the tensor");
}

}  // namespace detail

template <class T>
TensorView<T> TensorView<T>::permuted(std::span<const int> axes) const {
  std::vector<bool> seen(shape_.size(), false);
  bool ok = axes.size() == shape_.size();
  for (std::size_t d = 0; ok && d < axes.size(); ++d) {
    ok = axes[d] >= 0 && axes[d] < rank() && !seen[static_cast<std::size_t>(axes[d])];
    if (ok) seen[static_cast<std::size_t>(axes[d])] = true;
  }
  if (!ok) {
    const Shape a(axes.begin(), axes.end());
    throw trncore::InvalidArgument(
        "trncore::TensorView::permuted",
        "axes " + detail::shape_string(a) + " are not a permutation of 0.." + std::to_string(rank() - 1),
        "list every axis exactly once");
  }
  Shape s(shape_.size()), st(shape_.size());
  for (std::size_t d = 0; d < axes.size(); ++d) {
    s[d] = shape_[static_cast<std::size_t>(axes[d])];
    st[d] = strides_[static_cast<std::size_t>(axes[d])];
  }
  return TensorView(data_, std::move(s), std::move(st));
}

template <class T>
TensorView<T> TensorView<T>::slice(int axis, std::int64_t begin, std::int64_t end) const {
  if (axis < 0 || axis >= rank() || begin < 0 || end < begin || end > extent(axis))
    throw trncore::InvalidArgument("trncore::TensorView::slice",
                                   "range [" + std::to_string(begin) + ", " + std::to_string(end) + ") of axis " +
                                       std::to_string(axis) + " does not fit the shape " + detail::shape_string(shape_),
                                   "use 0 <= axis < rank and 0 <= begin <= end <= extent");
  Shape s = shape_;
  s[static_cast<std::size_t>(axis)] = end - begin;
  T* d = (end > begin && size() > 0) ? data_ + begin * stride(axis) : data_;
  return TensorView(d, std::move(s), strides_);
}

template <class T>
Tensor<T>::Tensor(Shape shape, std::vector<T> values) : shape_(std::move(shape)), data_(std::move(values)) {
  const std::int64_t size = detail::checked_size("trncore::Tensor", shape_);
  if (static_cast<std::int64_t>(data_.size()) != size)
    throw trncore::DimensionMismatch("trncore::Tensor",
                                     "the shape " + detail::shape_string(shape_) + " has " + std::to_string(size) +
                                         " elements but " + std::to_string(data_.size()) + " values were given",
                                     "pass exactly one value per element, row-major");
}

template <class T>
Tensor<T> Tensor<T>::copy_of(TensorView<const T> view) {
  Tensor t(view.shape());
  const int r = view.rank();
  std::vector<std::int64_t> idx(static_cast<std::size_t>(r), 0);
  for (std::int64_t e = 0; e < t.size(); ++e) {
    t.data_[static_cast<std::size_t>(e)] = view(idx);
    for (int d = r - 1; d >= 0; --d) {
      if (++idx[static_cast<std::size_t>(d)] < view.extent(d)) break;
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
  return t;
}

template class TensorView<float>;
template class TensorView<double>;
template class TensorView<std::complex<float>>;
template class TensorView<std::complex<double>>;
template class TensorView<const float>;
template class TensorView<const double>;
template class TensorView<const std::complex<float>>;
template class TensorView<const std::complex<double>>;
template class Tensor<float>;
template class Tensor<double>;
template class Tensor<std::complex<float>>;
template class Tensor<std::complex<double>>;

}  // namespace trncore
