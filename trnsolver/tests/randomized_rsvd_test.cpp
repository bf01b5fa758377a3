// rsvd and rsvd_adaptive: the HMT expectation bounds over many seeds on matrices with known exponential
// and polynomial spectra, exact recovery of exactly low-rank matrices for every sketch kind, the
// adaptive finder meeting its tolerance, the operator form, the sim backend, reproducibility, bad input.
// Oracles: the prescribed spectrum (LAPACK-built orthogonal factors) and LAPACK dgesdd of residuals formed
// in long double (randomized_test_support.hpp).
#include "randomized_test_support.hpp"

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using namespace rnla_test;
using trnsolver::RsvdOptions;
using trnsolver::Sketch;
using trnsolver::SketchKind;

constexpr SketchKind kKinds[] = {SketchKind::gaussian, SketchKind::rademacher, SketchKind::sparse_sign,
                                 SketchKind::srht};

RsvdOptions options_with(std::int64_t p, std::int64_t q, Sketch s = {}) {
  RsvdOptions o;
  o.oversampling = p;
  o.power_iterations = q;
  o.sketch = s;
  return o;
}

// HMT Cor. 10.10: for a Gaussian sketch of k + p columns and q power iterations, E‖(I − P)A‖₂ ≤ bound. With
// oversampling 0 and rank k + p the result is the untruncated Q·Qᵀ·A, so its residual is exactly
// ‖(I − P)A‖₂ (up to rounding ≤ 1e-13·σ₁, below every bound here). The sample mean of 40 seeds estimates the
// expectation; HMT's tail bound (Thm 10.8) puts P(error > 3·bound) below 10⁻³ per draw, and the bound itself
// is not tight (typically 2–5× above the mean), so the mean exceeding the bound would be a real defect.
// Truncation to rank k adds at most σ_{k+1} (HMT Thm 9.3), checked on the same draws.
void check_hmt(const std::vector<double>& sigma, std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t p,
               std::int64_t q, Layout layout) {
  const W a = with_spectrum(m, n, sigma, 99);
  const auto ad = to_dense<double>(a, layout);
  const double bound = hmt_bound(sigma, k, p, q);
  double sum = 0.0, sum_truncated = 0.0;
  const int seeds = 40;
  for (int seed = 0; seed < seeds; ++seed) {
    const Sketch s{SketchKind::gaussian, static_cast<std::uint64_t>(seed)};
    const auto full = trnsolver::rsvd<double>(ad.view(), k + p, options_with(0, q, s));
    sum += spectral_norm(svd_residual(a, full));
    const auto truncated = trnsolver::rsvd<double>(ad.view(), k, options_with(p, q, s));
    sum_truncated += spectral_norm(svd_residual(a, truncated));
  }
  EXPECT_LE(sum / seeds, bound) << "k " << k << " p " << p << " q " << q;
  EXPECT_LE(sum_truncated / seeds, sigma[static_cast<std::size_t>(k)] + bound) << "k " << k << " q " << q;
  EXPECT_GE(sum_truncated / seeds,
            sigma[static_cast<std::size_t>(k)] * (1 - 1e-10));  // Eckart–Young: cannot beat optimal
}

TEST(RandomizedRsvd, HmtBoundExponentialSpectrum) {
  const auto sigma = exponential_spectrum(90, 6.0);
  check_hmt(sigma, 120, 90, 10, 5, 0, Layout::col_major);
  check_hmt(sigma, 120, 90, 10, 5, 2, Layout::row_major);
}

TEST(RandomizedRsvd, HmtBoundPolynomialSpectrum) {
  const auto sigma = polynomial_spectrum(97, 1.5);
  check_hmt(sigma, 97, 131, 12, 6, 0, Layout::row_major);
  check_hmt(sigma, 97, 131, 12, 6, 1, Layout::col_major);
}

// A matrix of exact rank r ≤ l lies in range(A·Ω) with probability 1 (Gaussian) or overwhelming probability
// (the others, with two power iterations): the factorization reproduces A to rounding — backward error
// ≤ c·(m + n)·u·‖A‖₂ from the QRs, products and gesdd (HMT §4.1; LAPACK bounds); the test allows
// 30·(m + n)·u. The singular values match the prescribed ones to the same level (Weyl), and U, V are
// orthonormal to 30·m·u (Householder QR, Higham Thm 19.4).
template <class T>
void check_exact_recovery(std::int64_t m, std::int64_t n, std::int64_t r, std::int64_t k, SketchKind kind,
                          Layout layout) {
  std::vector<double> sigma(static_cast<std::size_t>(std::min(m, n)), 0.0);
  for (std::int64_t j = 0; j < r; ++j) sigma[static_cast<std::size_t>(j)] = std::pow(2.0, -static_cast<double>(j) / 2);
  const W a = with_spectrum(m, n, sigma, 7 + static_cast<std::uint64_t>(m));
  const auto ad = to_dense<T>(a, layout);
  const auto f = trnsolver::rsvd<T>(ad.view(), k, options_with(10, 2, Sketch{kind, 5}));
  const LD u = dense_test::unit<T>();
  ASSERT_EQ(f.rank, k);
  ASSERT_EQ(f.u.rows, m);
  ASSERT_EQ(f.vt.cols, n);
  EXPECT_EQ(f.u.layout, Layout::col_major);
  EXPECT_LE(spectral_norm(svd_residual(a, f)), 30 * (m + n) * u) << trnsolver::to_string(kind) << " " << m << "x" << n;
  for (std::int64_t j = 0; j < k; ++j)
    EXPECT_NEAR(f.s[static_cast<std::size_t>(j)], sigma[static_cast<std::size_t>(j)],
                static_cast<double>(30 * (m + n) * u));
  EXPECT_LE(orthonormality_error(f.u), 30 * m * u);
  trnsolver::DenseMatrix<T> v(n, k, Layout::col_major);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < k; ++j) v(i, j) = f.vt(j, i);
  EXPECT_LE(orthonormality_error(v), 30 * n * u);
}

TEST(RandomizedRsvd, ExactlyLowRankIsRecoveredByEverySketch) {
  for (SketchKind kind : kKinds)
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      check_exact_recovery<double>(129, 61, 7, 7, kind, layout);
      check_exact_recovery<double>(53, 127, 9, 12, kind, layout);
      check_exact_recovery<float>(128, 67, 5, 5, kind, layout);
    }
}

// Tiny and skewed shapes: 1×1 (k = 1 gives A itself), a single row/column, k = min(m, n) (l clipped).
TEST(RandomizedRsvd, TinyAndSkewedShapes) {
  for (auto [m, n] : {std::array<std::int64_t, 2>{1, 1}, {1, 17}, {23, 1}, {2, 211}, {13, 13}}) {
    const std::int64_t k = std::min(m, n);
    std::vector<double> sigma(static_cast<std::size_t>(k));
    for (std::int64_t j = 0; j < k; ++j) sigma[static_cast<std::size_t>(j)] = 1.0 / static_cast<double>(j + 1);
    const W a = with_spectrum(m, n, sigma, 3);
    const auto ad = to_dense<double>(a, Layout::row_major);
    const auto f = trnsolver::rsvd<double>(ad.view(), k);
    // Full rank k = min(m, n): Q spans the whole column space, so the residual is rounding only.
    EXPECT_LE(spectral_norm(svd_residual(a, f)), 30 * (m + n) * dense_test::unit<double>()) << m << "x" << n;
  }
}

// The operator form with MatrixOperator::dense runs the same products as the dense form for a Gaussian
// sketch (Ω formed in both), so the result is bitwise identical.
TEST(RandomizedRsvd, OperatorFormMatchesDenseForm) {
  const W a = with_spectrum(90, 70, exponential_spectrum(70, 5.0), 1);
  const auto ad = to_dense<double>(a, Layout::col_major);
  const auto dense = trnsolver::rsvd<double>(ad.view(), 8);
  const auto op = trnsolver::MatrixOperator<double>::dense(ad.view());
  const auto viaop = trnsolver::rsvd<double>(op, 8);
  EXPECT_TRUE(bitwise_equal(dense.s, viaop.s));
  EXPECT_TRUE(bitwise_equal(dense.u.data, viaop.u.data));
  EXPECT_EQ(viaop.matvecs, (8 + 10) * (2 + 2 * 2));  // Ω, two power iterations (Aᵀ, A each), Bᵀ
}

// The same holds for rsvd_adaptive and eigh_randomized (Gaussian sketches form Ω in both forms).
TEST(RandomizedRsvd, AdaptiveAndEighOperatorFormsMatchDenseForms) {
  const W a = with_spectrum(70, 70, exponential_spectrum(70, 5.0), 4);
  const auto ad = to_dense<double>(a, Layout::row_major);
  const auto op = trnsolver::MatrixOperator<double>::dense(ad.view());
  const auto d1 = trnsolver::rsvd_adaptive<double>(ad.view(), 1e-4), o1 = trnsolver::rsvd_adaptive<double>(op, 1e-4);
  EXPECT_EQ(d1.rank, o1.rank);
  EXPECT_TRUE(bitwise_equal(d1.s, o1.s));
  // A symmetric matrix for eigh_randomized: A·Aᵀ.
  W sym(70, 70);
  for (int i = 0; i < 70; ++i)
    for (int j = 0; j < 70; ++j)
      for (int p = 0; p < 70; ++p) sym(i, j) += a(i, p) * a(j, p);
  const auto sd = to_dense<double>(sym, Layout::col_major);
  const auto sop = trnsolver::MatrixOperator<double>::dense(sd.view());
  const auto d2 = trnsolver::eigh_randomized<double>(sd.view(), 5), o2 = trnsolver::eigh_randomized<double>(sop, 5);
  EXPECT_TRUE(bitwise_equal(d2.w, o2.w));
  EXPECT_TRUE(bitwise_equal(d2.u.data, o2.u.data));
}

// Adaptive rank: stops when HMT Lemma 4.1's estimate E ≤ tol; then ‖A − UΣVᵀ‖₂ ≤ E ≤ tol except with
// probability ≤ min(m,n)·10⁻¹⁰ (block of 10 Gaussian columns). Eckart–Young forces rank ≥ #{σ_j > tol}.
// (No upper bound on the rank is asserted: the criterion sees ‖(I − P)A·ω‖ ≈ ‖(I − P)A‖_F, so on slowly
// decaying spectra the rank can be several times #{σ_j > tol}; the exactly-low-rank test pins it.)
TEST(RandomizedRsvd, AdaptiveRankMeetsTheTolerance) {
  for (const auto& sigma : {exponential_spectrum(110, 8.0), polynomial_spectrum(110, 3.0)})
    for (double tol : {1e-3, 1e-6}) {
      const W a = with_spectrum(150, 110, sigma, 17);
      const auto ad = to_dense<double>(a, Layout::row_major);
      trnsolver::AdaptiveRangeOptions o;
      o.sketch.seed = 2;
      const auto f = trnsolver::rsvd_adaptive<double>(ad.view(), tol, o);
      const double err = spectral_norm(svd_residual(a, f));
      EXPECT_LE(err, tol);
      EXPECT_LE(f.error_estimate, tol);
      EXPECT_LE(err, f.error_estimate * (1 + 1e-6) + 1e-12);
      std::int64_t needed = 0;
      for (double s : sigma) needed += s > tol ? 1 : 0;
      EXPECT_GE(f.rank, needed) << "tol " << tol;
    }
}

// Exact rank 13: the block after the 13-dimensional range is spanned projects to rounding, so the finder
// stops with rank 20 (two blocks) and the residual is rounding-level.
TEST(RandomizedRsvd, AdaptiveStopsOnExactlyLowRank) {
  std::vector<double> sigma(60, 0.0);
  for (int j = 0; j < 13; ++j) sigma[static_cast<std::size_t>(j)] = 1.0 + j;
  const W a = with_spectrum(80, 60, sigma, 5);
  const auto ad = to_dense<double>(a, Layout::col_major);
  const auto f = trnsolver::rsvd_adaptive<double>(ad.view(), 1e-9);
  EXPECT_EQ(f.rank, 20);
  EXPECT_LE(spectral_norm(svd_residual(a, f)), 1e-9);
  trnsolver::AdaptiveRangeOptions capped;
  capped.max_rank = 7;
  const auto g = trnsolver::rsvd_adaptive<double>(ad.view(), 1e-9, capped);
  EXPECT_EQ(g.rank, 7);
  EXPECT_GT(g.error_estimate, 1e-9);  // σ₈ = 6 remains, and E ≥ the residual of any block it probes
}

// Sim backend: bf16 TensorEngine GEMMs (fp32 accumulation). The range's quality barely suffers, but the
// final projection Bᵀ = Aᵀ·Q is also bf16, so the residual is optimal plus the bf16 GEMM error:
// |ΔBᵀ| ≤ (2·2⁻⁹ + K·2⁻²⁴)·|Aᵀ||Q| (docs/trnblas-sim.md, bf16 mode), ‖ΔB‖₂ ≤ that·√(n·l)·‖A‖_F-ish —
// the test allows σ_{k+1} + bound + 0.05·σ₁, i.e. bf16 relative accuracy. fp32 mode must reach 1e-4·σ₁.
TEST(RandomizedRsvd, SimBackendBf16AndFp32) {
  const auto sigma = exponential_spectrum(64, 4.0);
  const W a = with_spectrum(96, 64, sigma, 23);
  const auto ad = to_dense<float>(a, Layout::row_major);
  for (auto mode : {trncore::MathMode::bf16, trncore::MathMode::fp32}) {
    RsvdOptions o = options_with(8, 1);
    o.backend = trncore::Backend::sim;
    o.math_mode = mode;
    const auto f = trnsolver::rsvd<float>(ad.view(), 8, o);
    const double err = spectral_norm(svd_residual(a, f));
    const double slack = mode == trncore::MathMode::bf16 ? 0.05 : 1e-4;
    EXPECT_LE(err, sigma[8] + hmt_bound(sigma, 8, 8, 1) + slack) << trncore::to_string(mode);
    ASSERT_TRUE(f.cost.has_value());
    EXPECT_GT(f.cost->stats[trncore::sim::Engine::tensor].elements, 0);
  }
}

// The refinement step: on an exactly rank-6 matrix the bf16 range's basis leans out of range(A) by angles of
// order 2⁻⁸·σ₁/σ₆ (the bf16 GEMM error, docs/trnblas-sim.md), so the bf16-only residual sits near bf16
// level; one compensated subspace step (fp32-level GEMMs: bound ≈ γ_K(2⁻²⁴)·|A||W| under the default bf16
// product model, where plain `fp32` mode would still round products to bf16) maps the basis into range(A)
// to fp32 accuracy, so the refined residual must meet the float exact-recovery tolerance 30·(m + n)·2⁻²⁴·σ₁
// of the host test. The refined run reports more modelled TensorEngine time than the plain one.
TEST(RandomizedRsvd, SimRefinementReachesFp32Accuracy) {
  const std::int64_t m = 140, n = 90, r = 6;
  std::vector<double> sigma(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t j = 0; j < r; ++j) sigma[static_cast<std::size_t>(j)] = std::pow(0.5, static_cast<double>(j));
  const W a = with_spectrum(m, n, sigma, 41);
  const auto ad = to_dense<float>(a, Layout::col_major);
  RsvdOptions o = options_with(6, 1);
  o.backend = trncore::Backend::sim;
  o.math_mode = trncore::MathMode::bf16;
  const auto plain = trnsolver::rsvd<float>(ad.view(), r, o);
  o.refine_math_mode = trncore::MathMode::compensated;
  const auto refined = trnsolver::rsvd<float>(ad.view(), r, o);
  const double err_plain = spectral_norm(svd_residual(a, plain)), err_refined = spectral_norm(svd_residual(a, refined));
  EXPECT_LE(err_refined, static_cast<double>(30 * (m + n) * dense_test::unit<float>()));
  EXPECT_GT(err_plain, 10 * err_refined);
  EXPECT_EQ(refined.matvecs, plain.matvecs + 2 * (r + 6));
  ASSERT_TRUE(plain.cost && refined.cost);
  EXPECT_GT(refined.cost->upper_bound_seconds, plain.cost->upper_bound_seconds);
  RsvdOptions host;
  host.refine_math_mode = trncore::MathMode::fp32;
  EXPECT_THROW(trnsolver::rsvd<float>(ad.view(), r, host), trncore::InvalidArgument);
}

// Bitwise reproducibility: 1 vs 2 threads on host (every kind) and sim (bf16); another seed differs.
TEST(RandomizedRsvd, BitwiseIdenticalForOneAndTwoThreads) {
  const W a = with_spectrum(140, 100, polynomial_spectrum(100, 2.0), 31);
  const auto ad = to_dense<float>(a, Layout::col_major);
  for (SketchKind kind : kKinds)
    for (auto backend : {trncore::Backend::host, trncore::Backend::sim}) {
      RsvdOptions o = options_with(5, 1, Sketch{kind, 8});
      o.backend = backend;
      if (backend == trncore::Backend::sim) o.math_mode = trncore::MathMode::bf16;
      o.threads = 1;
      const auto f1 = trnsolver::rsvd<float>(ad.view(), 6, o);
      o.threads = 2;
      const auto f2 = trnsolver::rsvd<float>(ad.view(), 6, o);
      EXPECT_TRUE(bitwise_equal(f1.s, f2.s) && bitwise_equal(f1.u.data, f2.u.data) &&
                  bitwise_equal(f1.vt.data, f2.vt.data))
          << trnsolver::to_string(kind) << " " << trncore::to_string(backend);
      o.sketch.seed = 9;
      const auto other = trnsolver::rsvd<float>(ad.view(), 6, o);
      EXPECT_FALSE(bitwise_equal(f1.u.data, other.u.data)) << trnsolver::to_string(kind);
    }
}

TEST(RandomizedRsvd, BadInputThrows) {
  const W a = with_spectrum(6, 4, {1, 0.5, 0.25, 0.125}, 1);
  auto ad = to_dense<double>(a, Layout::row_major);
  EXPECT_THROW(trnsolver::rsvd<double>(ad.view(), 0), trncore::InvalidArgument);
  try {
    trnsolver::rsvd<double>(ad.view(), 5);
    ADD_FAILURE() << "no throw";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("k = 5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("trnsolver::rsvd"), std::string::npos) << e.what();
  }
  EXPECT_THROW(trnsolver::rsvd<double>(ad.view(), 2, options_with(-1, 0)), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::rsvd<double>(ad.view(), 2, options_with(1, -1)), trncore::InvalidArgument);
  RsvdOptions target;
  target.target_forward_error = 1e-6;
  EXPECT_THROW(trnsolver::rsvd<double>(ad.view(), 2, target), trncore::NotSupported);
  trnsolver::DenseMatrix<double> empty(0, 5, Layout::row_major);
  EXPECT_THROW(trnsolver::rsvd<double>(empty.view(), 1), trncore::InvalidArgument);
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    auto copy = ad;
    copy(3, 2) = bad;
    try {
      trnsolver::rsvd<double>(copy.view(), 2);
      ADD_FAILURE() << "no throw";
    } catch (const trncore::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("A(3, 2)"), std::string::npos) << e.what();
    }
    EXPECT_THROW(trnsolver::rsvd_adaptive<double>(copy.view(), 1e-3), trncore::InvalidArgument);
  }
  // An operator whose callback returns NaN, and a rectangular operator without a transpose.
  const trnsolver::MatrixOperator<double> nan_op(
      6, 4,
      [](std::int64_t b, const double*, double* y) {
        for (std::int64_t i = 0; i < 6 * b; ++i) y[i] = std::numeric_limits<double>::quiet_NaN();
      },
      [](std::int64_t b, const double*, double* y) {
        for (std::int64_t i = 0; i < 4 * b; ++i) y[i] = 0;
      });
  EXPECT_THROW(trnsolver::rsvd<double>(nan_op, 2), trncore::InvalidArgument);
  const trnsolver::MatrixOperator<double> no_t(6, 4, [](std::int64_t, const double*, double*) {});
  EXPECT_THROW(trnsolver::rsvd<double>(no_t, 2), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::MatrixOperator<double>(3, 3, {}), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::MatrixOperator<double>(-1, 3, [](std::int64_t, const double*, double*) {}),
               trncore::InvalidArgument);
  for (double tol : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()})
    EXPECT_THROW(trnsolver::rsvd_adaptive<double>(ad.view(), tol), trncore::InvalidArgument) << tol;
  trnsolver::AdaptiveRangeOptions zero_block;
  zero_block.block_size = 0;
  EXPECT_THROW(trnsolver::rsvd_adaptive<double>(ad.view(), 1e-3, zero_block), trncore::InvalidArgument);
}

}  // namespace
