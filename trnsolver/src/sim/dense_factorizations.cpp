#include "sim/dense_routines.hpp"

#include "dense/common.hpp"
#include "sim/dense_storage.hpp"
#include "sim/block_reflector.hpp"
#include "sim/blocked_cholesky.hpp"
#include "sim/blocked_lu.hpp"
#include "sim/blocked_householder_qr.hpp"
#include "sim/one_sided_jacobi_svd.hpp"

#include <trnsolver/jacobi.hpp>

#include <trnblas/level3.hpp>
#include <trncore/error.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace trnsolver::detail {

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
  trncore::detail::check_pointer(f, "ipiv", ipiv, m < n ? m : n);
  check_sim<T>(f, options);
  if (m != n)
    throw trncore::NotSupported(
        f, "the sim backend factors square matrices (m = " + std::to_string(m) + ", n = " + std::to_string(n) + ")",
        "use the host backend for rectangular LU");
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    std::vector<float> w = to_col_major(layout, n, n, a, lda);
    std::vector<std::int64_t> piv;
    const std::int64_t info = blocked_lu(n, w.data(), n, true, piv, options);
    from_col_major(layout, n, n, w, a, lda);
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
    std::vector<float> w = lower_triangle(layout, uplo, n, a, lda);
    const std::int64_t info = blocked_cholesky(n, w.data(), n, options);
    store_lower_triangle(layout, uplo, n, w, a, lda);
    return info;
  } else {
    return 0;
  }
}

template <class T>
std::int64_t sim_syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                       EighMethod method, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::syevd";
  check_sizes(f, {{"n", n}});
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  trncore::detail::check_pointer(f, "w", w, n);
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    const bool vectors = job == EigJob::vectors;
    if (method == EighMethod::tridiagonal || (method == EighMethod::automatic && n > kLuBlock)) {
      check_finite(f, "a", layout, n, n, a, lda, &uplo);
      return sim_syevd_tridiagonal(layout, vectors, uplo, n, a, lda, w, options);
    }
    // Jacobi reads the lower triangle; the eigenvectors come back as the columns of the stored matrix in the
    // caller's layout (as syevd's).
    const std::vector<float> l = lower_triangle(layout, uplo, n, a, lda);
    JacobiOptions jo;
    static_cast<trncore::Options&>(jo) = options;
    jo.vectors = vectors;
    std::vector<float> v(jo.vectors ? l.size() : 0);
    const JacobiResult r =
        eigh_jacobi<float>(Layout::col_major, n, l.data(), n, w, jo.vectors ? v.data() : nullptr, n, jo);
    if (jo.vectors) from_col_major(layout, n, n, v, a, lda);
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
  trncore::detail::check_pointer(f, "tau", tau, k);
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (k == 0) return;
    std::vector<float> w = to_col_major(layout, m, n, a, lda);
    blocked_qr(m, n, w.data(), m, tau, options);
    from_col_major(layout, m, n, w, a, lda);
  }
}

template <class T>
std::int64_t sim_sygvd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* b,
                       std::int64_t ldb, T* w, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::sygvd";
  check_sizes(f, {{"n", n}});
  check_matrix(f, "a", layout, {"n", n}, {"n", n}, a, lda, sizeof(T));
  check_matrix(f, "b", layout, {"n", n}, {"n", n}, b, ldb, sizeof(T));
  trncore::detail::check_pointer(f, "w", w, n);
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (n == 0) return 0;
    const auto N = static_cast<std::size_t>(n);
    // Column-major working copies: C = A (full: its `uplo` triangle mirrored), L = B's `uplo` triangle.
    std::vector<float> c = lower_triangle(layout, uplo, n, a, lda), l = lower_triangle(layout, uplo, n, b, ldb);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j + 1; i < n; ++i)
        c[static_cast<std::size_t>(j + i * n)] = c[static_cast<std::size_t>(i + j * n)];
    if (const std::int64_t info = blocked_cholesky(n, l.data(), n, options); info != 0) return n + info;
    trncore::Options host;
    host.threads = options.threads;
    // C ← L⁻¹·C·L⁻ᵀ (fp32 triangular solves).
    trnblas::trsm<float>(Layout::col_major, Side::left, Uplo::lower, Op::no_trans, Diag::non_unit, n, n, 1.0f, l.data(),
                         n, c.data(), n, host);
    trnblas::trsm<float>(Layout::col_major, Side::right, Uplo::lower, Op::trans, Diag::non_unit, n, n, 1.0f, l.data(),
                         n, c.data(), n, host);
    JacobiOptions jo;
    static_cast<trncore::Options&>(jo) = options;
    jo.vectors = job == EigJob::vectors;
    std::vector<float> y(jo.vectors ? N * N : 0);
    const JacobiResult r =
        eigh_jacobi<float>(Layout::col_major, n, c.data(), n, w, jo.vectors ? y.data() : nullptr, n, jo);
    if (jo.vectors) {
      // Z = L⁻ᵀ·Y, so that ZᵀBZ = YᵀY = I.
      trnblas::trsm<float>(Layout::col_major, Side::left, Uplo::lower, Op::trans, Diag::non_unit, n, n, 1.0f, l.data(),
                           n, y.data(), n, host);
      from_col_major(layout, n, n, y, a, lda);
    }
    store_lower_triangle(layout, uplo, n, l, b, ldb);
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
  check_svd_storage<T>(f, layout, job, m, n, a, lda, s, u, ldu, vt, ldvt);
  const std::int64_t k = m < n ? m : n;
  check_sim<T>(f, options);
  check_finite(f, "a", layout, m, n, a, lda);
  if constexpr (std::is_same_v<T, float>) {
    if (job != Job::full) {
      if (k == 0) return 0;
      const bool thin = job == Job::thin;
      return svd_one_sided_jacobi(layout, m, n, a, lda, s, thin ? u : nullptr, ldu, thin ? vt : nullptr, ldvt, options);
    }
    // Full: the thin factors into the leading columns of U (m×m) and of V = (Vᵀ)ᵀ (n×n), column-major, then
    // the one that is not yet square completed. An empty A gives identities, as on the host.
    const std::vector<float> acm = to_col_major(layout, m, n, a, lda);
    std::vector<float> uf(static_cast<std::size_t>(m * m), 0.0f), v(static_cast<std::size_t>(n * n), 0.0f);
    std::vector<float> vtk(static_cast<std::size_t>(k * n));
    if (k > 0)
      if (const std::int64_t info =
              svd_one_sided_jacobi(Layout::col_major, m, n, acm.data(), m, s, uf.data(), m, vtk.data(), k, options);
          info != 0)
        return info;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < k; ++i)
        v[static_cast<std::size_t>(j + i * n)] = vtk[static_cast<std::size_t>(i + j * k)];
    complete_basis(m, k, uf.data(), m, options);
    complete_basis(n, k, v.data(), n, options);
    from_col_major(layout, m, m, uf, u, ldu);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) element(layout, vt, ldvt, i, j) = v[static_cast<std::size_t>(j + i * n)];
    return 0;
  } else {
    return 0;
  }
}

template std::int64_t sim_gesdd<float>(Layout, Job, std::int64_t, std::int64_t, float*, std::int64_t, float*, float*,
                                       std::int64_t, float*, std::int64_t, const trncore::Options&);
template std::int64_t sim_gesdd<double>(Layout, Job, std::int64_t, std::int64_t, double*, std::int64_t, double*,
                                        double*, std::int64_t, double*, std::int64_t, const trncore::Options&);
template void sim_geqrf<float>(Layout, std::int64_t, std::int64_t, float*, std::int64_t, float*,
                               const trncore::Options&);
template void sim_geqrf<double>(Layout, std::int64_t, std::int64_t, double*, std::int64_t, double*,
                                const trncore::Options&);
template std::int64_t sim_syevd<float>(Layout, EigJob, Uplo, std::int64_t, float*, std::int64_t, float*, EighMethod,
                                       const trncore::Options&);
template std::int64_t sim_syevd<double>(Layout, EigJob, Uplo, std::int64_t, double*, std::int64_t, double*, EighMethod,
                                        const trncore::Options&);
template std::int64_t sim_getrf<float>(Layout, std::int64_t, std::int64_t, float*, std::int64_t, std::int64_t*,
                                       const trncore::Options&);
template std::int64_t sim_getrf<double>(Layout, std::int64_t, std::int64_t, double*, std::int64_t, std::int64_t*,
                                        const trncore::Options&);
template std::int64_t sim_potrf<float>(Layout, Uplo, std::int64_t, float*, std::int64_t, const trncore::Options&);
template std::int64_t sim_potrf<double>(Layout, Uplo, std::int64_t, double*, std::int64_t, const trncore::Options&);

}  // namespace trnsolver::detail
