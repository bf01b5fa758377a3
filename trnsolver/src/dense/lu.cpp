// LU with partial pivoting, norms and condition estimation: the checks, then LAPACKE's _work routines.
#include "common.hpp"
#include "sim/dense_routines.hpp"

#include <trncore/detail/format_number.hpp>
#include <cmath>
#include <string>

namespace trnsolver {

using namespace detail;

template <class T>
std::int64_t getrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                   const trncore::Options& options) {
  constexpr const char* f = "trnsolver::getrf";
  if (options.backend == trncore::Backend::sim) return sim_getrf(layout, m, n, a, lda, ipiv, options);
  const std::int64_t k = check_factorization<T>(f, layout, m, n, a, lda, "ipiv", ipiv, options);
  if (k == 0) return 0;
  std::vector<lapack_int> piv(static_cast<std::size_t>(k));
  const lapack_int info =
      pick<T>(LAPACKE_sgetrf_work, LAPACKE_dgetrf_work)(lapack_layout(layout), li(m), li(n), a, li(lda), piv.data());
  for (std::int64_t i = 0; i < k; ++i) ipiv[i] = piv[static_cast<std::size_t>(i)];
  return result(f, info);
}

namespace {

template <class T>
void getrs_checked(const char* f, Layout layout, Op trans, std::int64_t n, std::int64_t nrhs, const T* a,
                   std::int64_t lda, const std::vector<lapack_int>& piv, T* b, std::int64_t ldb) {
  if (n == 0 || nrhs == 0) return;
  result(f, pick<T>(LAPACKE_sgetrs_work, LAPACKE_dgetrs_work)(lapack_layout(layout), trans_char(trans), li(n), li(nrhs),
                                                              a, li(lda), piv.data(), b, li(ldb)));
}

template <class T>
void check_getrs(const char* f, Layout layout, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda,
                 const T* b, std::int64_t ldb) {
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  check_matrix(f, "b", layout, {"n", n}, {"nrhs", nrhs}, b, ldb, sizeof(T));
}

}  // namespace

template <class T>
void getrs(Layout layout, Op trans, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda,
           const std::int64_t* ipiv, T* b, std::int64_t ldb, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::getrs";
  check_call<T>(f, {{"n", n}, {"nrhs", nrhs}}, solves_on_host<T>(f, options));
  check_getrs(f, layout, n, nrhs, a, lda, b, ldb);
  trncore::detail::check_pointer(f, "ipiv", ipiv, n);
  if (n == 0 || nrhs == 0) return;
  getrs_checked(f, layout, trans, n, nrhs, a, lda, lapack_pivots(f, ipiv, n, n), b, ldb);
}

template <class T>
std::int64_t gesv(Layout layout, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, std::int64_t* ipiv, T* b,
                  std::int64_t ldb, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gesv";
  check_call<T>(f, {{"n", n}, {"nrhs", nrhs}}, options);
  check_getrs(f, layout, n, nrhs, a, lda, b, ldb);
  trncore::detail::check_pointer(f, "ipiv", ipiv, n);
  if (n == 0) return 0;
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  const lapack_int info =
      pick<T>(LAPACKE_sgetrf_work, LAPACKE_dgetrf_work)(lapack_layout(layout), li(n), li(n), a, li(lda), piv.data());
  for (std::int64_t i = 0; i < n; ++i) ipiv[i] = piv[static_cast<std::size_t>(i)];
  if (result(f, info) > 0) return info;
  getrs_checked(f, layout, Op::no_trans, n, nrhs, static_cast<const T*>(a), lda, piv, b, ldb);
  return 0;
}

template <class T>
T lange(Layout layout, Norm norm, std::int64_t m, std::int64_t n, const T* a, std::int64_t lda,
        const trncore::Options& options) {
  constexpr const char* f = "trnsolver::lange";
  check_call<T>(f, {{"m", m}, {"n", n}}, options);
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  if (norm != Norm::one && norm != Norm::inf && norm != Norm::fro && norm != Norm::max)
    throw trncore::InvalidArgument(f, "norm has the invalid value " + std::to_string(static_cast<int>(norm)),
                                   "pass Norm::one, inf, fro or max");
  if (m == 0 || n == 0) return T(0);
  // The stored transpose of a row-major matrix is column-major: its 1-norm is A's ∞-norm and vice versa.
  const bool rm = layout == Layout::row_major;
  Norm stored = norm;
  if (rm && norm == Norm::one)
    stored = Norm::inf;
  else if (rm && norm == Norm::inf)
    stored = Norm::one;
  const char c = stored == Norm::one ? '1' : stored == Norm::inf ? 'I' : stored == Norm::fro ? 'F' : 'M';
  const std::int64_t rows = rm ? n : m, cols = rm ? m : n;
  std::vector<T> work(stored == Norm::inf ? static_cast<std::size_t>(rows) : 1);
  return pick<T>(LAPACKE_slange_work, LAPACKE_dlange_work)(LAPACK_COL_MAJOR, c, li(rows), li(cols), a, li(lda),
                                                           work.data());
}

template <class T>
std::int64_t gecon(Layout layout, Norm norm, std::int64_t n, const T* lu, std::int64_t lda,
                   std::type_identity_t<T> anorm, T* rcond, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gecon";
  check_call<T>(f, {{"n", n}}, solves_on_host<T>(f, options));
  if (norm != Norm::one && norm != Norm::inf)
    throw trncore::InvalidArgument(f, "norm = " + std::string(to_string(norm)) + " has no condition estimator",
                                   "pass Norm::one or Norm::inf");
  check_matrix(f, "lu", layout, {"n", n}, {"n", n}, lu, lda, sizeof(T));
  trncore::detail::check_pointer(f, "rcond", rcond, 1);
  if (!(anorm >= T(0)))
    throw trncore::InvalidArgument(
        f, "anorm = " + trncore::detail::sci(static_cast<double>(anorm)) + " is negative or NaN",
        "pass the norm of the original matrix (lange), which is >= 0");
  if (n == 0) {
    *rcond = T(1);
    return 0;
  }
  std::vector<T> work(static_cast<std::size_t>(4 * n));
  std::vector<lapack_int> iwork(static_cast<std::size_t>(n));
  // LAPACK ≥ 3.11 reports an overflowed or NaN estimate as info = 1; older ones return it in rcond.
  return result(
      f, pick<T>(LAPACKE_sgecon_work, LAPACKE_dgecon_work)(lapack_layout(layout), norm == Norm::one ? '1' : 'I', li(n),
                                                           lu, li(lda), anorm, rcond, work.data(), iwork.data()));
}

// View overloads.

template <class T>
std::int64_t getrf(trncore::MatrixView<T> a, std::span<std::int64_t> ipiv, const trncore::Options& options) {
  const std::int64_t k = a.rows() < a.cols() ? a.rows() : a.cols();
  trncore::detail::check_span("trnsolver::getrf", "ipiv", ipiv.size(), k);
  return getrf<T>(a.layout(), a.rows(), a.cols(), a.data(), a.ld(), ipiv.data(), options);
}

template <class T>
void getrs(Op trans, std::type_identity_t<trncore::MatrixView<const T>> lu, std::span<const std::int64_t> ipiv,
           trncore::MatrixView<T> b, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::getrs";
  check_layouts(f, {{"lu", lu.layout()}, {"b", b.layout()}});
  trncore::detail::check_square(f, "lu", lu.rows(), lu.cols());
  check_extent(f, "b", "rows", b.rows(), {"n", lu.rows()});
  trncore::detail::check_span(f, "ipiv", ipiv.size(), lu.rows());
  getrs<T>(lu.layout(), trans, lu.rows(), b.cols(), lu.data(), lu.ld(), ipiv.data(), b.data(), b.ld(), options);
}

template <class T>
std::int64_t gesv(trncore::MatrixView<T> a, std::span<std::int64_t> ipiv, trncore::MatrixView<T> b,
                  const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gesv";
  check_layouts(f, {{"a", a.layout()}, {"b", b.layout()}});
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  check_extent(f, "b", "rows", b.rows(), {"n", a.rows()});
  trncore::detail::check_span(f, "ipiv", ipiv.size(), a.rows());
  return gesv<T>(a.layout(), a.rows(), b.cols(), a.data(), a.ld(), ipiv.data(), b.data(), b.ld(), options);
}

template <class T>
T lange(Norm norm, trncore::MatrixView<const T> a, const trncore::Options& options) {
  return lange<T>(a.layout(), norm, a.rows(), a.cols(), a.data(), a.ld(), options);
}

template <class T>
std::int64_t gecon(Norm norm, std::type_identity_t<trncore::MatrixView<const T>> lu, std::type_identity_t<T> anorm,
                   T& rcond, const trncore::Options& options) {
  trncore::detail::check_square("trnsolver::gecon", "lu", lu.rows(), lu.cols());
  return gecon<T>(lu.layout(), norm, lu.rows(), lu.data(), lu.ld(), anorm, &rcond, options);
}

#define TRNSOLVER_LU(T)                                                                                                \
  template std::int64_t getrf<T>(Layout, std::int64_t, std::int64_t, T*, std::int64_t, std::int64_t*,                  \
                                 const trncore::Options&);                                                             \
  template void getrs<T>(Layout, Op, std::int64_t, std::int64_t, const T*, std::int64_t, const std::int64_t*, T*,      \
                         std::int64_t, const trncore::Options&);                                                       \
  template std::int64_t gesv<T>(Layout, std::int64_t, std::int64_t, T*, std::int64_t, std::int64_t*, T*, std::int64_t, \
                                const trncore::Options&);                                                              \
  template T lange<T>(Layout, Norm, std::int64_t, std::int64_t, const T*, std::int64_t, const trncore::Options&);      \
  template std::int64_t gecon<T>(Layout, Norm, std::int64_t, const T*, std::int64_t, T, T*, const trncore::Options&);  \
  template std::int64_t getrf<T>(trncore::MatrixView<T>, std::span<std::int64_t>, const trncore::Options&);            \
  template void getrs<T>(Op, trncore::MatrixView<const T>, std::span<const std::int64_t>, trncore::MatrixView<T>,      \
                         const trncore::Options&);                                                                     \
  template std::int64_t gesv<T>(trncore::MatrixView<T>, std::span<std::int64_t>, trncore::MatrixView<T>,               \
                                const trncore::Options&);                                                              \
  template T lange<T>(Norm, trncore::MatrixView<const T>, const trncore::Options&);                                    \
  template std::int64_t gecon<T>(Norm, trncore::MatrixView<const T>, T, T&, const trncore::Options&);
TRNSOLVER_LU(float)
TRNSOLVER_LU(double)
#undef TRNSOLVER_LU

}  // namespace trnsolver
