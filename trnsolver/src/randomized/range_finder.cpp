// Range finder with power iterations, and the SVD on the basis it returns.
#include "range_finder.hpp"

#include <trncore/monitor.hpp>

#include <cmath>
#include "internal_gemm.hpp"

#include <trnblas/gemm.hpp>

#include <algorithm>
#include <string>

namespace trnsolver::randomized_detail {

template <class T>
MatrixOperator<T> ledger_operator(trncore::MatrixView<const T> a, CostLedger& ledger) {
  const bool col = a.layout() == Layout::col_major;
  auto product = [a, &ledger, col](bool transpose, std::int64_t b, const T* x, T* y) {
    const Op op = (col != transpose) ? Op::no_trans : Op::trans;
    const std::int64_t m = transpose ? a.cols() : a.rows(), k = transpose ? a.rows() : a.cols();
    ledger.gemm(op, Op::no_trans, m, b, k, T(1), a.data(), a.ld(), x, std::max<std::int64_t>(k, 1), T(0), y,
                std::max<std::int64_t>(m, 1));
  };
  return MatrixOperator<T>(
      a.rows(), a.cols(), [product](std::int64_t b, const T* x, T* y) { product(false, b, x, y); },
      [product](std::int64_t b, const T* x, T* y) { product(true, b, x, y); });
}

template <class T>
DenseMatrix<T> sample_range(const MatrixOperator<T>& a, const trncore::MatrixView<const T>* dense, std::int64_t l,
                            const Sketch& sketch, const trncore::Options& core, std::int64_t& matvecs,
                            std::string_view function) {
  const bool structured = sketch.kind == SketchKind::sparse_sign || sketch.kind == SketchKind::srht;
  if (dense != nullptr && structured) {
    trncore::Options host = host_options(core);
    matvecs += l;
    return sketch_right<T>(*dense, l, sketch, host);
  }
  const DenseMatrix<T> omega = sketch_matrix<T>(sketch, a.cols(), l, trncore::Options{}.with_threads(core.threads));
  return apply(a, omega, matvecs, function);
}

namespace {

// ‖(I − P·Pᵀ)·Q‖_F/√l for P, Q with l orthonormal columns (column-major): how far the basis moved in one
// power iteration (the monitor's progress measure; computed on the host in T, only when a monitor is set).
template <class T>
double basis_change(const DenseMatrix<T>& p, const DenseMatrix<T>& q, const trncore::Options& core) {
  const std::int64_t m = q.rows, l = q.cols;
  if (l == 0) return 0.0;
  const trncore::Options host = host_options(core);
  DenseMatrix<T> c(l, l, Layout::col_major), w = q;
  trnsolver::detail::internal_gemm(Layout::col_major, Op::trans, Op::no_trans, l, l, m, T(1), p.data.data(), p.ld(),
                                   q.data.data(), q.ld(), T(0), c.data.data(), c.ld(), host);
  trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::no_trans, m, l, l, T(-1), p.data.data(), p.ld(),
                                   c.data.data(), c.ld(), T(1), w.data.data(), w.ld(), host);
  double sum = 0.0;
  for (T v : w.data) sum += static_cast<double>(v) * static_cast<double>(v);
  return std::sqrt(sum / static_cast<double>(l));
}

}  // namespace

template <class T>
DenseMatrix<T> range_basis(const MatrixOperator<T>& a, const trncore::MatrixView<const T>* dense, std::int64_t l,
                           std::int64_t power_iterations, const Sketch& sketch, const trncore::Options& core,
                           std::int64_t& matvecs, std::string_view function, bool& stopped) {
  DenseMatrix<T> q = sample_range(a, dense, l, sketch, core, matvecs, function);
  orthonormalize(q, core);
  const trncore::detail::ProgressMonitor monitor(core.monitor, function);
  for (std::int64_t it = 0; it < power_iterations; ++it) {
    DenseMatrix<T> w = apply_transpose(a, q, matvecs, function);
    orthonormalize(w, core);
    DenseMatrix<T> next = apply(a, w, matvecs, function);
    orthonormalize(next, core);
    const double change = monitor.active() ? basis_change(q, next, core) : 0.0;
    q = std::move(next);
    if (monitor.stop_requested(it + 1, change)) {
      stopped = true;
      break;
    }
  }
  return q;
}

template <class T>
RsvdResult<T> svd_on_basis(const MatrixOperator<T>& a, const DenseMatrix<T>& q, std::int64_t rank,
                           const trncore::Options& core, std::int64_t& matvecs, std::string_view function) {
  const std::int64_t m = a.rows(), n = a.cols(), l = q.cols;
  DenseMatrix<T> bt = apply_transpose(a, q, matvecs, function);  // n×l = (Qᵀ·A)ᵀ
  std::vector<T> s(static_cast<std::size_t>(l));
  DenseMatrix<T> w(n, l, Layout::col_major), zt(l, l, Layout::col_major);
  const trncore::Options host = host_options(core);
  const std::int64_t info = gesdd(Layout::col_major, Job::thin, n, l, bt.data.data(), bt.ld(), s.data(), w.data.data(),
                                  w.ld(), zt.data.data(), zt.ld(), host);
  RsvdResult<T> r;
  if (info != 0) {  // a numerical outcome, not an exception: no factors, info says why
    r.info = info;
    r.u = DenseMatrix<T>(m, 0, Layout::col_major);
    r.vt = DenseMatrix<T>(0, n, Layout::col_major);
    return r;
  }
  r.rank = rank;
  r.s.assign(s.begin(), s.begin() + rank);
  // B = Qᵀ·A = Z·Σ·Wᵀ, so U = Q·Z (Z = ztᵀ) and Vᵀ = Wᵀ.
  r.u = DenseMatrix<T>(m, rank, Layout::col_major);
  trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::trans, m, rank, l, T(1), q.data.data(), q.ld(),
                                   zt.data.data(), zt.ld(), T(0), r.u.data.data(), r.u.ld(), host);
  r.vt = DenseMatrix<T>(rank, n, Layout::col_major);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < rank; ++i) r.vt(i, j) = w(j, i);
  return r;
}

#define TRNSOLVER_RANGE_FINDER(T)                                                                                      \
  template MatrixOperator<T> ledger_operator<T>(trncore::MatrixView<const T>, CostLedger&);                            \
  template DenseMatrix<T> sample_range<T>(const MatrixOperator<T>&, const trncore::MatrixView<const T>*, std::int64_t, \
                                          const Sketch&, const trncore::Options&, std::int64_t&, std::string_view);    \
  template DenseMatrix<T> range_basis<T>(const MatrixOperator<T>&, const trncore::MatrixView<const T>*, std::int64_t,  \
                                         std::int64_t, const Sketch&, const trncore::Options&, std::int64_t&,          \
                                         std::string_view, bool&);                                                     \
  template RsvdResult<T> svd_on_basis<T>(const MatrixOperator<T>&, const DenseMatrix<T>&, std::int64_t,                \
                                         const trncore::Options&, std::int64_t&, std::string_view);
TRNSOLVER_RANGE_FINDER(float)
TRNSOLVER_RANGE_FINDER(double)
#undef TRNSOLVER_RANGE_FINDER

}  // namespace trnsolver::randomized_detail
