// SVD by divide and conquer (gesdd, svd) and the pseudo-inverse (pinv).
//
// Row-major SVD needs no copy: the stored transpose of a row-major A is column-major Aᵀ = V·Σ·Uᵀ, so
// LAPACK's SVD of it returns, in column-major order, Aᵀ's left vectors (A's V, which read row-major are
// A's Vᵀ) and Aᵀ's Vᵀ (A's Uᵀ, which read row-major is A's U): the caller's u and vt swap places.
#include "common.hpp"
#include "internal_gemm.hpp"
#include "sim/dense_routines.hpp"

#include <trncore/detail/format_number.hpp>
#include <trnblas/gemm.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace trnsolver {

using namespace detail;

namespace {

char job_char(Job job) { return job == Job::values_only ? 'N' : job == Job::thin ? 'S' : 'A'; }

void check_job(const char* f, Job job) {
  if (job != Job::values_only && job != Job::thin && job != Job::full)
    throw trncore::InvalidArgument(f, "job has the invalid value " + std::to_string(static_cast<int>(job)),
                                   "pass Job::values_only, thin or full");
}

}  // namespace

template <class T>
std::int64_t gesdd(Layout layout, Job job, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* s,
                   std::type_identity_t<T>* u, std::int64_t ldu, std::type_identity_t<T>* vt, std::int64_t ldvt,
                   const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gesdd";
  if (options.backend == trncore::Backend::sim) {
    check_job(f, job);
    return sim_gesdd(layout, job, m, n, a, lda, s, u, ldu, vt, ldvt, options);
  }
  check_call<T>(f, {{"m", m}, {"n", n}}, options);
  check_job(f, job);
  check_svd_storage<T>(f, layout, job, m, n, a, lda, s, u, ldu, vt, ldvt);
  const std::int64_t k = m < n ? m : n;
  check_finite(f, "a", layout, m, n, a, lda);
  if (k == 0) {
    // Full factors of an empty A are identities (LAPACK leaves them untouched; numpy returns identities).
    if (job == Job::full) {
      const bool rm = layout == Layout::row_major;
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < m; ++j) u[rm ? i * ldu + j : i + j * ldu] = T(i == j ? 1 : 0);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) vt[rm ? i * ldvt + j : i + j * ldvt] = T(i == j ? 1 : 0);
    }
    return 0;
  }
  const bool rm = layout == Layout::row_major;
  const std::int64_t cm = rm ? n : m, cn = rm ? m : n;
  T* cu = rm ? vt : u;
  T* cvt = rm ? u : vt;
  std::int64_t ldcu = rm ? ldvt : ldu, ldcvt = rm ? ldu : ldvt;
  T dummy[1] = {T(0)};
  if (job == Job::values_only) {
    cu = cvt = dummy;
    ldcu = ldcvt = 1;
  }
  const auto run = pick<T>(LAPACKE_sgesdd_work, LAPACKE_dgesdd_work);
  std::vector<lapack_int> iwork(static_cast<std::size_t>(8 * k));
  T query{};
  result(f, run(LAPACK_COL_MAJOR, job_char(job), li(cm), li(cn), a, li(lda), s, cu, li(ldcu), cvt, li(ldcvt), &query,
                -1, iwork.data()));
  std::vector<T> work(work_size(query));
  return result(f, run(LAPACK_COL_MAJOR, job_char(job), li(cm), li(cn), a, li(lda), s, cu, li(ldcu), cvt, li(ldcvt),
                       work.data(), li(std::ssize(work)), iwork.data()));
}

template <class T>
SvdResult<T> svd(trncore::MatrixView<const T> a, Job job, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::svd";
  if (options.backend != trncore::Backend::sim) check_options(f, options, std::is_same_v<T, double>);
  check_job(f, job);
  const std::int64_t m = a.rows(), n = a.cols(), k = m < n ? m : n;
  const Layout layout = a.layout();
  check_finite(f, "a", layout, m, n, a.data(), a.ld());
  DenseMatrix<T> copy(m, n, layout);
  copy_matrix(layout, m, n, a.data(), a.ld(), copy.data.data(), copy.ld());
  SvdResult<T> out;
  out.s.assign(static_cast<std::size_t>(k), T(0));
  if (job == Job::thin) {
    out.u = DenseMatrix<T>(m, k, layout);
    out.vt = DenseMatrix<T>(k, n, layout);
  } else if (job == Job::full) {
    out.u = DenseMatrix<T>(m, m, layout);
    out.vt = DenseMatrix<T>(n, n, layout);
  }
  out.info = gesdd<T>(layout, job, m, n, copy.data.data(), copy.ld(), out.s.data(), out.u.data.data(), out.u.ld(),
                      out.vt.data.data(), out.vt.ld(), options);
  return out;
}

template <class T>
PinvResult<T> pinv(trncore::MatrixView<const T> a, std::optional<std::type_identity_t<T>> rcond,
                   const trncore::Options& options) {
  constexpr const char* f = "trnsolver::pinv";
  if (rcond && !(*rcond >= T(0)))
    throw trncore::InvalidArgument(
        f, "rcond = " + trncore::detail::sci(static_cast<double>(*rcond)) + " is negative or NaN",
        "pass a relative threshold >= 0, or none for max(m, n)·eps");
  // On the sim backend (float): the thin SVD by one-sided Jacobi and the product V_r·Σ_r⁻¹·U_rᵀ as a sim GEMM.
  const bool sim = options.backend == trncore::Backend::sim;
  if (sim)
    solves_on_host<T>(f, options);  // float data only
  else
    check_options(f, options, std::is_same_v<T, double>);
  check_finite(f, "a", a.layout(), a.rows(), a.cols(), a.data(), a.ld());
  const std::int64_t m = a.rows(), n = a.cols(), k = m < n ? m : n;
  PinvResult<T> out;
  SvdResult<T> d = svd<T>(a, Job::thin, options);
  out.x = DenseMatrix<T>(n, m, a.layout());
  out.info = d.info;
  if (d.info > 0 || k == 0) return out;
  const T threshold = (rcond ? *rcond : static_cast<T>(m > n ? m : n) * std::numeric_limits<T>::epsilon()) * d.s[0];
  std::int64_t r = 0;
  while (r < k && d.s[static_cast<std::size_t>(r)] > threshold) ++r;
  out.rank = r;
  // A⁺ = V_r·Σ_r⁻¹·U_rᵀ: scale the first r rows of Vᵀ, then X = (Vᵀ_r)ᵀ·(U_r)ᵀ.
  for (std::int64_t l = 0; l < r; ++l)
    for (std::int64_t j = 0; j < n; ++j) d.vt(l, j) /= d.s[static_cast<std::size_t>(l)];
  if (r > 0)
    trnsolver::detail::internal_gemm<T>(a.layout(), Op::trans, Op::trans, n, m, r, T(1), d.vt.data.data(), d.vt.ld(),
                                        d.u.data.data(), d.u.ld(), T(0), out.x.data.data(), out.x.ld(),
                                        sim ? options : trncore::Options{});
  return out;
}

// View overload.

template <class T>
std::int64_t gesdd(Job job, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> s, trncore::MatrixView<T> u,
                   trncore::MatrixView<T> vt, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gesdd";
  const std::int64_t m = a.rows(), n = a.cols(), k = m < n ? m : n;
  trncore::detail::check_span(f, "s", s.size(), k);
  if (job != Job::values_only) {
    check_layouts(f, {{"a", a.layout()}, {"u", u.layout()}, {"vt", vt.layout()}});
    const std::int64_t ucols = job == Job::thin ? k : m, vrows = job == Job::thin ? k : n;
    check_extent(f, "u", "rows", u.rows(), {"m", m});
    check_extent(f, "u", "columns", u.cols(), {job == Job::thin ? "min(m, n)" : "m", ucols});
    check_extent(f, "vt", "rows", vt.rows(), {job == Job::thin ? "min(m, n)" : "n", vrows});
    check_extent(f, "vt", "columns", vt.cols(), {"n", n});
  }
  return gesdd<T>(a.layout(), job, m, n, a.data(), a.ld(), s.data(), u.data(), u.ld(), vt.data(), vt.ld(), options);
}

#define TRNSOLVER_SVD(T)                                                                                              \
  template std::int64_t gesdd<T>(Layout, Job, std::int64_t, std::int64_t, T*, std::int64_t, T*, T*, std::int64_t, T*, \
                                 std::int64_t, const trncore::Options&);                                              \
  template SvdResult<T> svd<T>(trncore::MatrixView<const T>, Job, const trncore::Options&);                           \
  template PinvResult<T> pinv<T>(trncore::MatrixView<const T>, std::optional<T>, const trncore::Options&);            \
  template std::int64_t gesdd<T>(Job, trncore::MatrixView<T>, std::span<T>, trncore::MatrixView<T>,                   \
                                 trncore::MatrixView<T>, const trncore::Options&);
TRNSOLVER_SVD(float)
TRNSOLVER_SVD(double)
#undef TRNSOLVER_SVD

}  // namespace trnsolver
