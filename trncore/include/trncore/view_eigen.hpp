#pragma once
/// @file
/// Header-only adapters from Eigen to trncore's views. Include it only where Eigen is available:
/// trncore itself does not depend on Eigen. Each adapter aliases the Eigen object's memory (no copy),
/// keeping its storage order and outer stride.

#include <trncore/view.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <string>
#include <type_traits>

namespace trncore {

namespace detail {
template <class Scalar, class Derived>
MatrixView<Scalar> eigen_matrix_view(Scalar* data, const Eigen::DenseBase<Derived>& m) {
  if (m.innerStride() != 1)
    throw InvalidArgument("trncore::matrix_view", "inner stride " + std::to_string(m.innerStride()) + " is not 1",
                          "evaluate the expression into a matrix first");
  const Layout layout = Derived::IsRowMajor ? Layout::row_major : Layout::col_major;
  const std::int64_t ld = std::max<std::int64_t>(1, static_cast<std::int64_t>(m.outerStride()));
  return MatrixView<Scalar>(data, m.rows(), m.cols(), ld, layout);
}
}  // namespace detail

/// A MatrixView of any Eigen dense expression with direct access (Matrix, Map, Ref, Block): row-major
/// for RowMajor storage, column-major otherwise, ld = outer stride. The inner stride must be 1.
/// @throws trncore::InvalidArgument when the inner stride is not 1 (such storage is not BLAS-shaped).
template <class Derived>
auto matrix_view(Eigen::DenseBase<Derived>& m) {
  return detail::eigen_matrix_view(m.derived().data(), m);
}

/// A read-only MatrixView of a const Eigen object.
template <class Derived>
auto matrix_view(const Eigen::DenseBase<Derived>& m) {
  using Scalar = std::remove_const_t<std::remove_reference_t<decltype(*m.derived().data())>>;
  return detail::eigen_matrix_view(static_cast<const Scalar*>(m.derived().data()), m);
}

/// A VectorView of an Eigen vector (any inner stride ≥ 1).
template <class Derived>
auto vector_view(Eigen::DenseBase<Derived>& v) {
  using Scalar = std::remove_reference_t<decltype(*v.derived().data())>;
  return VectorView<Scalar>(v.derived().data(), v.size(), std::max<std::int64_t>(1, v.innerStride()));
}

}  // namespace trncore
