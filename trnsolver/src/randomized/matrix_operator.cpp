// MatrixOperator: construction checks and the operator of a dense matrix.
#include "common.hpp"
#include "internal_gemm.hpp"

#include <trnblas/gemm.hpp>

#include <string>
#include <utility>

namespace trnsolver {

template <class T>
MatrixOperator<T>::MatrixOperator(std::int64_t rows, std::int64_t cols, Apply apply, Apply apply_transpose)
    : rows_(rows), cols_(cols), apply_(std::move(apply)), apply_transpose_(std::move(apply_transpose)) {
  constexpr const char* kFunction = "trnsolver::MatrixOperator";
  if (rows < 0 || cols < 0)
    throw trncore::InvalidArgument(kFunction, "rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols),
                                   "sizes must be >= 0");
  if (!apply_) throw trncore::InvalidArgument(kFunction, "the apply callback is empty", "pass a callback y = A*x");
}

template <class T>
MatrixOperator<T> MatrixOperator<T>::dense(trncore::MatrixView<const T> a, const trncore::Options& options) {
  trncore::validate(options, "trnsolver::MatrixOperator::dense");
  // Row-major A is column-major Aᵀ with the same ld, so both products are one column-major gemm.
  const bool col = a.layout() == Layout::col_major;
  auto product = [a, options, col](bool transpose, std::int64_t b, const T* x, T* y) {
    const Op op = (col != transpose) ? Op::no_trans : Op::trans;
    const std::int64_t m = transpose ? a.cols() : a.rows(), k = transpose ? a.rows() : a.cols();
    trnsolver::detail::internal_gemm(Layout::col_major, op, Op::no_trans, m, b, k, T(1), a.data(), a.ld(), x,
                                     std::max<std::int64_t>(k, 1), T(0), y, std::max<std::int64_t>(m, 1), options);
  };
  return MatrixOperator(
      a.rows(), a.cols(), [product](std::int64_t b, const T* x, T* y) { product(false, b, x, y); },
      [product](std::int64_t b, const T* x, T* y) { product(true, b, x, y); });
}

template class MatrixOperator<float>;
template class MatrixOperator<double>;

}  // namespace trnsolver
