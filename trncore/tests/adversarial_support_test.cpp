// The adversarial layer's own support (trnsci_testing/adversarial.hpp) checked against facts that need no
// library code: Wilkinson's matrix has exact inverse-free structure and known growth, a Haar orthogonal
// factor is orthogonal to rounding, the binary128 solve reproduces exact rational solutions, and the tally
// counts and fails as documented.

#include <trnsci_testing/adversarial.hpp>

#include <gtest/gtest-spi.h>

#include <cmath>

namespace {

using trnsci_testing::quad;

TEST(AdversarialSupport, WilkinsonSolveHasTheKnownExactSolution) {
  // A x = b with x = (1, …, 1), so b = A·1: the row sums, small integers.
  for (std::int64_t n : {1, 2, 5, 50, 60}) {
    const auto a = trnsci_testing::wilkinson_growth(n);
    std::vector<double> b(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      double s = 0.0;
      for (std::int64_t j = 0; j < n; ++j) s += a[static_cast<std::size_t>(i + j * n)];
      b[static_cast<std::size_t>(i)] = s;  // exact: small integers
    }
    const auto x = trnsci_testing::solve_quad(n, a.data(), b.data());
    ASSERT_EQ(x.size(), static_cast<std::size_t>(n));
    const std::vector<double> ones(static_cast<std::size_t>(n), 1.0);
    std::vector<quad> ref(ones.begin(), ones.end());
    // Growth 2^(n−1) ≤ 2^59 times binary128's 2^-113 leaves ≤ 2^-50 relative; the entries are small
    // integers, so in fact every operation is exact.
    EXPECT_EQ(trnsci_testing::normwise_error(ones.data(), x), 0.0) << "n = " << n;
  }
}

TEST(AdversarialSupport, RandomOrthogonalIsOrthogonal) {
  trnsci_testing::Rng rng(7);
  for (std::int64_t n : {1, 2, 17, 64}) {
    const auto q = trnsci_testing::random_orthogonal(n, rng);
    double worst = 0.0;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        long double s = 0.0L;
        for (std::int64_t k = 0; k < n; ++k)
          s +=
              static_cast<long double>(q[static_cast<std::size_t>(k + i * n)]) * q[static_cast<std::size_t>(k + j * n)];
        worst = std::max(worst, std::fabs(static_cast<double>(s) - (i == j ? 1.0 : 0.0)));
      }
    // Householder QR is backward stable: ‖QᵀQ − I‖ ≤ c·n·u; 8·n·u is generous for n ≤ 64 and still fails
    // for any real defect (a missing reflector gives O(1)).
    EXPECT_LE(worst, 8.0 * static_cast<double>(n) * 0x1p-53) << "n = " << n;
  }
}

TEST(AdversarialSupport, WithConditionHasTheRequestedSpread) {
  // ‖A‖₂ = 1 and ‖A⁻¹‖₂ = κ: the inverse's column of largest norm must exceed κ/√n (a lower bound) and the
  // binary128 solve of A x = b must be consistent (residual at binary128 level).
  const std::int64_t n = 24;
  for (double kappa : {1e2, 1e8, 1e14}) {
    const auto a = trnsci_testing::with_condition(n, n, kappa, 11);
    double inv_max = 0.0;
    for (std::int64_t j = 0; j < n; ++j) {
      std::vector<double> e(static_cast<std::size_t>(n), 0.0);
      e[static_cast<std::size_t>(j)] = 1.0;
      const auto col = trnsci_testing::solve_quad(n, a.data(), e.data());
      quad s = 0;
      for (const quad& v : col) s += v * v;
      inv_max = std::max(inv_max, std::sqrt(static_cast<double>(s)));
    }
    EXPECT_GE(inv_max, kappa / std::sqrt(static_cast<double>(n)) * 0.5) << "kappa " << kappa;
    EXPECT_LE(inv_max, kappa * 2.0) << "kappa " << kappa;
  }
}

TEST(AdversarialSupport, GemmQuadIsExactOnSmallIntegers) {
  const std::vector<double> a = {1, 2, 3, 4};  // 2×2 column-major [[1,3],[2,4]]
  const std::vector<double> b = {5, 6, 7, 8};  // [[5,7],[6,8]]
  const auto c = trnsci_testing::gemm_quad(2, 2, 2, a.data(), b.data());
  const double want[] = {1 * 5 + 3 * 6, 2 * 5 + 4 * 6, 1 * 7 + 3 * 8, 2 * 7 + 4 * 8};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(static_cast<double>(c[static_cast<std::size_t>(i)]), want[i]);
}

TEST(AdversarialSupport, TallyFailsOnACertifiedViolationOnly) {
  trnsci_testing::Tally ok("support-ok");
  ok.record(true, 1e-10, 1e-12, "within");
  ok.record(false, 1e-10, 1.0, "uncertified may be wrong");
  EXPECT_EQ(ok.cases(), 2);
  EXPECT_EQ(ok.violations(), 0);
  EXPECT_NONFATAL_FAILURE(
      {
        trnsci_testing::Tally bad("support-bad");
        bad.record(true, 1e-12, 1e-10, "violation");
      },
      "certified bound");
  EXPECT_NONFATAL_FAILURE(
      {
        trnsci_testing::Tally bad("support-nan");
        bad.record(true, 1e-12, std::nan(""), "NaN error");
      },
      "certified bound");
}

TEST(AdversarialSupport, FullCountOnlyUnderTheEnvironmentVariable) {
  EXPECT_EQ(trnsci_testing::adversarial_count(3, 30), trnsci_testing::adversarial_full() ? 30 : 3);
}

}  // namespace
