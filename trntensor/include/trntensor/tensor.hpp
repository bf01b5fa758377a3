#pragma once
/// @file
/// trntensor's dense tensor types are trncore's: trncore::Shape, trncore::TensorView<T> and
/// trncore::Tensor<T> (<trncore/tensor.hpp>), brought into namespace trntensor so trntensor::Tensor<double>
/// and trncore::Tensor<double> name the same type.

#include <trncore/tensor.hpp>

namespace trntensor {

using trncore::Shape;
using trncore::Tensor;
using trncore::TensorView;

namespace detail {
using trncore::detail::check_view;
using trncore::detail::checked_size;
using trncore::detail::row_major_strides;
using trncore::detail::shape_string;
}  // namespace detail

}  // namespace trntensor
