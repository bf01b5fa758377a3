#include "sim_factor.hpp"

#include "common.hpp"
#include "mixed/blocked_cholesky.hpp"
#include "mixed/blocked_lu.hpp"
#include "mixed/blocked_qr.hpp"
#include "jacobi/one_sided_jacobi.hpp"

#include <trnsolver/jacobi.hpp>

#include <trnblas/level3.hpp>
#include <trncore/error.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace trnsolver::detail {

namespace {

// The sim backend's requirements beyond the host checks' sizes and storage.
template <class T>
void check_sim(const char* f, const trncore::Options& options) {
  trncore::validate(options, f);
  if constexpr (!std::is_same_v<T, float>)
    throw trncore::NotSupported(f, "the sim backend factors float data only (the TensorEngine has no fp64)",
                                "pass float data, or use trnsolver::solve with a bf16/fp32 factorization and fp64 "
                                "refinement for double systems");
  if (options.target_forward_error)
    throw trncore::NotSupported(f, "target_forward_error on a factorization",
                                "use trnsolver::solve, which certifies the solution");
}

}  // namespace

template <class T>
trncore::Options solves_on_host(const char* f, const trncore::Options& options) {
  if (options.backend != trncore::Backend::sim) return options;
  check_sim<T>(f, options);
  trncore::Options host;
  host.threads = options.threads;
  return host;
}

template trncore::Options solves_on_host<float>(const char*, const trncore::Options&);
template trncore::Options solves_on_host<double>(const char*, const trncore::Options&);

template <class T>
std::int64_t sim_getrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                       const trncore::Options& options) {
  constexpr const char* f = "trnsolver::getrf";
  check_sizes(f, {{"m", m}, {"n", n}});
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  check_array(f, "ipiv", ipiv, {"min(m, n)", m < n ? m : n});
  check_sim<T>(f, options);
  if (m != n)
    throw trncore::NotSupported(f, "the sim backend factors square matrices (m = " + std::to_string(m) +
                                       ", n = " + std::to_string(n) + ")",
                                "use the host backend for rectangular LU");
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    // Column-major working copy (the blocked algorithm's layout), factored, copied back.
    std::vector<float> w(static_cast<std::size_t>(n * n));
    const bool rm = layout == Layout::row_major;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) w[static_cast<std::size_t>(i + j * n)] = rm ? a[i * lda + j] : a[i + j * lda];
    std::vector<std::int64_t> piv;
    const std::int64_t info = blocked_lu(n, w.data(), n, true, piv, options);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) (rm ? a[i * lda + j] : a[i + j * lda]) = w[static_cast<std::size_t>(i + j * n)];
    for (std::int64_t i = 0; i < n; ++i) ipiv[i] = piv[static_cast<std::size_t>(i)];
    return info;
  } else {
    return 0;  // unreachable: check_sim threw
  }
}

template <class T>
std::int64_t sim_potrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda,
                       const trncore::Options& options) {
  constexpr const char* f = "trnsolver::potrf";
  check_sizes(f, {{"n", n}});
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    // A(i, j) of the referenced triangle as the lower triangle of a column-major copy; L comes back to the
    // same triangle (uplo = upper: U = Lᵀ).
    const bool rm = layout == Layout::row_major, lower = uplo == Uplo::lower;
    const auto at = [&](std::int64_t i, std::int64_t j) -> T& { return rm ? a[i * lda + j] : a[i + j * lda]; };
    std::vector<float> w(static_cast<std::size_t>(n * n), 0.0f);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) w[static_cast<std::size_t>(i + j * n)] = lower ? at(i, j) : at(j, i);
    const std::int64_t info = blocked_cholesky(n, w.data(), n, options);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) (lower ? at(i, j) : at(j, i)) = w[static_cast<std::size_t>(i + j * n)];
    return info;
  } else {
    return 0;
  }
}

template <class T>
std::int64_t sim_syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                       const trncore::Options& options) {
  constexpr const char* f = "trnsolver::syevd";
  check_sizes(f, {{"n", n}});
  if (uplo != Uplo::upper && uplo != Uplo::lower)
    throw trncore::InvalidArgument(f, "uplo has the invalid value " + std::to_string(static_cast<int>(uplo)),
                                   "pass Uplo::upper or Uplo::lower");
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  check_array(f, "w", w, {"n", n});
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    // The `uplo` triangle as a full symmetric row-major matrix; the eigenvectors come back as the columns of
    // the stored matrix in the caller's layout (as syevd's).
    const bool rm = layout == Layout::row_major, lower = uplo == Uplo::lower;
    const auto at = [&](std::int64_t i, std::int64_t j) -> T& { return rm ? a[i * lda + j] : a[i + j * lda]; };
    std::vector<float> full(static_cast<std::size_t>(n * n)), v;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j <= i; ++j)
        full[static_cast<std::size_t>(i * n + j)] = full[static_cast<std::size_t>(j * n + i)] = lower ? at(i, j) : at(j, i);
    JacobiOptions jo;
    jo.core = options;
    jo.vectors = job == EigJob::vectors;
    if (jo.vectors) v.resize(full.size());
    const JacobiResult r =
        eigh_jacobi<float>(Layout::row_major, n, full.data(), n, w, jo.vectors ? v.data() : nullptr, n, jo);
    if (jo.vectors)
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) at(i, j) = v[static_cast<std::size_t>(i * n + j)];
    return r.converged ? 0 : 1;
  } else {
    return 0;
  }
}

template <class T>
void sim_geqrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau,
               const trncore::Options& options) {
  constexpr const char* f = "trnsolver::geqrf";
  check_sizes(f, {{"m", m}, {"n", n}});
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  const std::int64_t k = m < n ? m : n;
  check_array(f, "tau", tau, {"min(m, n)", k});
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (k == 0) return;
    const bool rm = layout == Layout::row_major;
    std::vector<float> w(static_cast<std::size_t>(m * n));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) w[static_cast<std::size_t>(i + j * m)] = rm ? a[i * lda + j] : a[i + j * lda];
    blocked_qr(m, n, w.data(), m, tau, options);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) (rm ? a[i * lda + j] : a[i + j * lda]) = w[static_cast<std::size_t>(i + j * m)];
  }
}

template <class T>
std::int64_t sim_sygvd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* b,
                       std::int64_t ldb, T* w, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sygvd";
  check_sizes(f, {{"n", n}});
  if (uplo != Uplo::upper && uplo != Uplo::lower)
    throw trncore::InvalidArgument(f, "uplo has the invalid value " + std::to_string(static_cast<int>(uplo)),
                                   "pass Uplo::upper or Uplo::lower");
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  check_matrix(f, "b", layout, {"n", n}, {"n", n}, b, ldb, sizeof(T));
  check_array(f, "w", w, {"n", n});
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    using trncore::Layout;
    const bool rm = layout == Layout::row_major, lower = uplo == Uplo::lower;
    const auto at = [&](T* p, std::int64_t ld, std::int64_t i, std::int64_t j) -> T& {
      return rm ? p[i * ld + j] : p[i + j * ld];
    };
    const auto N = static_cast<std::size_t>(n);
    // Column-major working copies: C = A (full, from the `uplo` triangle), L = B's lower triangle.
    std::vector<float> c(N * N), l(N * N, 0.0f);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) {
        c[static_cast<std::size_t>(i + j * n)] = c[static_cast<std::size_t>(j + i * n)] = lower ? at(a, lda, i, j) : at(a, lda, j, i);
        l[static_cast<std::size_t>(i + j * n)] = lower ? at(b, ldb, i, j) : at(b, ldb, j, i);
      }
    if (const std::int64_t info = blocked_cholesky(n, l.data(), n, options); info != 0) return n + info;
    trncore::Options host;
    host.threads = options.threads;
    // C ← L⁻¹·C·L⁻ᵀ (fp32 triangular solves).
    trnblas::trsm<float>(Layout::col_major, Side::left, Uplo::lower, Op::no_trans, Diag::non_unit, n, n, 1.0f, l.data(),
                         n, c.data(), n, host);
    trnblas::trsm<float>(Layout::col_major, Side::right, Uplo::lower, Op::trans, Diag::non_unit, n, n, 1.0f, l.data(),
                         n, c.data(), n, host);
    JacobiOptions jo;
    jo.core = options;
    jo.vectors = job == EigJob::vectors;
    std::vector<float> y(jo.vectors ? N * N : 0);
    const JacobiResult r =
        eigh_jacobi<float>(Layout::col_major, n, c.data(), n, w, jo.vectors ? y.data() : nullptr, n, jo);
    if (jo.vectors) {
      // Z = L⁻ᵀ·Y, so that ZᵀBZ = YᵀY = I.
      trnblas::trsm<float>(Layout::col_major, Side::left, Uplo::lower, Op::trans, Diag::non_unit, n, n, 1.0f, l.data(),
                           n, y.data(), n, host);
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) at(a, lda, i, j) = y[static_cast<std::size_t>(i + j * n)];
    }
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j; i < n; ++i) (lower ? at(b, ldb, i, j) : at(b, ldb, j, i)) = l[static_cast<std::size_t>(i + j * n)];
    return r.converged ? 0 : 1;
  } else {
    return 0;
  }
}

template std::int64_t sim_sygvd<float>(Layout, EigJob, Uplo, std::int64_t, float*, std::int64_t, float*, std::int64_t,
                                       float*, const trncore::Options&);
template std::int64_t sim_sygvd<double>(Layout, EigJob, Uplo, std::int64_t, double*, std::int64_t, double*,
                                        std::int64_t, double*, const trncore::Options&);
template <class T>
std::int64_t sim_gesdd(Layout layout, Job job, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* s, T* u,
                       std::int64_t ldu, T* vt, std::int64_t ldvt, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gesdd";
  check_sizes(f, {{"m", m}, {"n", n}});
  if (job != Job::values_only && job != Job::thin && job != Job::full)
    throw trncore::InvalidArgument(f, "job has the invalid value " + std::to_string(static_cast<int>(job)),
                                   "pass Job::values_only, Job::thin or Job::full");
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  const std::int64_t k = m < n ? m : n;
  check_array(f, "s", s, {"min(m, n)", k});
  if (job == Job::thin) {
    check_matrix(f, "u", layout, {"m", m}, {"min(m, n)", k}, u, ldu, sizeof(T));
    check_matrix(f, "vt", layout, {"min(m, n)", k}, {"n", n}, vt, ldvt, sizeof(T));
  }
  check_sim<T>(f, options);
  if (job == Job::full)
    throw trncore::NotSupported(f, "Job::full on the sim backend (its one-sided Jacobi gives the thin factors)",
                                "use Job::thin, or the host backend for the full square factors");
  check_finite(f, "a", layout, m, n, a, lda);
  if constexpr (std::is_same_v<T, float>) {
    if (k == 0) return 0;
    const bool thin = job == Job::thin;
    return svd_one_sided_jacobi(layout, m, n, a, lda, s, thin ? u : nullptr, ldu, thin ? vt : nullptr, ldvt, options);
  } else {
    return 0;
  }
}

template std::int64_t sim_gesdd<float>(Layout, Job, std::int64_t, std::int64_t, float*, std::int64_t, float*, float*,
                                       std::int64_t, float*, std::int64_t, const trncore::Options&);
template std::int64_t sim_gesdd<double>(Layout, Job, std::int64_t, std::int64_t, double*, std::int64_t, double*,
                                        double*, std::int64_t, double*, std::int64_t, const trncore::Options&);
template void sim_geqrf<float>(Layout, std::int64_t, std::int64_t, float*, std::int64_t, float*, const trncore::Options&);
template void sim_geqrf<double>(Layout, std::int64_t, std::int64_t, double*, std::int64_t, double*,
                                const trncore::Options&);
template std::int64_t sim_syevd<float>(Layout, EigJob, Uplo, std::int64_t, float*, std::int64_t, float*,
                                       const trncore::Options&);
template std::int64_t sim_syevd<double>(Layout, EigJob, Uplo, std::int64_t, double*, std::int64_t, double*,
                                        const trncore::Options&);
template std::int64_t sim_getrf<float>(Layout, std::int64_t, std::int64_t, float*, std::int64_t, std::int64_t*,
                                       const trncore::Options&);
template std::int64_t sim_getrf<double>(Layout, std::int64_t, std::int64_t, double*, std::int64_t, std::int64_t*,
                                        const trncore::Options&);
template std::int64_t sim_potrf<float>(Layout, Uplo, std::int64_t, float*, std::int64_t, const trncore::Options&);
template std::int64_t sim_potrf<double>(Layout, Uplo, std::int64_t, double*, std::int64_t, const trncore::Options&);

}  // namespace trnsolver::detail
