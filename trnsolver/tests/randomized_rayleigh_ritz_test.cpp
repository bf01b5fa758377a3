// rayleigh_ritz_sketched. Oracles: the prescribed spectrum of the test matrix (LAPACK-built eigenvectors),
// and residuals recomputed in long double from the returned pairs.
#include "randomized_test_support.hpp"

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace rnla_test;
using trnsolver::Sketch;
using trnsolver::SketchKind;

// A symmetric A (n = 200) with eigenvalues λ_j = 0.85^j·(−1)^j and V = Z_6·G: the top-6 eigenvectors mixed
// by G = Q₁·diag(1 … 10⁻³)·Q₂ (κ(G) = 10³). range(V) is invariant, so S·A·V = S·V·(G⁻¹ΛG) exactly and the
// sketched projection M has exactly λ₁…λ₆. Bauer–Fike on M: |Δλ| ≤ κ(G)·‖ΔM‖ with ‖ΔM‖ ≤ c·d·u·‖A‖·κ(S·V)
// and κ(S·V) ≤ 3·κ(G) (embedding distortion ≤ 1/2 at s = 4d): |Δλ| ≤ 3·c·d·u·κ(G)²·‖A‖, c = 30.
// The residuals the call reports are recomputed in long double from the returned vectors and values.
TEST(RandomizedRayleighRitz, ExactOnAnIllConditionedBasisOfAnInvariantSubspace) {
  const std::int64_t n = 200, d = 6;
  std::vector<double> lambda(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    lambda[static_cast<std::size_t>(j)] = std::pow(0.85, static_cast<double>(j)) * (j % 2 ? -1.0 : 1.0);
  std::mt19937_64 rng(3);
  const auto zfull = random_orthogonal(n, rng);
  W a(n, n);
  for (std::int64_t p = 0; p < n; ++p)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        a(i, j) += static_cast<LD>(zfull[static_cast<std::size_t>(p * n + i)]) * lambda[static_cast<std::size_t>(p)] *
                   zfull[static_cast<std::size_t>(p * n + j)];
  const auto q1 = random_orthogonal(d, rng), q2 = random_orthogonal(d, rng);
  W g(d, d);
  for (std::int64_t i = 0; i < d; ++i)
    for (std::int64_t j = 0; j < d; ++j)
      for (std::int64_t p = 0; p < d; ++p)
        g(i, j) += static_cast<LD>(q1[static_cast<std::size_t>(i + p * d)]) *
                   std::pow(1e-3L, static_cast<LD>(p) / (d - 1)) * q2[static_cast<std::size_t>(j + p * d)];
  W v(n, d);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < d; ++j)
      for (std::int64_t p = 0; p < d; ++p)
        v(i, j) += static_cast<LD>(zfull[static_cast<std::size_t>(p * n + i)]) * g(p, j);
  const auto ad = to_dense<double>(a, Layout::col_major);
  const auto vd = to_dense<double>(v, Layout::row_major);
  const auto op = trnsolver::MatrixOperator<double>::dense(ad.view());
  for (SketchKind kind : {SketchKind::sparse_sign, SketchKind::gaussian, SketchKind::srht}) {
    const auto rr = trnsolver::rayleigh_ritz_sketched<double>(op, vd.view(), 4 * d, Sketch{kind, 2});
    ASSERT_EQ(rr.rank, d);
    EXPECT_EQ(rr.matvecs, d);
    const double tol = 3 * 30 * d * 0x1p-53 * 1e6;
    for (std::int64_t j = 0; j < d; ++j) {
      EXPECT_NEAR(rr.values[static_cast<std::size_t>(j)], lambda[static_cast<std::size_t>(j)], tol)
          << trnsolver::to_string(kind);
      EXPECT_EQ(rr.imag[static_cast<std::size_t>(j)], 0.0);
      LD res = 0, nrm = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        LD axi = 0;
        for (std::int64_t k = 0; k < n; ++k) axi += static_cast<LD>(ad(i, k)) * rr.vectors(k, j);
        const LD e = axi - static_cast<LD>(rr.values[static_cast<std::size_t>(j)]) * rr.vectors(i, j);
        res += e * e;
        nrm += static_cast<LD>(rr.vectors(i, j)) * rr.vectors(i, j);
      }
      EXPECT_NEAR(nrm, 1.0L, 1e-13L);
      // Reported residual vs recomputed: both are rounding-level here; they agree to the rounding of
      // forming A·x (≤ n·u·‖A‖ = 200·2⁻⁵³).
      EXPECT_NEAR(rr.residuals[static_cast<std::size_t>(j)], static_cast<double>(std::sqrt(res)), 1e-12);
      EXPECT_LE(rr.residuals[static_cast<std::size_t>(j)], tol);
    }
  }
}

// A rotation has eigenvalues ±i: the complex pair stays adjacent with conjugate imaginary parts and the
// complex residual is rounding-level (V = I, the whole space).
TEST(RandomizedRayleighRitz, ComplexPairsStayTogether) {
  trnsolver::DenseMatrix<double> a(2, 2, Layout::col_major), v(2, 2, Layout::col_major);
  a(0, 1) = -1;
  a(1, 0) = 1;
  v(0, 0) = v(1, 1) = 1;
  const auto op = trnsolver::MatrixOperator<double>::dense(a.view());
  const auto rr = trnsolver::rayleigh_ritz_sketched<double>(op, v.view(), 2, Sketch{SketchKind::gaussian, 1});
  ASSERT_EQ(rr.rank, 2);
  EXPECT_NEAR(rr.values[0], 0.0, 1e-14);
  EXPECT_NEAR(rr.imag[0], 1.0, 1e-14);
  EXPECT_EQ(rr.imag[1], -rr.imag[0]);
  EXPECT_LE(rr.residuals[0], 1e-14);
}

TEST(RandomizedRayleighRitz, BadInput) {
  trnsolver::DenseMatrix<double> a(5, 5, Layout::col_major), v(5, 2, Layout::col_major), w(4, 2, Layout::col_major);
  const auto op = trnsolver::MatrixOperator<double>::dense(a.view());
  EXPECT_THROW(trnsolver::rayleigh_ritz_sketched<double>(op, v.view(), 1), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::rayleigh_ritz_sketched<double>(op, w.view(), 4), trncore::DimensionMismatch);
  EXPECT_THROW(trnsolver::rayleigh_ritz_sketched<double>(op, v.view(), 4, Sketch{}, 1.5), trncore::InvalidArgument);
  v(3, 1) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(trnsolver::rayleigh_ritz_sketched<double>(op, v.view(), 4), trncore::InvalidArgument);
}

}  // namespace
