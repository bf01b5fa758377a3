// Hutchinson, Hutch++ and diagonal estimation. Oracles: the exact trace/diagonal of the test matrix and
// the known variance of Hutchinson's estimator (closed forms for Rademacher and Gaussian probes).
#include "randomized_test_support.hpp"

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace rnla_test;
using trnsolver::Sketch;
using trnsolver::SketchKind;

// A dense symmetric test matrix as an operator (the estimators only see products).
struct Fixture {
  W exact;
  trnsolver::DenseMatrix<double> a;
  trnsolver::MatrixOperator<double> op;
  explicit Fixture(const std::vector<double>& lambda, std::uint64_t seed)
      : exact(symmetric_with_spectrum(lambda, seed)),
        a(to_dense<double>(exact, Layout::col_major)),
        op(trnsolver::MatrixOperator<double>::dense(a.view())) {}
  double trace() const {
    double t = 0.0;
    for (std::int64_t i = 0; i < a.rows; ++i) t += a(i, i);
    return t;
  }
  double fro2() const {
    double f = 0.0;
    for (double v : a.data) f += v * v;
    return f;
  }
  double diag2() const {
    double d = 0.0;
    for (std::int64_t i = 0; i < a.rows; ++i) d += a(i, i) * a(i, i);
    return d;
  }
};

// Unbiasedness: over S seeds of m probes, the mean estimate has standard deviation √(V/(m·S)) with V the
// one-probe variance, 2(‖A‖_F² − Σa_ii²) for Rademacher and 2‖A‖_F² for Gaussian probes (Hutchinson 1990;
// Avron & Toledo 2011, symmetric A). |mean − tr A| ≤ 5 sd fails by chance with probability ≈ 6e-7.
TEST(RandomizedTrace, HutchinsonIsUnbiased) {
  std::vector<double> lambda(40);
  for (int j = 0; j < 40; ++j) lambda[static_cast<std::size_t>(j)] = (j % 3 == 0 ? -1.0 : 1.0) / (1.0 + j);
  const Fixture f(lambda, 3);
  const std::int64_t m = 4, seeds = 1500;
  for (SketchKind kind : {SketchKind::rademacher, SketchKind::gaussian}) {
    double sum = 0.0;
    for (std::int64_t s = 0; s < seeds; ++s) {
      const auto e = trnsolver::hutchinson<double>(f.op, m, Sketch{kind, static_cast<std::uint64_t>(s)});
      EXPECT_EQ(e.matvecs, m);
      sum += e.estimate;
    }
    const double v = kind == SketchKind::rademacher ? 2 * (f.fro2() - f.diag2()) : 2 * f.fro2();
    EXPECT_NEAR(sum / seeds, f.trace(), 5 * std::sqrt(v / static_cast<double>(m * seeds)))
        << trnsolver::to_string(kind);
  }
}

// Hutchinson's reported standard error estimates √(V/m): over many seeds its mean square is V/m (the
// sample variance is unbiased); checked within 20% (the relative s.d. of a variance estimate from m = 30
// probes averaged over 200 seeds is ≈ √(2/29/200)·(kurtosis factor ≤ 3) ≈ 5%).
TEST(RandomizedTrace, HutchinsonStandardErrorMatchesTheVariance) {
  const Fixture f(polynomial_spectrum(50, 1.0), 8);
  const std::int64_t m = 30, seeds = 200;
  double ms = 0.0;
  for (std::int64_t s = 0; s < seeds; ++s) {
    const auto e =
        trnsolver::hutchinson<double>(f.op, m, Sketch{SketchKind::rademacher, static_cast<std::uint64_t>(s)});
    ms += e.standard_error * e.standard_error / seeds;
  }
  EXPECT_NEAR(ms, 2 * (f.fro2() - f.diag2()) / m, 0.2 * 2 * (f.fro2() - f.diag2()) / m);
}

// Hutch++ vs Hutchinson on PSD matrices with decaying spectra at the same budget: the mean squared error over
// 100 seeds. With m = 60 matvecs, Hutch++'s residual estimator has variance ≤ 2‖A − A_r‖_F²/20 where r is the
// rank its 20-column sketch captures (≈ 10 reliably without oversampling), against Hutchinson's
// ≈ 2‖A‖_F²/60 (MMMW21 §2). For λ_j = (j+1)⁻² the ratio ‖A − A_10‖_F²/‖A‖_F² ≈ 3e-4, for λ_j = 10^{−j/20}
// it is ≈ 0.03, so Hutch++'s MSE is ≥ 8× smaller in both; a 100-seed MSE has relative s.d. ≈ √(2/100) =
// 14%, so requiring a 4× smaller MSE cannot fail by sampling noise.
TEST(RandomizedTrace, HutchPlusPlusBeatsHutchinsonOnDecayingPsd) {
  for (const auto& lambda : {polynomial_spectrum(300, 2.0), exponential_spectrum(300, 20.0)}) {
    const Fixture f(lambda, 12);
    const std::int64_t m = 60, seeds = 100;
    double mse_h = 0.0, mse_pp = 0.0;
    for (std::int64_t s = 0; s < seeds; ++s) {
      const Sketch sk{SketchKind::rademacher, static_cast<std::uint64_t>(s)};
      const auto h = trnsolver::hutchinson<double>(f.op, m, sk);
      const auto pp = trnsolver::hutch_plus_plus<double>(f.op, m, sk);
      EXPECT_LE(pp.matvecs, m);
      mse_h += (h.estimate - f.trace()) * (h.estimate - f.trace()) / seeds;
      mse_pp += (pp.estimate - f.trace()) * (pp.estimate - f.trace()) / seeds;
    }
    EXPECT_LT(mse_pp, mse_h / 4) << "Hutchinson MSE " << mse_h << ", Hutch++ MSE " << mse_pp;
  }
}

// Exactly rank r ≤ ⌊m/3⌋ PSD: Q spans range(A), the residual part is (I − QQᵀ)A(I − QQᵀ) = O(u·‖A‖), so
// Hutch++ returns tr(QᵀAQ) = tr A to c·n·u·‖A‖ (here ≤ 1e-12·tr A).
TEST(RandomizedTrace, HutchPlusPlusIsExactOnLowRank) {
  std::vector<double> lambda(90, 0.0);
  for (int j = 0; j < 6; ++j) lambda[static_cast<std::size_t>(j)] = 1.0 + j;
  const Fixture f(lambda, 4);
  for (SketchKind kind : {SketchKind::rademacher, SketchKind::gaussian, SketchKind::srht, SketchKind::sparse_sign}) {
    const auto e = trnsolver::hutch_plus_plus<double>(f.op, 21, Sketch{kind, 1});
    EXPECT_NEAR(e.estimate, f.trace(), 1e-12 * f.trace()) << trnsolver::to_string(kind);
  }
}

// Diagonal estimation: Rademacher probes have ω_i² = 1, so a diagonal matrix is recovered exactly
// (to the double accumulation of m terms); for a general matrix, entry j averaged over seeds is unbiased
// with one-probe variance Σ_{c≠j} a_jc², tested at 5 sd.
TEST(RandomizedTrace, DiagonalEstimate) {
  const std::int64_t n = 37;
  trnsolver::DenseMatrix<double> d(n, n, Layout::col_major);
  for (std::int64_t i = 0; i < n; ++i) d(i, i) = 1.0 + 0.5 * static_cast<double>(i);
  const auto dop = trnsolver::MatrixOperator<double>::dense(d.view());
  const auto est = trnsolver::diagonal_estimate<double>(dop, 3);
  ASSERT_EQ(est.size(), static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) EXPECT_NEAR(est[static_cast<std::size_t>(i)], d(i, i), 1e-14 * d(i, i));

  const Fixture f(polynomial_spectrum(n, 0.5), 6);
  const std::int64_t m = 5, seeds = 800;
  std::vector<double> mean(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t s = 0; s < seeds; ++s) {
    const auto e =
        trnsolver::diagonal_estimate<double>(f.op, m, Sketch{SketchKind::rademacher, static_cast<std::uint64_t>(s)});
    for (std::int64_t i = 0; i < n; ++i) mean[static_cast<std::size_t>(i)] += e[static_cast<std::size_t>(i)] / seeds;
  }
  for (std::int64_t j = 0; j < n; ++j) {
    double off = 0.0;
    for (std::int64_t c = 0; c < n; ++c) off += c == j ? 0.0 : f.a(j, c) * f.a(j, c);
    EXPECT_NEAR(mean[static_cast<std::size_t>(j)], f.a(j, j),
                5 * std::sqrt(off / static_cast<double>(m * seeds)) + 1e-14);
  }
}

TEST(RandomizedTrace, BitwiseIdenticalForOneAndTwoThreads) {
  const Fixture f(polynomial_spectrum(200, 1.0), 2);
  trncore::Options one, two;
  one.threads = 1;
  two.threads = 2;
  for (SketchKind kind : {SketchKind::rademacher, SketchKind::gaussian, SketchKind::srht, SketchKind::sparse_sign}) {
    const Sketch s{kind, 44};
    const auto a = trnsolver::hutch_plus_plus<double>(f.op, 30, s, one),
               b = trnsolver::hutch_plus_plus<double>(f.op, 30, s, two);
    EXPECT_EQ(std::memcmp(&a.estimate, &b.estimate, sizeof(double)), 0) << trnsolver::to_string(kind);
    const auto other = trnsolver::hutch_plus_plus<double>(f.op, 30, Sketch{kind, 45}, one);
    EXPECT_NE(a.estimate, other.estimate) << trnsolver::to_string(kind);
  }
}

// With a sim operator (bf16 TensorEngine GEMMs via MatrixOperator::dense) the estimate is still bitwise
// reproducible across thread counts, and within bf16 GEMM error of the host estimate on the same probes:
// each ωᵀAω differs by ≤ (2·2⁻⁸ + n·2⁻²⁴ + 2⁻²⁴)·|ω|ᵀ|A||ω| (docs/trnblas-sim.md, bf16 mode, plus the float
// rounding of A) = 0.0079·Σ|a_ij| for ±1 probes; the mean over probes obeys the same bound, 0.01·Σ|a_ij|.
TEST(RandomizedTrace, SimOperatorIsReproducible) {
  const Fixture f(polynomial_spectrum(150, 1.0), 5);
  const auto af = to_dense<float>(f.exact, Layout::col_major);
  trncore::Options sim;
  sim.backend = trncore::Backend::sim;
  sim.math_mode = trncore::MathMode::bf16;
  const Sketch s{SketchKind::rademacher, 3};
  sim.threads = 1;
  const auto e1 =
      trnsolver::hutch_plus_plus<float>(trnsolver::MatrixOperator<float>::dense(af.view(), sim), 30, s, sim);
  sim.threads = 2;
  const auto e2 =
      trnsolver::hutch_plus_plus<float>(trnsolver::MatrixOperator<float>::dense(af.view(), sim), 30, s, sim);
  EXPECT_EQ(std::memcmp(&e1.estimate, &e2.estimate, sizeof(double)), 0);
  const auto h1 = trnsolver::hutchinson<float>(trnsolver::MatrixOperator<float>::dense(af.view(), sim), 20, s, sim);
  const auto host = trnsolver::hutchinson<double>(f.op, 20, s);
  double abs_sum = 0.0;
  for (double v : f.a.data) abs_sum += std::fabs(v);
  EXPECT_NEAR(h1.estimate, host.estimate, 0.01 * abs_sum);
}

TEST(RandomizedTrace, BadInputThrows) {
  const Fixture f(polynomial_spectrum(5, 1.0), 1);
  EXPECT_THROW(trnsolver::hutchinson<double>(f.op, 0), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::hutch_plus_plus<double>(f.op, 2), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::diagonal_estimate<double>(f.op, -1), trncore::InvalidArgument);
  const trnsolver::MatrixOperator<double> rect(4, 5, [](std::int64_t, const double*, double*) {});
  EXPECT_THROW(trnsolver::hutchinson<double>(rect, 3), trncore::DimensionMismatch);
  const trnsolver::MatrixOperator<double> nan_op(4, 4, [](std::int64_t b, const double*, double* y) {
    for (std::int64_t i = 0; i < 4 * b; ++i) y[i] = std::numeric_limits<double>::infinity();
  });
  EXPECT_THROW(trnsolver::hutch_plus_plus<double>(nan_op, 6), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::hutchinson<double>(f.op, 9, Sketch{SketchKind::srht}),
               trncore::InvalidArgument);  // 9 > N = 8
}

}  // namespace
