// Cholesky (potrf/potrs/posv) and Bunch–Kaufman LDLᵀ (sytrf/sytrs).
//
// Row-major Cholesky needs no copy: the stored transpose of a row-major symmetric matrix is the same
// matrix in column-major order with the other triangle, so potrf(row-major, lower) is LAPACK's
// potrf(column-major, upper) on the same memory, and L = Uᵀ lands where the caller expects it.
#include "common.hpp"
#include "sim/dense_routines.hpp"

#include <trnblas/level3.hpp>

#include <string>

namespace trnsolver {

using namespace detail;

namespace {

template <class T>
void check_square_matrix(const char* f, const char* name, Layout layout, std::int64_t n, const T* a, std::int64_t ld) {
  check_matrix(f, name, layout, {"n", n}, {"n", n}, a, ld, sizeof(T));
}

template <class T>
lapack_int potrf_unchecked(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda) {
  const Uplo stored = layout == Layout::row_major ? other(uplo) : uplo;
  return pick<T>(LAPACKE_spotrf_work, LAPACKE_dpotrf_work)(LAPACK_COL_MAJOR, uplo_char(stored), li(n), a, li(lda));
}

template <class T>
void potrs_unchecked(const char* f, Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* a,
                     std::int64_t lda, T* b, std::int64_t ldb) {
  if (n == 0 || nrhs == 0) return;
  if (layout == Layout::col_major) {
    result(f, pick<T>(LAPACKE_spotrs_work, LAPACKE_dpotrs_work)(LAPACK_COL_MAJOR, uplo_char(uplo), li(n), li(nrhs), a,
                                                                li(lda), b, li(ldb)));
    return;
  }
  // A = L·Lᵀ: L·Y = B, then Lᵀ·X = Y; A = Uᵀ·U: Uᵀ·Y = B, then U·X = Y — what ?potrs does, on row-major data.
  const Op first = uplo == Uplo::lower ? Op::no_trans : Op::trans;
  const Op second = uplo == Uplo::lower ? Op::trans : Op::no_trans;
  trnblas::trsm<T>(layout, Side::left, uplo, first, Diag::non_unit, n, nrhs, T(1), a, lda, b, ldb);
  trnblas::trsm<T>(layout, Side::left, uplo, second, Diag::non_unit, n, nrhs, T(1), a, lda, b, ldb);
}

void check_uplo(const char* f, Uplo uplo) {
  if (uplo != Uplo::upper && uplo != Uplo::lower)
    throw trncore::InvalidArgument(f, "uplo has the invalid value " + std::to_string(static_cast<int>(uplo)),
                                   "pass Uplo::upper or Uplo::lower");
}

}  // namespace

template <class T>
std::int64_t potrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::potrf";
  check_uplo(f, uplo);
  if (options.backend == trncore::Backend::sim) return sim_potrf(layout, uplo, n, a, lda, options);
  check_call<T>(f, {{"n", n}}, options);
  check_square_matrix(f, "a", layout, n, a, lda);
  if (n == 0) return 0;
  return result(f, potrf_unchecked(layout, uplo, n, a, lda));
}

template <class T>
void potrs(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda, T* b,
           std::int64_t ldb, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::potrs";
  check_call<T>(f, {{"n", n}, {"nrhs", nrhs}}, solves_on_host<T>(f, options));
  check_uplo(f, uplo);
  check_square_matrix(f, "a", layout, n, a, lda);
  check_matrix(f, "b", layout, {"n", n}, {"nrhs", nrhs}, b, ldb, sizeof(T));
  potrs_unchecked(f, layout, uplo, n, nrhs, a, lda, b, ldb);
}

template <class T>
std::int64_t posv(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                  std::int64_t ldb, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::posv";
  check_call<T>(f, {{"n", n}, {"nrhs", nrhs}}, options);
  check_uplo(f, uplo);
  check_square_matrix(f, "a", layout, n, a, lda);
  check_matrix(f, "b", layout, {"n", n}, {"nrhs", nrhs}, b, ldb, sizeof(T));
  if (n == 0) return 0;
  const std::int64_t info = result(f, potrf_unchecked(layout, uplo, n, a, lda));
  if (info > 0) return info;
  potrs_unchecked(f, layout, uplo, n, nrhs, static_cast<const T*>(a), lda, b, ldb);
  return 0;
}

template <class T>
std::int64_t sytrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                   const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sytrf";
  if (options.backend == trncore::Backend::sim) {
    check_uplo(f, uplo);
    return sim_sytrf(layout, uplo, n, a, lda, ipiv, options);
  }
  check_call<T>(f, {{"n", n}}, options);
  check_uplo(f, uplo);
  check_square_matrix(f, "a", layout, n, a, lda);
  trncore::detail::check_pointer(f, "ipiv", ipiv, n);
  if (n == 0) return 0;
  const auto run = pick<T>(LAPACKE_ssytrf_work, LAPACKE_dsytrf_work);
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  T query{};
  result(f, run(lapack_layout(layout), uplo_char(uplo), li(n), a, li(lda), piv.data(), &query, -1));
  std::vector<T> work(work_size(query));
  const lapack_int info =
      run(lapack_layout(layout), uplo_char(uplo), li(n), a, li(lda), piv.data(), work.data(), li(std::ssize(work)));
  for (std::int64_t i = 0; i < n; ++i) ipiv[i] = piv[static_cast<std::size_t>(i)];
  return result(f, info);
}

template <class T>
void sytrs(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda,
           const std::int64_t* ipiv, T* b, std::int64_t ldb, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sytrs";
  check_call<T>(f, {{"n", n}, {"nrhs", nrhs}}, solves_on_host<T>(f, options));
  check_uplo(f, uplo);
  check_square_matrix(f, "a", layout, n, a, lda);
  check_matrix(f, "b", layout, {"n", n}, {"nrhs", nrhs}, b, ldb, sizeof(T));
  trncore::detail::check_pointer(f, "ipiv", ipiv, n);
  if (n == 0 || nrhs == 0) return;
  // The structure sytrf produces, walked in LAPACK's order: lower from the top (a 2×2 block is k, k+1
  // with ipiv[k] = ipiv[k+1] < 0), upper from the bottom (k−1, k). Anything else would make ?sytrs index
  // outside the matrices.
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  const auto bad = [&](std::int64_t k, const std::string& why) {
    throw trncore::InvalidArgument(f, "ipiv[" + std::to_string(k) + "] = " + std::to_string(ipiv[k]) + " " + why,
                                   "pass the pivots sytrf returned for this uplo");
  };
  const bool lower = uplo == Uplo::lower;
  for (std::int64_t step = 0; step < n;) {
    const std::int64_t k = lower ? step : n - 1 - step;
    const std::int64_t p = ipiv[k] < 0 ? -ipiv[k] : ipiv[k];
    if (ipiv[k] == 0 || p > n) bad(k, "is outside [1, n] and [-n, -1] with n = " + std::to_string(n));
    if (ipiv[k] > 0) {
      ++step;
      continue;
    }
    const std::int64_t mate = lower ? k + 1 : k - 1;
    if (mate < 0 || mate >= n || ipiv[mate] != ipiv[k])
      bad(k, "starts a 2x2 block whose partner entry is missing or different");
    step += 2;
  }
  for (std::int64_t i = 0; i < n; ++i) piv[static_cast<std::size_t>(i)] = static_cast<lapack_int>(ipiv[i]);
  result(f, pick<T>(LAPACKE_ssytrs_work, LAPACKE_dsytrs_work)(lapack_layout(layout), uplo_char(uplo), li(n), li(nrhs),
                                                              a, li(lda), piv.data(), b, li(ldb)));
}

// View overloads.

template <class T>
std::int64_t potrf(Uplo uplo, trncore::MatrixView<T> a, const trncore::Options& options) {
  trncore::detail::check_square("trnsolver::potrf", "a", a.rows(), a.cols());
  return potrf<T>(a.layout(), uplo, a.rows(), a.data(), a.ld(), options);
}

template <class T>
void potrs(Uplo uplo, std::type_identity_t<trncore::MatrixView<const T>> factor, trncore::MatrixView<T> b,
           const trncore::Options& options) {
  constexpr const char* f = "trnsolver::potrs";
  check_layouts(f, {{"factor", factor.layout()}, {"b", b.layout()}});
  trncore::detail::check_square(f, "factor", factor.rows(), factor.cols());
  check_extent(f, "b", "rows", b.rows(), {"n", factor.rows()});
  potrs<T>(factor.layout(), uplo, factor.rows(), b.cols(), factor.data(), factor.ld(), b.data(), b.ld(), options);
}

template <class T>
std::int64_t posv(Uplo uplo, trncore::MatrixView<T> a, trncore::MatrixView<T> b, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::posv";
  check_layouts(f, {{"a", a.layout()}, {"b", b.layout()}});
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  check_extent(f, "b", "rows", b.rows(), {"n", a.rows()});
  return posv<T>(a.layout(), uplo, a.rows(), b.cols(), a.data(), a.ld(), b.data(), b.ld(), options);
}

template <class T>
std::int64_t sytrf(Uplo uplo, trncore::MatrixView<T> a, std::span<std::int64_t> ipiv, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sytrf";
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  trncore::detail::check_span(f, "ipiv", ipiv.size(), a.rows());
  return sytrf<T>(a.layout(), uplo, a.rows(), a.data(), a.ld(), ipiv.data(), options);
}

template <class T>
void sytrs(Uplo uplo, std::type_identity_t<trncore::MatrixView<const T>> factor, std::span<const std::int64_t> ipiv,
           trncore::MatrixView<T> b, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sytrs";
  check_layouts(f, {{"factor", factor.layout()}, {"b", b.layout()}});
  trncore::detail::check_square(f, "factor", factor.rows(), factor.cols());
  check_extent(f, "b", "rows", b.rows(), {"n", factor.rows()});
  trncore::detail::check_span(f, "ipiv", ipiv.size(), factor.rows());
  sytrs<T>(factor.layout(), uplo, factor.rows(), b.cols(), factor.data(), factor.ld(), ipiv.data(), b.data(), b.ld(),
           options);
}

#define TRNSOLVER_CHOLESKY(T)                                                                                       \
  template std::int64_t potrf<T>(Layout, Uplo, std::int64_t, T*, std::int64_t, const trncore::Options&);            \
  template void potrs<T>(Layout, Uplo, std::int64_t, std::int64_t, const T*, std::int64_t, T*, std::int64_t,        \
                         const trncore::Options&);                                                                  \
  template std::int64_t posv<T>(Layout, Uplo, std::int64_t, std::int64_t, T*, std::int64_t, T*, std::int64_t,       \
                                const trncore::Options&);                                                           \
  template std::int64_t sytrf<T>(Layout, Uplo, std::int64_t, T*, std::int64_t, std::int64_t*,                       \
                                 const trncore::Options&);                                                          \
  template void sytrs<T>(Layout, Uplo, std::int64_t, std::int64_t, const T*, std::int64_t, const std::int64_t*, T*, \
                         std::int64_t, const trncore::Options&);                                                    \
  template std::int64_t potrf<T>(Uplo, trncore::MatrixView<T>, const trncore::Options&);                            \
  template void potrs<T>(Uplo, trncore::MatrixView<const T>, trncore::MatrixView<T>, const trncore::Options&);      \
  template std::int64_t posv<T>(Uplo, trncore::MatrixView<T>, trncore::MatrixView<T>, const trncore::Options&);     \
  template std::int64_t sytrf<T>(Uplo, trncore::MatrixView<T>, std::span<std::int64_t>, const trncore::Options&);   \
  template void sytrs<T>(Uplo, trncore::MatrixView<const T>, std::span<const std::int64_t>, trncore::MatrixView<T>, \
                         const trncore::Options&);
TRNSOLVER_CHOLESKY(float)
TRNSOLVER_CHOLESKY(double)
#undef TRNSOLVER_CHOLESKY

}  // namespace trnsolver
