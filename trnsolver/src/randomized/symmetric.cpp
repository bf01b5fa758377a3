// Nyström approximation of PSD matrices and the randomized symmetric eigensolver.
#include "range_finder.hpp"
#include "internal_gemm.hpp"

#include <trnblas/gemm.hpp>
#include <trnblas/level3.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace trnsolver {

namespace {

using namespace randomized_detail;

template <class T>
void check_symmetric_input(const MatrixOperator<T>& a, std::int64_t k, const char* what, const char* function) {
  if (a.rows() != a.cols())
    throw trncore::DimensionMismatch(function,
                                     "the matrix is " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()),
                                     "pass a square symmetric matrix");
  if (k < 1 || k > a.rows())
    throw trncore::InvalidArgument(function,
                                   std::string(what) + " = " + std::to_string(k) +
                                       " for n = " + std::to_string(a.rows()) + " (1 <= " + what + " <= n required)",
                                   a.rows() == 0
                                       ? "the matrix is empty: there is nothing to approximate"
                                       : "choose " + std::string(what) + " in [1, " + std::to_string(a.rows()) + "]");
}

// The spacing of doubles at x (MATLAB's eps(x)) in T's precision.
template <class T>
double spacing(double x) {
  const T v = static_cast<T>(x);
  return static_cast<double>(std::nextafter(v, std::numeric_limits<T>::infinity()) - v);
}

template <class T>
LowRankEigen<T> nystrom_impl(const MatrixOperator<T>& a, std::int64_t l, const Sketch& sketch,
                             const trncore::Options& options, const char* function) {
  const std::int64_t n = a.rows();
  const trncore::Options host = host_options(options);
  DenseMatrix<T> omega = sketch_matrix<T>(sketch, n, l, trncore::Options{}.with_threads(options.threads));
  orthonormalize(omega, options);  // orthonormal test matrix: Frangella, Tropp & Udell 2023, Alg. 2.1
  LowRankEigen<T> r;
  DenseMatrix<T> y = apply(a, omega, r.matvecs, function);
  double fro = 0.0;
  for (T v : y.data) fro += static_cast<double>(v) * v;
  const double nu = std::sqrt(static_cast<double>(n)) * spacing<T>(std::sqrt(fro));
  for (std::size_t i = 0; i < y.data.size(); ++i) y.data[i] += static_cast<T>(nu) * omega.data[i];
  DenseMatrix<T> b(l, l, Layout::col_major);
  trnsolver::detail::internal_gemm(Layout::col_major, Op::trans, Op::no_trans, l, l, n, T(1), omega.data.data(),
                                   omega.ld(), y.data.data(), y.ld(), T(0), b.data.data(), b.ld(), host);
  for (std::int64_t j = 0; j < l; ++j)
    for (std::int64_t i = 0; i < j; ++i) b(i, j) = b(j, i) = (b(i, j) + b(j, i)) / T(2);
  if (potrf(Layout::col_major, Uplo::upper, l, b.data.data(), b.ld(), host) != 0) {
    r.u = DenseMatrix<T>(n, 0, Layout::col_major);
    return r;  // Ωᵀ·A·Ω is not numerically positive definite: A is not PSD
  }
  // E = Y_ν·R⁻¹ with Ωᵀ·Y_ν = RᵀR; Â = E·Eᵀ − ν·I on range(E).
  trnblas::trsm<T>(Layout::col_major, Side::right, Uplo::upper, Op::no_trans, Diag::non_unit, n, l, T(1), b.data.data(),
                   b.ld(), y.data.data(), y.ld(), host);
  std::vector<T> s(static_cast<std::size_t>(l));
  DenseMatrix<T> u(n, l, Layout::col_major), vt(l, l, Layout::col_major);
  const std::int64_t info = gesdd<T>(Layout::col_major, Job::thin, n, l, y.data.data(), y.ld(), s.data(), u.data.data(),
                                     u.ld(), vt.data.data(), vt.ld(), host);
  if (info != 0) {
    r.info = info;
    r.u = DenseMatrix<T>(n, 0, Layout::col_major);
    return r;
  }
  r.rank = l;
  r.w.resize(static_cast<std::size_t>(l));
  for (std::int64_t i = 0; i < l; ++i) {
    const double si = s[static_cast<std::size_t>(i)];
    r.w[static_cast<std::size_t>(i)] = static_cast<T>(std::max(si * si - nu, 0.0));
  }
  r.u = std::move(u);
  return r;
}

template <class T>
LowRankEigen<T> eigh_impl(const MatrixOperator<T>& a, const trncore::MatrixView<const T>* dense, std::int64_t k,
                          const RsvdOptions& o, const char* function) {
  const std::int64_t n = a.rows(), l = std::min(k + o.oversampling, n);
  const trncore::Options host = host_options(o);
  LowRankEigen<T> r;
  const DenseMatrix<T> q =
      range_basis(a, dense, l, o.power_iterations, o.sketch, o, r.matvecs, function, r.stopped_by_monitor);
  const DenseMatrix<T> aq = apply(a, q, r.matvecs, function);
  DenseMatrix<T> t(l, l, Layout::col_major);
  trnsolver::detail::internal_gemm(Layout::col_major, Op::trans, Op::no_trans, l, l, n, T(1), q.data.data(), q.ld(),
                                   aq.data.data(), aq.ld(), T(0), t.data.data(), t.ld(), host);
  for (std::int64_t j = 0; j < l; ++j)
    for (std::int64_t i = 0; i < j; ++i) t(i, j) = t(j, i) = (t(i, j) + t(j, i)) / T(2);
  std::vector<T> w(static_cast<std::size_t>(l));
  if (const std::int64_t info =
          syevd(Layout::col_major, EigJob::vectors, Uplo::lower, l, t.data.data(), t.ld(), w.data(), host);
      info != 0) {  // a numerical outcome, not an exception: rank 0, info says why
    r.info = info;
    r.u = DenseMatrix<T>(n, 0, Layout::col_major);
    return r;
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(l));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    return std::abs(w[static_cast<std::size_t>(x)]) > std::abs(w[static_cast<std::size_t>(y)]);
  });
  DenseMatrix<T> v(l, k, Layout::col_major);
  r.w.resize(static_cast<std::size_t>(k));
  for (std::int64_t j = 0; j < k; ++j) {
    const std::int64_t src = order[static_cast<std::size_t>(j)];
    r.w[static_cast<std::size_t>(j)] = w[static_cast<std::size_t>(src)];
    for (std::int64_t i = 0; i < l; ++i) v(i, j) = t(i, src);
  }
  r.u = DenseMatrix<T>(n, k, Layout::col_major);
  trnsolver::detail::internal_gemm(Layout::col_major, Op::no_trans, Op::no_trans, n, k, l, T(1), q.data.data(), q.ld(),
                                   v.data.data(), v.ld(), T(0), r.u.data.data(), r.u.ld(), host);
  r.rank = k;
  return r;
}

}  // namespace

template <class T>
LowRankEigen<T> nystrom(const MatrixOperator<T>& a, std::int64_t rank, const Sketch& sketch,
                        const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::nystrom";
  check_common(sketch, options, kFunction);
  check_symmetric_input(a, rank, "rank", kFunction);
  return nystrom_impl(a, rank, sketch, options, kFunction);
}

template <class T>
LowRankEigen<T> nystrom(trncore::MatrixView<const T> a, std::int64_t rank, const Sketch& sketch,
                        const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::nystrom";
  check_common(sketch, options, kFunction);
  require_finite(a, kFunction);
  const MatrixOperator<T> op = MatrixOperator<T>::dense(a, options);
  check_symmetric_input(op, rank, "rank", kFunction);
  return nystrom_impl(op, rank, sketch, options, kFunction);
}

template <class T>
LowRankEigen<T> eigh_randomized(const MatrixOperator<T>& a, std::int64_t k, const RsvdOptions& options) {
  constexpr const char* kFunction = "trnsolver::eigh_randomized";
  check_rsvd_options(options, kFunction);
  check_symmetric_input(a, k, "k", kFunction);
  return eigh_impl<T>(a, nullptr, k, options, kFunction);
}

template <class T>
LowRankEigen<T> eigh_randomized(trncore::MatrixView<const T> a, std::int64_t k, const RsvdOptions& options) {
  constexpr const char* kFunction = "trnsolver::eigh_randomized";
  require_finite(a, kFunction);
  if (a.rows() != a.cols())
    throw trncore::DimensionMismatch(kFunction,
                                     "the matrix is " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()),
                                     "pass a square symmetric matrix");
  check_rsvd_options(options, kFunction);
  CostLedger ledger(options);
  const MatrixOperator<T> op = ledger_operator(a, ledger);
  check_symmetric_input(op, k, "k", kFunction);
  return eigh_impl(op, &a, k, options, kFunction);
}

#define TRNSOLVER_SYMMETRIC(T)                                                                                         \
  template LowRankEigen<T> nystrom<T>(const MatrixOperator<T>&, std::int64_t, const Sketch&, const trncore::Options&); \
  template LowRankEigen<T> nystrom<T>(trncore::MatrixView<const T>, std::int64_t, const Sketch&,                       \
                                      const trncore::Options&);                                                        \
  template LowRankEigen<T> eigh_randomized<T>(const MatrixOperator<T>&, std::int64_t, const RsvdOptions&);             \
  template LowRankEigen<T> eigh_randomized<T>(trncore::MatrixView<const T>, std::int64_t, const RsvdOptions&);
TRNSOLVER_SYMMETRIC(float)
TRNSOLVER_SYMMETRIC(double)
#undef TRNSOLVER_SYMMETRIC

}  // namespace trnsolver
