// Householder QR (geqrf/orgqr) and least squares (gels, gelsd, lstsq).
//
// Row-major QR goes through LAPACKE's row-major interface (a transposed copy in and out). A copy-free
// path exists — the LQ factorization ?gelqf of the stored transpose has the same reflectors, tau and
// R = Lᵀ — but it measured 7–26 % slower than the copy plus ?geqrf at n = 500…2000 with this LAPACK
// (docs/benchmarks.md, "trnsolver: host factorizations"), so it is not used.
#include "common.hpp"
#include "sim/dense_routines.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace trnsolver {

using namespace detail;

template <class T>
void geqrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau,
           const trncore::Options& options) {
  constexpr const char* f = "trnsolver::geqrf";
  if (options.backend == trncore::Backend::sim) return sim_geqrf(layout, m, n, a, lda, tau, options);
  const std::int64_t k = check_factorization<T>(f, layout, m, n, a, lda, "tau", tau, options);
  if (k == 0) return;
  const auto run = pick<T>(LAPACKE_sgeqrf_work, LAPACKE_dgeqrf_work);
  T query{};
  result(f, run(lapack_layout(layout), li(m), li(n), a, li(lda), tau, &query, -1));
  std::vector<T> work(work_size(query));
  result(f, run(lapack_layout(layout), li(m), li(n), a, li(lda), tau, work.data(), li(std::ssize(work))));
}

template <class T>
void orgqr(Layout layout, std::int64_t m, std::int64_t n, std::int64_t k, T* a, std::int64_t lda, const T* tau,
           const trncore::Options& options) {
  constexpr const char* f = "trnsolver::orgqr";
  check_call<T>(f, {{"m", m}, {"n", n}, {"k", k}}, options);
  if (n > m || k > n)
    throw trncore::InvalidArgument(f,
                                   "m = " + std::to_string(m) + ", n = " + std::to_string(n) +
                                       ", k = " + std::to_string(k) + " do not satisfy m >= n >= k",
                                   "form at most m columns of Q from at most n reflectors");
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  trncore::detail::check_pointer(f, "tau", tau, k);
  if (n == 0) return;
  const auto run = pick<T>(LAPACKE_sorgqr_work, LAPACKE_dorgqr_work);
  T query{};
  result(f, run(lapack_layout(layout), li(m), li(n), li(k), a, li(lda), tau, &query, -1));
  std::vector<T> work(work_size(query));
  result(f, run(lapack_layout(layout), li(m), li(n), li(k), a, li(lda), tau, work.data(), li(std::ssize(work))));
}

template <class T>
std::int64_t gels(Layout layout, Op trans, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda,
                  T* b, std::int64_t ldb, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gels";
  if (options.backend == trncore::Backend::sim) return sim_gels(layout, trans, m, n, nrhs, a, lda, b, ldb, options);
  check_call<T>(f, {{"m", m}, {"n", n}, {"nrhs", nrhs}}, options);
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  check_matrix(f, "b", layout, {"max(m, n)", m > n ? m : n}, {"nrhs", nrhs}, b, ldb, sizeof(T));
  if ((m == 0 && n == 0) || nrhs == 0) return 0;
  const auto run = pick<T>(LAPACKE_sgels_work, LAPACKE_dgels_work);
  T query{};
  result(f, run(lapack_layout(layout), trans_char(trans), li(m), li(n), li(nrhs), a, li(lda), b, li(ldb), &query, -1));
  std::vector<T> work(work_size(query));
  return result(f, run(lapack_layout(layout), trans_char(trans), li(m), li(n), li(nrhs), a, li(lda), b, li(ldb),
                       work.data(), li(std::ssize(work))));
}

template <class T>
std::int64_t gelsd(Layout layout, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                   std::int64_t ldb, T* s, std::type_identity_t<T> rcond, std::int64_t* rank,
                   const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gelsd";
  if (options.backend == trncore::Backend::sim)
    return sim_gelsd(layout, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, options);
  check_call<T>(f, {{"m", m}, {"n", n}, {"nrhs", nrhs}}, options);
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  check_matrix(f, "b", layout, {"max(m, n)", m > n ? m : n}, {"nrhs", nrhs}, b, ldb, sizeof(T));
  const std::int64_t k = m < n ? m : n;
  trncore::detail::check_pointer(f, "s", s, k);
  trncore::detail::check_pointer(f, "rank", rank, 1);
  if (std::isnan(rcond))
    throw trncore::InvalidArgument(f, "rcond is NaN",
                                   "pass the relative threshold below which singular values count as zero");
  check_finite(f, "a", layout, m, n, a, lda);
  check_finite(f, "b", layout, m, nrhs, b, ldb);
  *rank = 0;
  if (k == 0) {
    // LAPACK's quick return: X = 0 for an empty A.
    const std::int64_t rows = m > n ? m : n;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < nrhs; ++j) b[layout == Layout::row_major ? i * ldb + j : i + j * ldb] = T(0);
    return 0;
  }
  if (nrhs == 0) {
    // Singular values and rank only: ?gelsd needs nrhs ≥ 1 for the work layout LAPACKE assumes, so solve
    // for one zero right-hand side in scratch storage.
    const std::int64_t rows = m > n ? m : n;
    std::vector<T> scratch(static_cast<std::size_t>(rows), T(0));
    return gelsd<T>(layout, m, n, 1, a, lda, scratch.data(), layout == Layout::row_major ? 1 : rows, s, rcond, rank,
                    options);
  }
  const auto run = pick<T>(LAPACKE_sgelsd_work, LAPACKE_dgelsd_work);
  T query{};
  lapack_int iquery = 0, r = 0;
  result(f,
         run(lapack_layout(layout), li(m), li(n), li(nrhs), a, li(lda), b, li(ldb), s, rcond, &r, &query, -1, &iquery));
  std::vector<T> work(work_size(query));
  std::vector<lapack_int> iwork(work_size(iquery));
  const lapack_int info = run(lapack_layout(layout), li(m), li(n), li(nrhs), a, li(lda), b, li(ldb), s, rcond, &r,
                              work.data(), li(std::ssize(work)), iwork.data());
  *rank = r;
  return result(f, info);
}

template <class T>
LstsqResult<T> lstsq(trncore::MatrixView<const T> a, std::type_identity_t<trncore::MatrixView<const T>> b,
                     LstsqMethod method, std::optional<std::type_identity_t<T>> rcond,
                     const trncore::Options& options) {
  constexpr const char* f = "trnsolver::lstsq";
  if (options.backend == trncore::Backend::sim)
    solves_on_host<T>(f, options);  // float data only; gels/gelsd route
  else
    check_options(f, options, std::is_same_v<T, double>);
  check_extent(f, "b", "rows", b.rows(), {"the rows of a", a.rows()});
  if (method != LstsqMethod::qr && method != LstsqMethod::svd)
    throw trncore::InvalidArgument(f, "method has the invalid value " + std::to_string(static_cast<int>(method)),
                                   "pass LstsqMethod::qr or LstsqMethod::svd");
  if (rcond && std::isnan(*rcond)) throw trncore::InvalidArgument(f, "rcond is NaN", "pass a threshold, or none");
  const std::int64_t m = a.rows(), n = a.cols(), nrhs = b.cols(), rows = m > n ? m : n;
  const Layout layout = b.layout();
  // Copies in b's layout: LAPACK overwrites both, and the caller's A may be in the other layout.
  DenseMatrix<T> ac(m, n, layout), bc(rows, nrhs, layout);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) ac(i, j) = a(i, j);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < nrhs; ++j) bc(i, j) = b(i, j);
  LstsqResult<T> out;
  out.x = DenseMatrix<T>(n, nrhs, layout);
  if (method == LstsqMethod::qr) {
    out.info = gels<T>(layout, Op::no_trans, m, n, nrhs, ac.data.data(), ac.ld(), bc.data.data(), bc.ld(), options);
    if (out.info > 0) return out;
    out.rank = m < n ? m : n;
  } else {
    const T eps = std::numeric_limits<T>::epsilon();
    const T threshold = rcond ? *rcond : static_cast<T>(rows) * eps;
    out.s.assign(static_cast<std::size_t>(m < n ? m : n), T(0));
    out.info = gelsd<T>(layout, m, n, nrhs, ac.data.data(), ac.ld(), bc.data.data(), bc.ld(), out.s.data(), threshold,
                        &out.rank, options);
    if (out.info > 0) return out;
  }
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < nrhs; ++j) out.x(i, j) = bc(i, j);
  return out;
}

// View overloads.

template <class T>
void geqrf(trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> tau, const trncore::Options& options) {
  const std::int64_t k = a.rows() < a.cols() ? a.rows() : a.cols();
  trncore::detail::check_span("trnsolver::geqrf", "tau", tau.size(), k);
  geqrf<T>(a.layout(), a.rows(), a.cols(), a.data(), a.ld(), tau.data(), options);
}

template <class T>
void orgqr(trncore::MatrixView<T> a, std::type_identity_t<std::span<const T>> tau, const trncore::Options& options) {
  orgqr<T>(a.layout(), a.rows(), a.cols(), static_cast<std::int64_t>(tau.size()), a.data(), a.ld(), tau.data(),
           options);
}

template <class T>
std::int64_t gels(Op trans, trncore::MatrixView<T> a, trncore::MatrixView<T> b, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gels";
  check_layouts(f, {{"a", a.layout()}, {"b", b.layout()}});
  const std::int64_t rows = a.rows() > a.cols() ? a.rows() : a.cols();
  check_extent(f, "b", "rows", b.rows(), {"max(m, n)", rows});
  return gels<T>(a.layout(), trans, a.rows(), a.cols(), b.cols(), a.data(), a.ld(), b.data(), b.ld(), options);
}

template <class T>
std::int64_t gelsd(trncore::MatrixView<T> a, trncore::MatrixView<T> b, std::type_identity_t<std::span<T>> s,
                   std::type_identity_t<T> rcond, std::int64_t& rank, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gelsd";
  check_layouts(f, {{"a", a.layout()}, {"b", b.layout()}});
  const std::int64_t rows = a.rows() > a.cols() ? a.rows() : a.cols();
  check_extent(f, "b", "rows", b.rows(), {"max(m, n)", rows});
  trncore::detail::check_span(f, "s", s.size(), a.rows() < a.cols() ? a.rows() : a.cols());
  return gelsd<T>(a.layout(), a.rows(), a.cols(), b.cols(), a.data(), a.ld(), b.data(), b.ld(), s.data(), rcond, &rank,
                  options);
}

#define TRNSOLVER_QR(T)                                                                                                \
  template void geqrf<T>(Layout, std::int64_t, std::int64_t, T*, std::int64_t, T*, const trncore::Options&);           \
  template void orgqr<T>(Layout, std::int64_t, std::int64_t, std::int64_t, T*, std::int64_t, const T*,                 \
                         const trncore::Options&);                                                                     \
  template std::int64_t gels<T>(Layout, Op, std::int64_t, std::int64_t, std::int64_t, T*, std::int64_t, T*,            \
                                std::int64_t, const trncore::Options&);                                                \
  template std::int64_t gelsd<T>(Layout, std::int64_t, std::int64_t, std::int64_t, T*, std::int64_t, T*, std::int64_t, \
                                 T*, T, std::int64_t*, const trncore::Options&);                                       \
  template LstsqResult<T> lstsq<T>(trncore::MatrixView<const T>, trncore::MatrixView<const T>, LstsqMethod,            \
                                   std::optional<T>, const trncore::Options&);                                         \
  template void geqrf<T>(trncore::MatrixView<T>, std::span<T>, const trncore::Options&);                               \
  template void orgqr<T>(trncore::MatrixView<T>, std::span<const T>, const trncore::Options&);                         \
  template std::int64_t gels<T>(Op, trncore::MatrixView<T>, trncore::MatrixView<T>, const trncore::Options&);          \
  template std::int64_t gelsd<T>(trncore::MatrixView<T>, trncore::MatrixView<T>, std::span<T>, T, std::int64_t&,       \
                                 const trncore::Options&);
TRNSOLVER_QR(float)
TRNSOLVER_QR(double)
#undef TRNSOLVER_QR

}  // namespace trnsolver
