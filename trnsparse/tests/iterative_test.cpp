// Iterative solvers on 2-D/3-D Poisson (closed-form spectrum) and a random symmetric matrix.
// Oracles: CHOLMOD direct solves (SuiteSparse), the closed-form Laplacian eigenvalues, Eigen's dense
// symmetric eigensolver, and the methods' own a-priori convergence bounds. Each tolerance is stated
// where it is used.
#include <trnsparse/direct.hpp>
#include <trnsparse/iterative.hpp>
#include <trnsparse/ops.hpp>

#include "sparse_test_support.hpp"
#include "test_matrices.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>

namespace {

using trnsparse_test::expect_error;
using trnsparse_test::laplacian;
using trnsparse_test::laplacian_extremes;

std::vector<double> ones_rhs(std::int64_t n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 1.0 + static_cast<double>(i % 7) / 7.0;
  return b;
}

double dist2(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

TEST(IterativeCg, ConvergesOnPoissonAndMatchesCholmod) {
  for (auto [n, dims] : {std::pair<std::int64_t, int>{1, 2}, {30, 2}, {10, 3}}) {
    const auto a = laplacian(n, dims == 3 ? n : 1);
    const auto b = ones_rhs(a.rows);
    std::vector<double> x_direct(b.size());
    trnsparse::Cholesky(a).solve(b, x_direct);
    const double lambda_min = laplacian_extremes(n, dims).first;
    for (auto pre : {trnsparse::Preconditioner::none, trnsparse::Preconditioner::jacobi}) {
      for (int format = 0; format < 2; ++format) {
        std::vector<double> x(b.size(), 0.0);
        trnsparse::IterativeOptions o;
        o.rtol = 1e-12;
        o.preconditioner = pre;
        const auto res = format == 0 ? trnsparse::cg<double, std::int32_t>(a, b, x, o)
                                     : trnsparse::cg<double, std::int32_t>(trnsparse::to_bsr(a, 4, 4), b, x, o);
        ASSERT_TRUE(res.converged) << trnsparse::to_string(res.reason);
        EXPECT_LE(res.residual_norm, res.tolerance);
        // ‖x − x*‖₂ ≤ ‖A⁻¹‖₂‖b − Ax‖₂ = ‖r‖₂/λmin for both solutions; CHOLMOD's residual measured in
        // long double (‖r‖₂ ≤ √n·‖r‖∞).
        const double chol_res =
            static_cast<double>(trnsparse_test::residual_inf(a, x_direct, b)) * std::sqrt(static_cast<double>(a.rows));
        EXPECT_LE(dist2(x, x_direct), (res.residual_norm + chol_res) / lambda_min) << "n=" << n << " dims=" << dims;
      }
    }
  }
}

TEST(IterativeCg, FloatConvergesAndNonSpdBreaksDown) {
  const auto a = trnsparse::convert<float, std::int64_t>(laplacian(12));
  std::vector<float> b(144, 1.0f), x(144, 0.0f);
  trnsparse::IterativeOptions o;
  o.rtol = 1e-5;
  EXPECT_TRUE((trnsparse::cg<float, std::int64_t>(a, b, x, o).converged));
  auto neg = laplacian(5);
  trnsparse::scale(-1.0, neg);
  std::vector<double> bd(25, 1.0), xd(25, 0.0);
  const auto res = trnsparse::cg<double, std::int32_t>(neg, bd, xd);
  EXPECT_EQ(res.reason, trnsparse::IterativeReason::breakdown);
  EXPECT_FALSE(res.converged);
  // The iteration limit is a result too.
  std::vector<double> b2(900, 1.0), x2(900, 0.0);
  trnsparse::IterativeOptions few;
  few.max_iterations = 3;
  const auto limited = trnsparse::cg<double, std::int32_t>(laplacian(30), b2, x2, few);
  EXPECT_EQ(limited.reason, trnsparse::IterativeReason::max_iterations);
  EXPECT_EQ(limited.iterations, 3);
}

TEST(IterativeChebyshev, ResidualMeetsTheOptimalChebyshevBound) {
  for (auto [n, dims] : {std::pair<std::int64_t, int>{20, 2}, {8, 3}}) {
    const auto a = laplacian(n, dims == 3 ? n : 1);
    const auto [lmin, lmax] = laplacian_extremes(n, dims);
    const auto b = ones_rhs(a.rows);
    std::vector<double> x(b.size(), 0.0);
    trnsparse::IterativeOptions o;
    o.rtol = 1e-11;
    o.record_history = true;
    const auto res = trnsparse::chebyshev<double, std::int32_t>(a, b, x, {lmin, lmax, 0}, o);
    ASSERT_TRUE(res.converged);
    // With the exact spectral interval, r_k = p_k(A) r_0 with p_k = T_k((θ − λ)/δ)/T_k(σ), so
    // ‖r_k‖₂ ≤ ‖r_0‖₂/T_k(σ). Rounding adds O(k·u·‖A‖‖x‖) to the recurrence residual: allowed as 1e-13·k·‖b‖.
    const double sigma = (lmax + lmin) / (lmax - lmin);
    const double r0 = res.residual_history.front(), bnorm = std::sqrt(static_cast<double>(a.rows)) * 2;
    for (std::size_t k = 0; k < res.residual_history.size(); ++k) {
      const double tk = std::cosh(static_cast<double>(k) * std::acosh(sigma));
      EXPECT_LE(res.residual_history[k], r0 / tk + 1e-13 * static_cast<double>(k + 1) * bnorm) << "k=" << k;
    }
    // And it is not much better than the bound (the bound is attained up to a small factor for a random-ish
    // right-hand side, so a wrong recurrence that converged slowly and one that diverged both fail).
    const std::size_t k = res.residual_history.size() / 2;
    EXPECT_GE(res.residual_history[k], 1e-3 * r0 / std::cosh(static_cast<double>(k) * std::acosh(sigma)));
  }
}

TEST(IterativeChebyshev, LanczosBoundsEncloseTheSpectrumAndDriveChebyshev) {
  for (auto [n, dims] : {std::pair<std::int64_t, int>{15, 2}, {6, 3}}) {
    const auto a = laplacian(n, dims == 3 ? n : 1);
    const auto [lmin, lmax] = laplacian_extremes(n, dims);
    const auto bounds = trnsparse::lanczos_bounds(a, 80);
    // Widened by the Ritz residuals, the estimates enclose [λmin, λmax] (Ritz values lie inside the spectrum,
    // and an eigenvalue lies within each Ritz residual); and they are close: within 5% of the width.
    EXPECT_LE(bounds.lambda_min, lmin * (1 + 1e-12));
    EXPECT_GE(bounds.lambda_max, lmax * (1 - 1e-12));
    EXPECT_GE(bounds.lambda_min, lmin - 0.05 * (lmax - lmin));
    EXPECT_LE(bounds.lambda_max, lmax + 0.05 * (lmax - lmin));
    const auto b = ones_rhs(a.rows);
    std::vector<double> x(b.size(), 0.0);
    trnsparse::IterativeOptions o;
    o.rtol = 1e-10;
    ASSERT_GT(bounds.lambda_min, 0.0);
    const auto res = trnsparse::chebyshev<double, std::int32_t>(a, b, x, bounds, o);
    EXPECT_TRUE(res.converged);
    // Jacobi-preconditioned Chebyshev with bounds of D^{-1/2} A D^{-1/2}.
    std::vector<double> xj(b.size(), 0.0);
    o.preconditioner = trnsparse::Preconditioner::jacobi;
    const auto jb = trnsparse::lanczos_bounds(a, 80, trnsparse::Preconditioner::jacobi);
    EXPECT_TRUE((trnsparse::chebyshev<double, std::int32_t>(trnsparse::to_bsr(a, 8, 8), b, xj, jb, o).converged));
  }
}

TEST(IterativeRichardson, ContractsAtTheOptimalRate) {
  const std::int64_t n = 8;
  const auto a = laplacian(n);
  const auto [lmin, lmax] = laplacian_extremes(n, 2);
  const auto b = ones_rhs(a.rows);
  std::vector<double> x(b.size(), 0.0);
  trnsparse::IterativeOptions o;
  o.rtol = 1e-10;
  o.record_history = true;
  const auto res = trnsparse::richardson<double, std::int32_t>(a, b, x, 2 / (lmin + lmax), o);
  ASSERT_TRUE(res.converged);
  // r_{k+1} = (I − ωA) r_k with ‖I − ωA‖₂ = (κ − 1)/(κ + 1) exactly for the optimal ω: ‖r_k‖ ≤ q^k ‖r_0‖,
  // plus the O(u·‖A‖‖x‖) of computing each true residual (1e-13·‖b‖ allowed).
  const double q = (lmax - lmin) / (lmax + lmin);
  const double r0 = res.residual_history.front();
  for (std::size_t k = 0; k < res.residual_history.size(); ++k)
    EXPECT_LE(res.residual_history[k], std::pow(q, static_cast<double>(k)) * r0 + 1e-13 * r0) << k;
  std::vector<double> x2(b.size(), 0.0);
  o.record_history = false;
  o.max_iterations = 50;
  // ω beyond 2/λmax diverges: reported as max_iterations or breakdown, never as converged.
  EXPECT_FALSE((trnsparse::richardson<double, std::int32_t>(a, b, x2, 2.5 / lmax, o).converged));
}

TEST(IterativePower, FindsTheDominantEigenvalueWithinTheResidualBound) {
  // Symmetric: diag(1..n) with a dominant 3n entry, plus a random symmetric sparse perturbation.
  const std::int64_t n = 60;
  auto coo = trnsparse_test::random_coo<double, std::int32_t>(n, n, 0.05, 21, false);
  trnsparse::Coo<double> sym{n, n, {}, {}, {}};
  for (std::size_t k = 0; k < coo.values.size(); ++k) {
    sym.row.push_back(coo.row[k]);
    sym.col.push_back(coo.col[k]);
    sym.values.push_back(0.1 * coo.values[k]);
    sym.row.push_back(coo.col[k]);
    sym.col.push_back(coo.row[k]);
    sym.values.push_back(0.1 * coo.values[k]);
  }
  for (std::int32_t i = 0; i < n; ++i) {
    sym.row.push_back(i);
    sym.col.push_back(i);
    sym.values.push_back(i == 0 ? 3.0 * n : i + 1.0);
  }
  const auto a = trnsparse::to_csr(sym);
  const auto d = trnsparse::to_dense(a);
  Eigen::MatrixXd ad(n, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) ad(i, j) = d[static_cast<std::size_t>(i * n + j)];
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(ad);
  const double l1 = eig.eigenvalues()(n - 1), l2 = eig.eigenvalues()(n - 2);
  std::vector<double> v(static_cast<std::size_t>(n), 1.0);
  double lambda = 0;
  trnsparse::IterativeOptions o;
  o.rtol = 1e-10;
  const auto res = trnsparse::power_iteration<double, std::int32_t>(a, v, lambda, o);
  ASSERT_TRUE(res.converged);
  // Symmetric A: |λ − λ₁| ≤ ‖Av − λv‖²/gap (Parlett 11.7.1), plus the eigensolver's and our O(n·u·‖A‖).
  EXPECT_LE(std::fabs(lambda - l1), res.residual_norm * res.residual_norm / (l1 - l2) + 1e-13 * n * l1);
  std::vector<double> zero(static_cast<std::size_t>(n), 0.0);
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnsparse::power_iteration<double, std::int32_t>(a, zero, lambda); }, "start vector");
}

TEST(IterativeThreads, CgIsBitwiseIdenticalForOneAndTwoThreads) {
  const auto a = laplacian(40, 40);  // 64000 rows, 4.4e5 nonzeros: two threads really split the SpMV
  std::vector<double> b = ones_rhs(a.rows), x1(b.size(), 0.0), x2(b.size(), 0.0);
  trnsparse::IterativeOptions o;
  o.rtol = 1e-8;
  o.threads = 1;
  const auto r1 = trnsparse::cg<double, std::int32_t>(a, b, x1, o);
  o.threads = 2;
  const auto r2 = trnsparse::cg<double, std::int32_t>(a, b, x2, o);
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_EQ(x1, x2);
}

TEST(IterativeErrors, BadArgumentsAreNamed) {
  const auto a = laplacian(3);
  std::vector<double> b(9, 1.0), x(9, 0.0), short_x(8);
  expect_error<trncore::DimensionMismatch>([&] { (void)trnsparse::cg<double, std::int32_t>(a, b, short_x); },
                                           "trnsparse::cg");
  trnsparse::IterativeOptions bad;
  bad.rtol = -1;
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::cg<double, std::int32_t>(a, b, x, bad); }, "rtol");
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnsparse::chebyshev<double, std::int32_t>(a, b, x, {2.0, 1.0, 0});
      },
      "trnsparse::chebyshev");
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::richardson<double, std::int32_t>(a, b, x, 0.0); },
                                         "omega");
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::lanczos_bounds(a, 0); }, "steps");
  auto neg = a;
  trnsparse::scale(-1.0, neg);
  trnsparse::IterativeOptions jac;
  jac.preconditioner = trnsparse::Preconditioner::jacobi;
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::cg<double, std::int32_t>(neg, b, x, jac); },
                                         "diagonal");
  trnsparse::Csr<double> rect;
  rect.rows = 2;
  rect.cols = 3;
  rect.indptr = {0, 0, 0};
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::cg<double, std::int32_t>(rect, b, x); }, "square");
}

}  // namespace
