// Nyström approximation and eigh_randomized. Oracles: the prescribed spectrum (LAPACK-built orthogonal
// factors) and LAPACK dgesdd of residuals formed in long double.
#include "randomized_test_support.hpp"

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace rnla_test;
using trnsolver::Sketch;
using trnsolver::SketchKind;

double nuclear_norm(const W& r) {
  double s = 0.0;
  for (double v : singular_values(r)) s += v;
  return s;
}

// PSD of exact rank 6 ≤ l = 10: the Nyström approximation A·Ω(ΩᵀAΩ)⁺ΩᵀA equals A when range(Ω) is generic
// (TYUC17 §4); the shift ν = √n·u·‖Y‖_F perturbs it by O(ν), so the residual is ≤ c·n·u·‖A‖ (c = 30 here).
TEST(RandomizedNystrom, ExactOnLowRankPsd) {
  std::vector<double> lambda(70, 0.0);
  for (int j = 0; j < 6; ++j) lambda[static_cast<std::size_t>(j)] = 4.0 / (1 + j);
  const W a = symmetric_with_spectrum(lambda, 2);
  const auto ad = to_dense<double>(a, Layout::row_major);
  for (SketchKind kind : {SketchKind::gaussian, SketchKind::rademacher, SketchKind::sparse_sign, SketchKind::srht}) {
    const auto f = trnsolver::nystrom<double>(ad.view(), 10, Sketch{kind, 3});
    ASSERT_EQ(f.rank, 10);
    EXPECT_LE(spectral_norm(eigen_residual(a, f)), 30 * 70 * 4.0 * dense_test::unit<double>())
        << trnsolver::to_string(kind);
    for (int j = 0; j < 6; ++j)
      EXPECT_NEAR(f.w[static_cast<std::size_t>(j)], lambda[static_cast<std::size_t>(j)], 1e-12);
    EXPECT_LE(orthonormality_error(f.u), 30 * 70 * dense_test::unit<double>());
  }
}

// Expected nuclear-norm error (Gaussian Ω; Gittens & Mahoney 2016, TYUC17 Thm 4.1):
// E‖A − Â‖_* ≤ (1 + k/(l − k − 1))·Σ_{j>k} λ_j for every k < l − 1; the best k is used. Mean over 30 seeds;
// the shift adds ≤ l·ν ≈ 1e-12 to the nuclear norm.
TEST(RandomizedNystrom, ExpectedNuclearErrorBound) {
  const auto lambda = polynomial_spectrum(120, 2.0);
  const W a = symmetric_with_spectrum(lambda, 9);
  const auto ad = to_dense<double>(a, Layout::col_major);
  const std::int64_t l = 20;
  double bound = std::numeric_limits<double>::infinity();
  for (std::int64_t k = 0; k + 1 < l; ++k) {
    double tail = 0.0;
    for (std::size_t j = static_cast<std::size_t>(k); j < lambda.size(); ++j) tail += lambda[j];
    bound = std::min(bound, (1.0 + static_cast<double>(k) / static_cast<double>(l - k - 1)) * tail);
  }
  double mean = 0.0;
  const int seeds = 30;
  for (int s = 0; s < seeds; ++s)
    mean +=
        nuclear_norm(eigen_residual(
            a, trnsolver::nystrom<double>(ad.view(), l, Sketch{SketchKind::gaussian, static_cast<std::uint64_t>(s)}))) /
        seeds;
  EXPECT_LE(mean, bound);
}

// An indefinite matrix makes ΩᵀAΩ indefinite (with overwhelming probability when half the spectrum is
// negative): the documented outcome is rank 0, not an exception.
TEST(RandomizedNystrom, IndefiniteGivesRankZero) {
  std::vector<double> lambda(30);
  for (int j = 0; j < 30; ++j) lambda[static_cast<std::size_t>(j)] = j % 2 ? -1.0 : 1.0;
  const auto ad = to_dense<double>(symmetric_with_spectrum(lambda, 1), Layout::col_major);
  const auto f = trnsolver::nystrom<double>(ad.view(), 8);
  EXPECT_EQ(f.rank, 0);
  EXPECT_TRUE(f.w.empty());
}

// eigh_randomized: Â = Q·T·Qᵀ = P·A·P, so by Weyl |λ_j(Â) − λ_j(A)| ≤ ‖A − PAP‖₂ ≤ 2‖(I − P)A‖₂, whose
// expectation HMT Cor. 10.10 bounds with σ = |λ| (the finder's power iterations use A·Aᵀ = A²). The test
// checks the mean over 20 seeds of the largest error of the k returned values against 2·bound, on an
// indefinite matrix, plus ordering by |λ| and orthonormal vectors.
TEST(RandomizedEigh, RitzValuesWithinTheRangeFinderBound) {
  const std::int64_t n = 110, k = 8, p = 6, q = 1;
  std::vector<double> lambda(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    lambda[static_cast<std::size_t>(j)] = (j % 2 ? -1.0 : 1.0) * std::pow(0.8, static_cast<double>(j));
  const W a = symmetric_with_spectrum(lambda, 21);
  const auto ad = to_dense<double>(a, Layout::row_major);
  std::vector<double> sigma(lambda.size());
  std::transform(lambda.begin(), lambda.end(), sigma.begin(), [](double v) { return std::fabs(v); });
  const double bound = 2 * hmt_bound(sigma, k, p, q);
  double mean = 0.0;
  const int seeds = 20;
  for (int s = 0; s < seeds; ++s) {
    trnsolver::RsvdOptions o;
    o.oversampling = p;
    o.power_iterations = q;
    o.sketch.seed = static_cast<std::uint64_t>(s);
    const auto f = trnsolver::eigh_randomized<double>(ad.view(), k, o);
    ASSERT_EQ(f.rank, k);
    double worst = 0.0;
    for (std::int64_t j = 0; j < k; ++j) {
      worst = std::max(worst, std::fabs(f.w[static_cast<std::size_t>(j)] - lambda[static_cast<std::size_t>(j)]));
      if (j > 0) {
        EXPECT_GE(std::fabs(f.w[static_cast<std::size_t>(j - 1)]), std::fabs(f.w[static_cast<std::size_t>(j)]));
      }
    }
    mean += worst / seeds;
    EXPECT_LE(orthonormality_error(f.u), 30 * n * dense_test::unit<double>());
  }
  EXPECT_LE(mean, bound);
}

TEST(RandomizedEigh, ExactOnLowRankIndefinite) {
  std::vector<double> lambda(64, 0.0);
  lambda[0] = -3;
  lambda[1] = 2;
  lambda[2] = -1;
  const W a = symmetric_with_spectrum(lambda, 5);
  const auto ad = to_dense<float>(a, Layout::col_major);
  const auto f = trnsolver::eigh_randomized<float>(ad.view(), 3);
  ASSERT_EQ(f.rank, 3);
  for (int j = 0; j < 3; ++j)
    EXPECT_NEAR(f.w[static_cast<std::size_t>(j)], lambda[static_cast<std::size_t>(j)],
                30 * 64 * 3 * dense_test::unit<float>());
  EXPECT_LE(spectral_norm(eigen_residual(a, f)), 30 * 64 * 3 * dense_test::unit<float>());
}

TEST(RandomizedSymmetric, BadInputThrows) {
  trnsolver::DenseMatrix<double> rect(4, 5, Layout::row_major), sq(4, 4, Layout::row_major);
  EXPECT_THROW(trnsolver::nystrom<double>(rect.view(), 2), trncore::DimensionMismatch);
  EXPECT_THROW(trnsolver::eigh_randomized<double>(rect.view(), 2), trncore::DimensionMismatch);
  EXPECT_THROW(trnsolver::nystrom<double>(sq.view(), 0), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::nystrom<double>(sq.view(), 5), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::eigh_randomized<double>(sq.view(), 0), trncore::InvalidArgument);
  sq(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(trnsolver::nystrom<double>(sq.view(), 2), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::eigh_randomized<double>(sq.view(), 2), trncore::InvalidArgument);
}

}  // namespace
