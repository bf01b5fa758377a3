// rsvd (fixed rank) and rsvd_adaptive (to a tolerance) on dense matrices and operators.
#include "range_finder.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/monitor.hpp>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace trnsolver {

namespace {

using namespace randomized_detail;

void check_rank(std::int64_t k, std::int64_t m, std::int64_t n, const char* function) {
  const std::int64_t limit = std::min(m, n);
  if (k < 1 || k > limit)
    throw trncore::InvalidArgument(function,
                                   "k = " + std::to_string(k) + " for a " + std::to_string(m) + "x" +
                                       std::to_string(n) + " matrix (1 <= k <= min(m, n) = " + std::to_string(limit) +
                                       " required)",
                                   limit == 0 ? "the matrix is empty: there is nothing to approximate"
                                              : "choose k in [1, " + std::to_string(limit) + "]");
}

void require_transpose(bool has, const char* function, std::int64_t m, std::int64_t n) {
  if (!has && m != n)
    throw trncore::InvalidArgument(
        function, "the " + std::to_string(m) + "x" + std::to_string(n) + " operator has no transpose callback",
        "pass apply_transpose (only a square symmetric operator may omit it)");
}

template <class T>
RsvdResult<T> rsvd_impl(const MatrixOperator<T>& a, const trncore::MatrixView<const T>* dense, std::int64_t k,
                        const RsvdOptions& o, CostLedger& ledger, const char* function) {
  const std::int64_t l = std::min(k + o.oversampling, std::min(a.rows(), a.cols()));
  std::int64_t matvecs = 0;
  bool stopped = false;
  DenseMatrix<T> q = range_basis(a, dense, l, o.power_iterations, o.sketch, o, matvecs, function, stopped);
  if (o.refine_math_mode) {
    ledger.set_math_mode(*o.refine_math_mode);
    DenseMatrix<T> w = apply_transpose(a, q, matvecs, function);
    orthonormalize(w, o);
    q = apply(a, w, matvecs, function);
    orthonormalize(q, o);
  }
  RsvdResult<T> r = svd_on_basis(a, q, k, o, matvecs, function);
  r.stopped_by_monitor = stopped;
  r.matvecs = matvecs;
  r.cost = ledger.report();
  return r;
}

void check_adaptive(double tolerance, const AdaptiveRangeOptions& o, const char* function) {
  check_common(o.sketch, o, function);
  if (!(tolerance > 0.0) || !std::isfinite(tolerance))
    throw trncore::InvalidArgument(function, "tolerance = " + trncore::detail::sci(tolerance),
                                   "pass a positive, finite absolute spectral-norm tolerance");
  if (o.block_size < 1 || o.max_rank < 0)
    throw trncore::InvalidArgument(
        function, "block_size = " + std::to_string(o.block_size) + ", max_rank = " + std::to_string(o.max_rank),
        "block_size must be >= 1 and max_rank >= 0 (0 = min(m, n))");
}

// HMT Lemma 4.1: ‖(I − P)A‖₂ ≤ 10·√(2/π)·max_i ‖(I − P)A·ω_i‖₂ with probability ≥ 1 − 10^{−r}.
template <class T>
double posterior_bound(const DenseMatrix<T>& residual_block) {
  double largest = 0.0;
  for (std::int64_t j = 0; j < residual_block.cols; ++j) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < residual_block.rows; ++i) {
      const double v = static_cast<double>(residual_block(i, j));
      sum += v * v;
    }
    largest = std::max(largest, std::sqrt(sum));
  }
  return 10.0 * std::sqrt(2.0 / std::numbers::pi) * largest;
}

template <class T>
RsvdResult<T> adaptive_impl(const MatrixOperator<T>& a, const trncore::MatrixView<const T>* dense, double tolerance,
                            const AdaptiveRangeOptions& o, CostLedger& ledger, const char* function) {
  const std::int64_t m = a.rows(), n = a.cols();
  const std::int64_t limit = std::min(m, n);
  const std::int64_t max_rank = o.max_rank == 0 ? limit : std::min(o.max_rank, limit);
  std::int64_t matvecs = 0;
  DenseMatrix<T> q(m, 0, Layout::col_major);
  double estimate = 0.0;
  bool stopped = false;
  const trncore::detail::ProgressMonitor monitor(o.monitor, function);
  for (std::int64_t block = 0;; ++block) {
    // Each block draws from its own subsequences (stream + 4·block: the sparse sign and SRHT kinds use
    // stream + 1 and + 2 as well), so blocks are independent and fixed by the seed.
    Sketch s = o.sketch;
    s.stream = o.sketch.stream + 4 * static_cast<std::uint64_t>(block);
    const std::int64_t b = std::min(o.block_size, std::max<std::int64_t>(limit, 1));
    DenseMatrix<T> y =
        limit == 0 ? DenseMatrix<T>(m, 0, Layout::col_major) : sample_range(a, dense, b, s, o, matvecs, function);
    project_off(q, y, o);
    estimate = posterior_bound(y);
    const bool stop = monitor.stop_requested(block + 1, estimate);
    if (estimate <= tolerance || q.cols >= max_rank) break;
    if (stop) {
      stopped = true;
      break;
    }
    const std::int64_t take = std::min(b, max_rank - q.cols);
    orthonormalize(y, o);
    project_off(q, y, o);  // the block's QR is orthogonal to Q only to O(u·κ); one more pass restores it
    orthonormalize(y, o);
    DenseMatrix<T> grown(m, q.cols + take, Layout::col_major);
    std::copy(q.data.begin(), q.data.begin() + m * q.cols, grown.data.begin());
    std::copy(y.data.begin(), y.data.begin() + m * take, grown.data.begin() + m * q.cols);
    q = std::move(grown);
  }
  RsvdResult<T> r;
  if (q.cols > 0)
    r = svd_on_basis(a, q, q.cols, o, matvecs, function);
  else {
    r.u = DenseMatrix<T>(m, 0, Layout::col_major);
    r.vt = DenseMatrix<T>(0, n, Layout::col_major);
  }
  r.error_estimate = estimate;
  r.stopped_by_monitor = stopped;
  r.matvecs = matvecs;
  r.cost = ledger.report();
  return r;
}

}  // namespace

template <class T>
RsvdResult<T> rsvd(trncore::MatrixView<const T> a, std::int64_t k, const RsvdOptions& options) {
  constexpr const char* kFunction = "trnsolver::rsvd";
  check_rsvd_options(options, kFunction);
  check_rank(k, a.rows(), a.cols(), kFunction);
  require_finite(a, kFunction);
  CostLedger ledger(options);
  const MatrixOperator<T> op = ledger_operator(a, ledger);
  return rsvd_impl(op, &a, k, options, ledger, kFunction);
}

template <class T>
RsvdResult<T> rsvd(const MatrixOperator<T>& a, std::int64_t k, const RsvdOptions& options) {
  constexpr const char* kFunction = "trnsolver::rsvd";
  check_rsvd_options(options, kFunction);
  check_rank(k, a.rows(), a.cols(), kFunction);
  require_transpose(a.has_transpose(), kFunction, a.rows(), a.cols());
  if (options.refine_math_mode)
    throw trncore::InvalidArgument(kFunction, "refine_math_mode is set for an operator",
                                   "the refinement step needs a dense A; refine inside your callback instead");
  CostLedger ledger(options);
  return rsvd_impl<T>(a, nullptr, k, options, ledger, kFunction);
}

template <class T>
RsvdResult<T> rsvd_adaptive(trncore::MatrixView<const T> a, double tolerance, const AdaptiveRangeOptions& options) {
  constexpr const char* kFunction = "trnsolver::rsvd_adaptive";
  check_adaptive(tolerance, options, kFunction);
  require_finite(a, kFunction);
  CostLedger ledger(options);
  const MatrixOperator<T> op = ledger_operator(a, ledger);
  return adaptive_impl(op, &a, tolerance, options, ledger, kFunction);
}

template <class T>
RsvdResult<T> rsvd_adaptive(const MatrixOperator<T>& a, double tolerance, const AdaptiveRangeOptions& options) {
  constexpr const char* kFunction = "trnsolver::rsvd_adaptive";
  check_adaptive(tolerance, options, kFunction);
  require_transpose(a.has_transpose(), kFunction, a.rows(), a.cols());
  CostLedger ledger(options);
  return adaptive_impl<T>(a, nullptr, tolerance, options, ledger, kFunction);
}

#define TRNSOLVER_RSVD(T)                                                                                     \
  template RsvdResult<T> rsvd<T>(trncore::MatrixView<const T>, std::int64_t, const RsvdOptions&);             \
  template RsvdResult<T> rsvd<T>(const MatrixOperator<T>&, std::int64_t, const RsvdOptions&);                 \
  template RsvdResult<T> rsvd_adaptive<T>(trncore::MatrixView<const T>, double, const AdaptiveRangeOptions&); \
  template RsvdResult<T> rsvd_adaptive<T>(const MatrixOperator<T>&, double, const AdaptiveRangeOptions&);
TRNSOLVER_RSVD(float)
TRNSOLVER_RSVD(double)
#undef TRNSOLVER_RSVD

}  // namespace trnsolver
