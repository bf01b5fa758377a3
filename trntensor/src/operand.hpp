#pragma once
// An operand during execution: a strided view whose axes carry distinct labels, and the storage it owns when
// it is an intermediate. Internal to the executor.

#include <trntensor/tensor.hpp>

#include <algorithm>
#include <memory>
#include <vector>

namespace trntensor::detail {

template <class T>
struct Operand {
  TensorView<const T> view;
  std::vector<int> labels;  // labels[d] names axis d of view
  std::shared_ptr<Tensor<T>> owner;

  int axis_of(int label) const {
    return static_cast<int>(std::find(labels.begin(), labels.end(), label) - labels.begin());
  }
  std::int64_t stride_of(int label) const { return view.stride(axis_of(label)); }
};

/// The operand an einsum input becomes: one axis per distinct label, a repeated label's axes merged into
/// their diagonal (strides added), and extent-1 axes of labels with a larger extent broadcast (stride 0).
template <class T>
Operand<T> label_view(TensorView<const T> v, const std::vector<int>& labels, const std::vector<std::int64_t>& extents) {
  Operand<T> op;
  Shape shape, strides;
  for (std::size_t d = 0; d < labels.size(); ++d) {
    const int l = labels[d];
    const auto at = std::find(op.labels.begin(), op.labels.end(), l);
    const bool broadcast = v.extent(static_cast<int>(d)) == 1 && extents[static_cast<std::size_t>(l)] != 1;
    const std::int64_t stride = broadcast ? 0 : v.stride(static_cast<int>(d));
    if (at != op.labels.end()) {
      strides[static_cast<std::size_t>(at - op.labels.begin())] += stride;
      continue;
    }
    op.labels.push_back(l);
    shape.push_back(extents[static_cast<std::size_t>(l)]);
    strides.push_back(stride);
  }
  op.view = TensorView<const T>(v.data(), std::move(shape), std::move(strides));
  return op;
}

/// Copies the elements of x into dst, densely in the order of the labels `order` (a permutation of x's).
template <class T>
void gather(const Operand<T>& x, const std::vector<int>& order, T* dst) {
  const std::size_t r = order.size();
  std::int64_t total = 1;
  Shape ext(r), str(r);
  for (std::size_t d = 0; d < r; ++d) {
    const int axis = x.axis_of(order[d]);
    ext[d] = x.view.extent(axis);
    str[d] = x.view.stride(axis);
    total *= ext[d];
  }
  if (total == 0) return;
  if (r == 0) {
    dst[0] = x.view.data()[0];
    return;
  }
  std::vector<std::int64_t> idx(r, 0);
  const T* src = x.view.data();
  const std::int64_t inner = ext[r - 1], inner_stride = str[r - 1];
  std::int64_t base = 0;
  for (std::int64_t e = 0; e < total; e += inner) {
    for (std::int64_t i = 0; i < inner; ++i) dst[e + i] = src[base + i * inner_stride];
    for (std::size_t d = r - 1; d-- > 0;) {
      base += str[d];
      if (++idx[d] < ext[d]) break;
      base -= str[d] * ext[d];
      idx[d] = 0;
    }
  }
}

}  // namespace trntensor::detail
