// Least squares on the sim backend: gels by the blocked Householder QR (trailing updates and the
// application of Qᵀ or Q as trnblas sim GEMMs, panels in VectorEngine fp32), gelsd by the one-sided Jacobi
// SVD with the two products Uᵣᵀ·B and Vᵣ·(Σᵣ⁻¹·Uᵣᵀ·B) as sim GEMMs. The triangular solves with R run in fp32
// on the host, as getrs/potrs on sim do.
//
// gels reduces every case to one QR (for least squares with B's columns appended, so QᵀB comes out of the
// QR's own trailing updates): M = A when m ≥ n, M = Aᵀ when m < n (LAPACK uses the LQ factorization
// of A there, which is the same thing transposed). With M = Q·R (M p×k, p = max(m, n), k = min(m, n)):
//   min ‖B − M·X‖ (A tall, no_trans; A wide, trans): X = R⁻¹·(QᵀB)(0:k);
//   minimum-norm Mᵀ·X = B (A tall, trans; A wide, no_trans): X = Q·[R⁻ᵀB; 0].
#include "sim/dense_routines.hpp"
#include "internal_gemm.hpp"
#include "sim/dense_storage.hpp"

#include "sim/one_sided_jacobi_svd.hpp"
#include "sim/block_reflector.hpp"
#include "sim/blocked_householder_qr.hpp"

#include <trnblas/gemm.hpp>
#include <trnblas/level3.hpp>
#include <trncore/math_mode.hpp>

#include <cmath>
#include <limits>
#include <vector>

namespace trnsolver::detail {

namespace {

// B's rows [0, rows) zeroed: LAPACK's X = 0 for an empty A.
template <class T>
void zero_rows(Layout layout, std::int64_t rows, std::int64_t nrhs, T* b, std::int64_t ldb) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < nrhs; ++j) element(layout, b, ldb, i, j) = T(0);
}

trncore::Options host_solves(const trncore::Options& options) {
  trncore::Options host;
  host.threads = options.threads;
  return host;
}

}  // namespace

template <class T>
std::int64_t sim_gels(Layout layout, Op trans, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a,
                      std::int64_t lda, T* b, std::int64_t ldb, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gels";
  check_sizes(f, {{"m", m}, {"n", n}, {"nrhs", nrhs}});
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  const std::int64_t p = m > n ? m : n, k = m < n ? m : n;
  check_matrix(f, "b", layout, {"max(m, n)", p}, {"nrhs", nrhs}, b, ldb, sizeof(T));
  check_sim<T>(f, options);
  if constexpr (std::is_same_v<T, float>) {
    if (nrhs == 0) return 0;
    if (k == 0) {
      zero_rows(layout, p, nrhs, b, ldb);
      return 0;
    }
    const bool tall = m >= n;
    // M (p×k, column-major) = A or Aᵀ, factored in place.
    std::vector<float> mq = to_col_major(layout, m, n, a, lda);
    if (!tall) {
      std::vector<float> t(mq.size());
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i)
          t[static_cast<std::size_t>(j + i * n)] = mq[static_cast<std::size_t>(i + j * m)];
      mq.swap(t);
    }
    std::vector<float> tau(static_cast<std::size_t>(k));
    const bool least_squares = tall == (trans == Op::no_trans);
    // Least squares: B's columns appended to M, so the QR's trailing updates compute QᵀB with the block
    // reflectors they already hold (bit for bit apply_q(true, …) on B afterwards). Not under MathMode::sr,
    // whose stochastic rounding keys each GEMM output's random word by its index in the product (more columns
    // would draw other words, so other — equally valid — roundings than the separate application's).
    const bool fused = least_squares && options.math_mode != trncore::MathMode::sr;
    if (fused) {
      const std::vector<float> bc = to_col_major(layout, p, nrhs, b, ldb);
      mq.insert(mq.end(), bc.begin(), bc.end());
    }
    blocked_qr_columns(p, k, fused ? k + nrhs : k, mq.data(), p, tau.data(), options);
    // A zero on R's diagonal: A does not have full rank (LAPACK's info; B untouched, A holds the factors).
    for (std::int64_t i = 0; i < k; ++i)
      if (mq[static_cast<std::size_t>(i + i * p)] == 0.0f) return i + 1;
    const trncore::Options host = host_solves(options);
    std::vector<float> c;
    if (least_squares) {
      if (fused) {
        const auto qtb = mq.begin() + static_cast<std::ptrdiff_t>(p * k);
        c.assign(qtb, mq.end());
        mq.erase(qtb, mq.end());
      } else {
        c = to_col_major(layout, p, nrhs, b, ldb);
        apply_q(true, p, k, mq.data(), p, tau.data(), nrhs, c.data(), p, options);
      }
      trnblas::trsm<float>(Layout::col_major, Side::left, Uplo::upper, Op::no_trans, Diag::non_unit, k, nrhs, 1.0f,
                           mq.data(), p, c.data(), p, host);
    } else {
      c = to_col_major(layout, p, nrhs, b, ldb);
      trnblas::trsm<float>(Layout::col_major, Side::left, Uplo::upper, Op::trans, Diag::non_unit, k, nrhs, 1.0f,
                           mq.data(), p, c.data(), p, host);
      for (std::int64_t j = 0; j < nrhs; ++j)
        for (std::int64_t i = k; i < p; ++i) c[static_cast<std::size_t>(i + j * p)] = 0.0f;
      apply_q(false, p, k, mq.data(), p, tau.data(), nrhs, c.data(), p, options);
    }
    from_col_major(layout, p, nrhs, c, b, ldb);
    // A holds M's factors in the caller's shape where they fit (as LAPACK leaves its QR or LQ there).
    if (tall)
      from_col_major(layout, m, n, mq, a, lda);
    else
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i) element(layout, a, lda, i, j) = mq[static_cast<std::size_t>(j + i * p)];
    return 0;
  } else {
    return 0;  // unreachable: check_sim threw
  }
}

template <class T>
std::int64_t sim_gelsd(Layout layout, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                       std::int64_t ldb, T* s, T rcond, std::int64_t* rank, const trncore::Options& options) {
  constexpr const char* f = "trnsolver::gelsd";
  check_sizes(f, {{"m", m}, {"n", n}, {"nrhs", nrhs}});
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  const std::int64_t p = m > n ? m : n, k = m < n ? m : n;
  check_matrix(f, "b", layout, {"max(m, n)", p}, {"nrhs", nrhs}, b, ldb, sizeof(T));
  trncore::detail::check_pointer(f, "s", s, k);
  trncore::detail::check_pointer(f, "rank", rank, 1);
  if (std::isnan(rcond))
    throw trncore::InvalidArgument(f, "rcond is NaN",
                                   "pass the relative threshold below which singular values count as zero");
  check_sim<T>(f, options);
  check_finite(f, "a", layout, m, n, a, lda);
  check_finite(f, "b", layout, m, nrhs, b, ldb);
  *rank = 0;
  if constexpr (std::is_same_v<T, float>) {
    if (k == 0) {
      zero_rows(layout, p, nrhs, b, ldb);
      return 0;
    }
    const std::vector<float> acm = to_col_major(layout, m, n, a, lda);
    std::vector<float> u(static_cast<std::size_t>(m * k)), vt(static_cast<std::size_t>(k * n));
    const std::int64_t info =
        svd_one_sided_jacobi(Layout::col_major, m, n, acm.data(), m, s, u.data(), m, vt.data(), k, options);
    if (info != 0) return info;
    // LAPACK's rule: σ_i ≤ rcond·σ_1 counts as zero; rcond < 0 means machine precision.
    const float threshold = (rcond < 0.0f ? std::numeric_limits<float>::epsilon() : rcond) * s[0];
    std::int64_t r = 0;
    while (r < k && s[r] > threshold) ++r;
    *rank = r;
    if (nrhs == 0) return 0;
    std::vector<float> bc = to_col_major(layout, p, nrhs, b, ldb), x(static_cast<std::size_t>(n * nrhs), 0.0f);
    if (r > 0) {
      // W = Uᵣᵀ·B (r×nrhs), scaled by Σᵣ⁻¹ row by row, then X = Vᵣ·W = (Vᵀᵣ)ᵀ·W.
      std::vector<float> w(static_cast<std::size_t>(r * nrhs));
      trnsolver::detail::internal_gemm<float>(Layout::col_major, Op::trans, Op::no_trans, r, nrhs, m, 1.0f, u.data(), m,
                                              bc.data(), p, 0.0f, w.data(), r, options);
      for (std::int64_t j = 0; j < nrhs; ++j)
        for (std::int64_t i = 0; i < r; ++i) w[static_cast<std::size_t>(i + j * r)] /= s[i];
      trnsolver::detail::internal_gemm<float>(Layout::col_major, Op::trans, Op::no_trans, n, nrhs, r, 1.0f, vt.data(),
                                              k, w.data(), r, 0.0f, x.data(), n, options);
    }
    for (std::int64_t j = 0; j < nrhs; ++j)
      for (std::int64_t i = 0; i < n; ++i) element(layout, b, ldb, i, j) = x[static_cast<std::size_t>(i + j * n)];
    return 0;
  } else {
    return 0;  // unreachable: check_sim threw
  }
}

template std::int64_t sim_gels<float>(Layout, Op, std::int64_t, std::int64_t, std::int64_t, float*, std::int64_t,
                                      float*, std::int64_t, const trncore::Options&);
template std::int64_t sim_gels<double>(Layout, Op, std::int64_t, std::int64_t, std::int64_t, double*, std::int64_t,
                                       double*, std::int64_t, const trncore::Options&);
template std::int64_t sim_gelsd<float>(Layout, std::int64_t, std::int64_t, std::int64_t, float*, std::int64_t, float*,
                                       std::int64_t, float*, float, std::int64_t*, const trncore::Options&);
template std::int64_t sim_gelsd<double>(Layout, std::int64_t, std::int64_t, std::int64_t, double*, std::int64_t,
                                        double*, std::int64_t, double*, double, std::int64_t*, const trncore::Options&);

}  // namespace trnsolver::detail
