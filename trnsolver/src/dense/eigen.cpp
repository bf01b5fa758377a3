// Symmetric (syevd, eigh), generalized symmetric-definite (sygvd, eigh_generalized) eigenproblems and the
// real Schur form (gees, schur).
//
// Row-major symmetric problems need no copy of A: its stored transpose is the same symmetric matrix with
// the other triangle, so LAPACK runs column-major with uplo swapped. The eigenvectors come back as the
// columns of a column-major matrix; one in-place n×n transposition makes them the columns of the row-major
// one. The Schur form of Aᵀ is not that of A, so gees uses LAPACKE's row-major interface (a copy).
#include "common.hpp"
#include "sim/dense_routines.hpp"

#include <string>

namespace trnsolver {

using namespace detail;

namespace {

char jobz(EigJob job) { return job == EigJob::vectors ? 'V' : 'N'; }

void check_enums(const char* f, EigJob job, const Uplo* uplo) {
  if (job != EigJob::values_only && job != EigJob::vectors)
    throw trncore::InvalidArgument(f, "job has the invalid value " + std::to_string(static_cast<int>(job)),
                                   "pass EigJob::values_only or EigJob::vectors");
  if (uplo != nullptr && *uplo != Uplo::upper && *uplo != Uplo::lower)
    throw trncore::InvalidArgument(f, "uplo has the invalid value " + std::to_string(static_cast<int>(*uplo)),
                                   "pass Uplo::upper or Uplo::lower");
}

void check_method(const char* f, EighMethod method, const trncore::Options& options) {
  if (method != EighMethod::automatic && method != EighMethod::jacobi && method != EighMethod::tridiagonal)
    throw trncore::InvalidArgument(f, "method has the invalid value " + std::to_string(static_cast<int>(method)),
                                   "pass EighMethod::automatic, jacobi or tridiagonal");
  if (method != EighMethod::automatic && options.backend != trncore::Backend::sim)
    throw trncore::NotSupported(f, "EighMethod::" + std::string(to_string(method)) + " on the host backend",
                                "the host runs LAPACK's syevd: pass EighMethod::automatic, or use eigh_jacobi / "
                                "eigh_tridiagonal_ql of <trnsolver/jacobi.hpp>");
}

// The host checks of syevd (b = nullptr) and sygvd: options and sizes, the enums, A's (and B's) storage, w,
// then finite `uplo` triangles.
template <class T>
void check_symmetric_problem(const char* f, Layout layout, EigJob job, Uplo uplo, std::int64_t n, const T* a,
                             std::int64_t lda, const T* b, std::int64_t ldb, const T* w,
                             const trncore::Options& options) {
  check_call<T>(f, {{"n", n}}, options);
  check_enums(f, job, &uplo);
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  if (b != nullptr || ldb != 0) check_matrix(f, "b", layout, {"n", n}, {"n", n}, b, ldb, sizeof(T));
  trncore::detail::check_pointer(f, "w", w, n);
  check_finite(f, "a", layout, n, n, a, lda, &uplo);
  if (b != nullptr || ldb != 0) check_finite(f, "b", layout, n, n, b, ldb, &uplo);
}

}  // namespace

template <class T>
std::int64_t syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                   const trncore::Options& options) {
  return syevd<T>(layout, job, uplo, n, a, lda, w, EighMethod::automatic, options);
}

template <class T>
std::int64_t syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                   EighMethod method, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::syevd";
  check_method(f, method, options);
  if (options.backend == trncore::Backend::sim) {
    check_enums(f, job, &uplo);
    return sim_syevd(layout, job, uplo, n, a, lda, w, method, options);
  }
  check_symmetric_problem<T>(f, layout, job, uplo, n, a, lda, nullptr, 0, w, options);
  if (n == 0) return 0;
  const bool rm = layout == Layout::row_major;
  const Uplo stored = rm ? other(uplo) : uplo;
  const auto run = pick<T>(LAPACKE_ssyevd_work, LAPACKE_dsyevd_work);
  const std::int64_t info = with_workspaces<T>(f, [&](T* work, lapack_int lwork, lapack_int* iwork, lapack_int liwork) {
    return run(LAPACK_COL_MAJOR, jobz(job), uplo_char(stored), li(n), a, li(lda), w, work, lwork, iwork, liwork);
  });
  if (rm && job == EigJob::vectors && info == 0) transpose_square(n, a, lda);
  return info;
}

template <class T>
std::int64_t sygvd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* b, std::int64_t ldb,
                   T* w, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sygvd";
  if (options.backend == trncore::Backend::sim) {
    check_enums(f, job, &uplo);
    return sim_sygvd(layout, job, uplo, n, a, lda, b, ldb, w, options);
  }
  check_symmetric_problem<T>(f, layout, job, uplo, n, a, lda, b, ldb, w, options);
  if (n == 0) return 0;
  const bool rm = layout == Layout::row_major;
  const Uplo stored = rm ? other(uplo) : uplo;
  const auto run = pick<T>(LAPACKE_ssygvd_work, LAPACKE_dsygvd_work);
  const std::int64_t info = with_workspaces<T>(f, [&](T* work, lapack_int lwork, lapack_int* iwork, lapack_int liwork) {
    return run(LAPACK_COL_MAJOR, 1, jobz(job), uplo_char(stored), li(n), a, li(lda), b, li(ldb), w, work, lwork, iwork,
               liwork);
  });
  if (rm && job == EigJob::vectors && info == 0) transpose_square(n, a, lda);
  return info;
}

template <class T>
std::int64_t gees(Layout layout, EigJob job, std::int64_t n, T* a, std::int64_t lda, std::type_identity_t<T>* wr,
                  std::type_identity_t<T>* wi, std::type_identity_t<T>* vs, std::int64_t ldvs,
                  const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gees";
  if (options.backend == trncore::Backend::sim) {
    check_enums(f, job, nullptr);
    return sim_gees(layout, job, n, a, lda, wr, wi, vs, ldvs, options);
  }
  check_call<T>(f, {{"n", n}}, options);
  check_enums(f, job, nullptr);
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  trncore::detail::check_pointer(f, "wr", wr, n);
  trncore::detail::check_pointer(f, "wi", wi, n);
  T dummy[1] = {T(0)};
  if (job == EigJob::vectors) {
    check_matrix(f, "vs", layout, {"n", n}, {"n", n}, vs, ldvs, sizeof(T));
  } else {
    // Not referenced; LAPACKE's row-major interface still demands ldvs >= n.
    vs = dummy;
    ldvs = n > 1 ? n : 1;
  }
  check_finite(f, "a", layout, n, n, a, lda);
  if (n == 0) return 0;
  const auto run = pick<T>(LAPACKE_sgees_work, LAPACKE_dgees_work);
  lapack_int sdim = 0;
  T query{};
  result(f, run(lapack_layout(layout), jobz(job), 'N', nullptr, li(n), a, li(lda), &sdim, wr, wi, vs, li(ldvs), &query,
                -1, nullptr));
  std::vector<T> work(work_size(query));
  return result(f, run(lapack_layout(layout), jobz(job), 'N', nullptr, li(n), a, li(lda), &sdim, wr, wi, vs, li(ldvs),
                       work.data(), li(std::ssize(work)), nullptr));
}

template <class T>
EighResult<T> eigh(trncore::MatrixView<const T> a, EigJob job, Uplo uplo, const trncore::Options& options) {
  return eigh<T>(a, job, uplo, EighMethod::automatic, options);
}

template <class T>
EighResult<T> eigh(trncore::MatrixView<const T> a, EigJob job, Uplo uplo, EighMethod method,
                   const trncore::Options& options) {
  constexpr const char* f = "trnsolver::eigh";
  check_method(f, method, options);
  if (options.backend != trncore::Backend::sim) check_options(f, options, std::is_same_v<T, double>);
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  check_enums(f, job, &uplo);
  check_finite(f, "a", a.layout(), a.rows(), a.cols(), a.data(), a.ld(), &uplo);
  const std::int64_t n = a.rows();
  EighResult<T> out;
  DenseMatrix<T> z(n, n, a.layout());
  copy_matrix(a.layout(), n, n, a.data(), a.ld(), z.data.data(), z.ld());
  out.w.assign(static_cast<std::size_t>(n), T(0));
  out.info = syevd<T>(a.layout(), job, uplo, n, z.data.data(), z.ld(), out.w.data(), method, options);
  if (job == EigJob::vectors) out.z = std::move(z);
  return out;
}

template <class T>
EighResult<T> eigh_generalized(trncore::MatrixView<const T> a, std::type_identity_t<trncore::MatrixView<const T>> b,
                               EigJob job, Uplo uplo, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::eigh_generalized";
  if (options.backend != trncore::Backend::sim) check_options(f, options, std::is_same_v<T, double>);
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  trncore::detail::check_square(f, "b", b.rows(), b.cols());
  check_extent(f, "b", "rows", b.rows(), {"n", a.rows()});
  check_enums(f, job, &uplo);
  check_finite(f, "a", a.layout(), a.rows(), a.cols(), a.data(), a.ld(), &uplo);
  check_finite(f, "b", b.layout(), b.rows(), b.cols(), b.data(), b.ld(), &uplo);
  const std::int64_t n = a.rows();
  const Layout layout = a.layout();
  DenseMatrix<T> z(n, n, layout), bc(n, n, layout);
  copy_matrix(layout, n, n, a.data(), a.ld(), z.data.data(), z.ld());
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) bc(i, j) = b(i, j);  // b may be in the other layout
  EighResult<T> out;
  out.w.assign(static_cast<std::size_t>(n), T(0));
  out.info = sygvd<T>(layout, job, uplo, n, z.data.data(), z.ld(), bc.data.data(), bc.ld(), out.w.data(), options);
  if (job == EigJob::vectors) out.z = std::move(z);
  return out;
}

template <class T>
SchurResult<T> schur(trncore::MatrixView<const T> a, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::schur";
  if (options.backend != trncore::Backend::sim) check_options(f, options, std::is_same_v<T, double>);
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  check_finite(f, "a", a.layout(), a.rows(), a.cols(), a.data(), a.ld());
  const std::int64_t n = a.rows();
  SchurResult<T> out;
  out.t = DenseMatrix<T>(n, n, a.layout());
  out.z = DenseMatrix<T>(n, n, a.layout());
  copy_matrix(a.layout(), n, n, a.data(), a.ld(), out.t.data.data(), out.t.ld());
  out.wr.assign(static_cast<std::size_t>(n), T(0));
  out.wi.assign(static_cast<std::size_t>(n), T(0));
  out.info = gees<T>(a.layout(), EigJob::vectors, n, out.t.data.data(), out.t.ld(), out.wr.data(), out.wi.data(),
                     out.z.data.data(), out.z.ld(), options);
  return out;
}

// View overloads.

template <class T>
std::int64_t syevd(EigJob job, Uplo uplo, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> w,
                   const trncore::Options& options) {
  constexpr const char* f = "trnsolver::syevd";
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  trncore::detail::check_span(f, "w", w.size(), a.rows());
  return syevd<T>(a.layout(), job, uplo, a.rows(), a.data(), a.ld(), w.data(), options);
}

template <class T>
std::int64_t sygvd(EigJob job, Uplo uplo, trncore::MatrixView<T> a, trncore::MatrixView<T> b,
                   std::type_identity_t<std::span<T>> w, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sygvd";
  check_layouts(f, {{"a", a.layout()}, {"b", b.layout()}});
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  trncore::detail::check_square(f, "b", b.rows(), b.cols());
  check_extent(f, "b", "rows", b.rows(), {"n", a.rows()});
  trncore::detail::check_span(f, "w", w.size(), a.rows());
  return sygvd<T>(a.layout(), job, uplo, a.rows(), a.data(), a.ld(), b.data(), b.ld(), w.data(), options);
}

template <class T>
std::int64_t gees(EigJob job, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> wr,
                  std::type_identity_t<std::span<T>> wi, trncore::MatrixView<T> vs, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gees";
  trncore::detail::check_square(f, "a", a.rows(), a.cols());
  trncore::detail::check_span(f, "wr", wr.size(), a.rows());
  trncore::detail::check_span(f, "wi", wi.size(), a.rows());
  if (job == EigJob::vectors) {
    check_layouts(f, {{"a", a.layout()}, {"vs", vs.layout()}});
    trncore::detail::check_square(f, "vs", vs.rows(), vs.cols());
    check_extent(f, "vs", "rows", vs.rows(), {"n", a.rows()});
  }
  return gees<T>(a.layout(), job, a.rows(), a.data(), a.ld(), wr.data(), wi.data(), vs.data(), vs.ld(), options);
}

#define TRNSOLVER_EIGEN(T)                                                                                             \
  template std::int64_t syevd<T>(Layout, EigJob, Uplo, std::int64_t, T*, std::int64_t, T*, const trncore::Options&);   \
  template std::int64_t syevd<T>(Layout, EigJob, Uplo, std::int64_t, T*, std::int64_t, T*, EighMethod,                 \
                                 const trncore::Options&);                                                             \
  template std::int64_t sygvd<T>(Layout, EigJob, Uplo, std::int64_t, T*, std::int64_t, T*, std::int64_t, T*,           \
                                 const trncore::Options&);                                                             \
  template std::int64_t gees<T>(Layout, EigJob, std::int64_t, T*, std::int64_t, T*, T*, T*, std::int64_t,              \
                                const trncore::Options&);                                                              \
  template EighResult<T> eigh<T>(trncore::MatrixView<const T>, EigJob, Uplo, const trncore::Options&);                 \
  template EighResult<T> eigh<T>(trncore::MatrixView<const T>, EigJob, Uplo, EighMethod, const trncore::Options&);     \
  template EighResult<T> eigh_generalized<T>(trncore::MatrixView<const T>, trncore::MatrixView<const T>, EigJob, Uplo, \
                                             const trncore::Options&);                                                 \
  template SchurResult<T> schur<T>(trncore::MatrixView<const T>, const trncore::Options&);                             \
  template std::int64_t syevd<T>(EigJob, Uplo, trncore::MatrixView<T>, std::span<T>, const trncore::Options&);         \
  template std::int64_t sygvd<T>(EigJob, Uplo, trncore::MatrixView<T>, trncore::MatrixView<T>, std::span<T>,           \
                                 const trncore::Options&);                                                             \
  template std::int64_t gees<T>(EigJob, trncore::MatrixView<T>, std::span<T>, std::span<T>, trncore::MatrixView<T>,    \
                                const trncore::Options&);
TRNSOLVER_EIGEN(float)
TRNSOLVER_EIGEN(double)
#undef TRNSOLVER_EIGEN

}  // namespace trnsolver
