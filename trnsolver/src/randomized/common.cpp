// Shared checks, host options, sim cost ledger, orthonormalisation and checked operator products.
#include "common.hpp"
#include "internal_gemm.hpp"

#include "../dense/common.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/detail/format_number.hpp>

#include <cmath>
#include <vector>

namespace trnsolver::randomized_detail {

std::string qualified(std::string_view name) { return "trnsolver::" + std::string(name); }

template <class T>
void require_finite(trncore::MatrixView<const T> a, std::string_view function) {
  const std::string f(function);
  detail::check_finite(f.c_str(), "A", a.layout(), a.rows(), a.cols(), a.data(), a.ld());
}

template <class T>
void require_finite_output(const DenseMatrix<T>& y, std::string_view function, std::string_view product) {
  for (std::int64_t j = 0; j < y.cols; ++j)
    for (std::int64_t i = 0; i < y.rows; ++i)
      if (!std::isfinite(y(i, j)))
        throw trncore::InvalidArgument(function,
                                       "the operator's " + std::string(product) + " returned " +
                                           trncore::detail::sci(static_cast<double>(y(i, j))) + " at (" +
                                           std::to_string(i) + ", " + std::to_string(j) + ") of a " +
                                           std::to_string(y.rows) + "x" + std::to_string(y.cols) + " block",
                                       "make the callback produce finite values (is the operator's data finite?)");
}

void check_common(const Sketch& sketch, const trncore::Options& core, std::string_view function) {
  trncore::validate(core, function);
  if (core.target_forward_error)
    throw trncore::NotSupported(function,
                                "target_forward_error = " + trncore::detail::sci(*core.target_forward_error) +
                                    " was given, but randomized results carry probabilistic bounds only",
                                "leave target_forward_error unset and choose the rank or tolerance instead");
  if (sketch.nonzeros_per_row < 1)
    throw trncore::InvalidArgument(function,
                                   "sketch.nonzeros_per_row = " + std::to_string(sketch.nonzeros_per_row) + " < 1",
                                   "use at least 1 nonzero per row (8 is a good default)");
  if (static_cast<unsigned>(sketch.kind) > static_cast<unsigned>(SketchKind::srht))
    throw trncore::InvalidArgument(
        function, "sketch.kind has the invalid value " + std::to_string(static_cast<unsigned>(sketch.kind)),
        "use one of the SketchKind enumerators");
}

void check_rsvd_options(const RsvdOptions& o, std::string_view function) {
  check_common(o.sketch, o, function);
  if (o.oversampling < 0 || o.power_iterations < 0)
    throw trncore::InvalidArgument(function,
                                   "oversampling = " + std::to_string(o.oversampling) +
                                       ", power_iterations = " + std::to_string(o.power_iterations),
                                   "both must be >= 0 (defaults 10 and 2)");
  if (o.refine_math_mode && o.backend != trncore::Backend::sim)
    throw trncore::InvalidArgument(
        function, "refine_math_mode = " + std::string(trncore::to_string(*o.refine_math_mode)) + " on the host backend",
        "the refinement step is for the sim backend; leave it unset on the host");
}

trncore::Options host_options(const trncore::Options& core) {
  trncore::Options o;
  o.threads = core.threads;
  return o;
}

template <class T>
void CostLedger::gemm(Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
                      std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc) {
  if (core_.backend != trncore::Backend::sim) {
    trnsolver::detail::internal_gemm(Layout::col_major, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, core_);
    return;
  }
  trncore::AccuracyReport report;
  trnblas::gemm(Layout::col_major, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, core_, report);
  if (report.cost) {
    stats_ += report.cost->stats;
    any_ = true;
  }
}

std::optional<trncore::sim::CostReport> CostLedger::report() const {
  if (!any_) return std::nullopt;
  return trncore::sim::estimate_cost(stats_, core_.generation);
}

template <class T>
void orthonormalize(DenseMatrix<T>& y, const trncore::Options& core) {
  const std::int64_t c = y.cols;
  if (c == 0 || y.rows == 0) return;
  std::vector<T> tau(static_cast<std::size_t>(c));
  const trncore::Options host = host_options(core);
  geqrf(Layout::col_major, y.rows, c, y.data.data(), y.ld(), tau.data(), host);
  orgqr(Layout::col_major, y.rows, c, c, y.data.data(), y.ld(), tau.data(), host);
}

template <class T>
void project_off(const DenseMatrix<T>& q, DenseMatrix<T>& y, const trncore::Options& core) {
  if (q.cols == 0 || y.cols == 0 || y.rows == 0) return;
  const trncore::Options host = host_options(core);
  DenseMatrix<T> coef(q.cols, y.cols, Layout::col_major);
  for (int pass = 0; pass < 2; ++pass) {
    trnsolver::detail::internal_gemm(Layout::col_major, Op::trans, Op::no_trans, q.cols, y.cols, q.rows, T(1),
                                     q.data.data(), q.ld(), y.data.data(), y.ld(), T(0), coef.data.data(), coef.ld(),
                                     host);
    trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::no_trans, y.rows, y.cols, q.cols, T(-1),
                                     q.data.data(), q.ld(), coef.data.data(), coef.ld(), T(1), y.data.data(), y.ld(),
                                     host);
  }
}

template <class T>
DenseMatrix<T> apply(const MatrixOperator<T>& a, const DenseMatrix<T>& x, std::int64_t& matvecs,
                     std::string_view function, bool transpose) {
  const std::int64_t rows = transpose ? a.cols() : a.rows();
  DenseMatrix<T> y(rows, x.cols, Layout::col_major);
  if (x.cols > 0 && rows > 0) {
    if (transpose)
      a.apply_transpose(x.cols, x.data.data(), y.data.data());
    else
      a.apply(x.cols, x.data.data(), y.data.data());
  }
  matvecs += x.cols;
  require_finite_output(y, function, transpose ? "product A^T*X" : "product A*X");
  return y;
}

#define TRNSOLVER_RANDOMIZED_COMMON(T)                                                                               \
  template void require_finite<T>(trncore::MatrixView<const T>, std::string_view);                                   \
  template void require_finite_output<T>(const DenseMatrix<T>&, std::string_view, std::string_view);                 \
  template void CostLedger::gemm<T>(Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*, std::int64_t,     \
                                    const T*, std::int64_t, T, T*, std::int64_t);                                    \
  template void orthonormalize<T>(DenseMatrix<T>&, const trncore::Options&);                                         \
  template void project_off<T>(const DenseMatrix<T>&, DenseMatrix<T>&, const trncore::Options&);                     \
  template DenseMatrix<T> apply<T>(const MatrixOperator<T>&, const DenseMatrix<T>&, std::int64_t&, std::string_view, \
                                   bool);
TRNSOLVER_RANDOMIZED_COMMON(float)
TRNSOLVER_RANDOMIZED_COMMON(double)
#undef TRNSOLVER_RANDOMIZED_COMMON

}  // namespace trnsolver::randomized_detail
