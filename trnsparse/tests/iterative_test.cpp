// Iterative solvers on 2-D/3-D Poisson (closed-form spectrum) and a random symmetric matrix: trnsolver's
// Krylov stack on trnsparse's operator. Oracles: CHOLMOD direct solves (SuiteSparse), the closed-form
// Laplacian eigenvalues, Eigen's dense symmetric eigensolver, the methods' own a-priori convergence bounds,
// and trnsolver's solvers called directly on the same operator (the sparse overloads are thin: bitwise the
// same iterates). Each tolerance is stated where it is used.
#include <trnsparse/direct.hpp>
#include <trnsparse/iterative.hpp>
#include <trnsparse/ops.hpp>

#include "sparse_test_support.hpp"
#include "test_matrices.hpp"

#include <trnsci_testing/errors.hpp>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace {

using trnsolver::KrylovOptions;
using trnsolver::KrylovReason;
using trnsolver::KrylovResult;
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

double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}

// ‖b − A x‖₂ in long double (independent of spmv and of trnsolver's norms).
double true_residual(const trnsparse::Csr<double>& a, const std::vector<double>& x, const std::vector<double>& b) {
  long double s = 0;
  for (std::int64_t i = 0; i < a.rows; ++i) {
    long double e = b[static_cast<std::size_t>(i)];
    for (auto k = a.indptr[static_cast<std::size_t>(i)]; k < a.indptr[static_cast<std::size_t>(i) + 1]; ++k)
      e -= static_cast<long double>(a.values[static_cast<std::size_t>(k)]) *
           x[static_cast<std::size_t>(a.indices[static_cast<std::size_t>(k)])];
    s += e * e;
  }
  return static_cast<double>(std::sqrt(s));
}

TEST(IterativeCg, ConvergesOnPoissonAndMatchesCholmod) {
  for (auto [n, dims] : {std::pair<std::int64_t, int>{1, 2}, {30, 2}, {10, 3}}) {
    const auto a = laplacian(n, dims == 3 ? n : 1);
    const auto b = ones_rhs(a.rows);
    std::vector<double> x_direct(b.size());
    trnsparse::Cholesky(a).solve(b, x_direct);
    const double lambda_min = laplacian_extremes(n, dims).first;
    for (bool jacobi : {false, true}) {
      for (int format = 0; format < 2; ++format) {
        std::vector<double> x(b.size(), 0.0);
        KrylovOptions o;
        o.rtol = 1e-12;
        const auto bsr = trnsparse::to_bsr(a, 4, 4);
        const trnsolver::LinearOperator<double> m =
            jacobi ? trnsparse::jacobi_preconditioner(a) : trnsolver::LinearOperator<double>{};
        const auto res = format == 0 ? trnsparse::cg<double, std::int32_t>(a, b, x, o, m)
                                     : trnsparse::cg<double, std::int32_t>(bsr, b, x, o, m);
        ASSERT_TRUE(res.converged) << trnsolver::to_string(res.reason);
        const double residual = true_residual(a, x, b);
        // The reported relative residual is the true one (up to the rounding of computing it).
        EXPECT_NEAR(res.relative_residual, residual / norm2(b), 1e-15 + 1e-6 * residual / norm2(b));
        EXPECT_LE(res.relative_residual, o.rtol);
        // ‖x − x*‖₂ ≤ ‖A⁻¹‖₂‖b − Ax‖₂ = ‖r‖₂/λmin for both solutions; CHOLMOD's residual measured in
        // long double (‖r‖₂ ≤ √n·‖r‖∞).
        const double chol_res =
            static_cast<double>(trnsparse_test::residual_inf(a, x_direct, b)) * std::sqrt(static_cast<double>(a.rows));
        EXPECT_LE(dist2(x, x_direct), (residual + chol_res) / lambda_min) << "n=" << n << " dims=" << dims;
      }
    }
  }
}

TEST(IterativeCg, FloatConvergesAndNonSpdBreaksDown) {
  const auto a = trnsparse::convert<float, std::int64_t>(laplacian(12));
  std::vector<float> b(144, 1.0f), x(144, 0.0f);
  KrylovOptions o;
  o.rtol = 1e-5;
  EXPECT_TRUE((trnsparse::cg<float, std::int64_t>(a, b, x, o).converged));
  auto neg = laplacian(5);
  trnsparse::scale(-1.0, neg);
  std::vector<double> bd(25, 1.0), xd(25, 0.0);
  const auto res = trnsparse::cg<double, std::int32_t>(neg, bd, xd);
  EXPECT_EQ(res.reason, KrylovReason::breakdown);
  EXPECT_FALSE(res.converged);
  // The iteration limit is a result too.
  std::vector<double> b2(900, 1.0), x2(900, 0.0);
  KrylovOptions few;
  few.max_iterations = 3;
  const auto limited = trnsparse::cg<double, std::int32_t>(laplacian(30), b2, x2, few);
  EXPECT_EQ(limited.reason, KrylovReason::max_iterations);
  EXPECT_EQ(limited.iterations, 3);
}

TEST(IterativeChebyshev, ResidualMeetsTheOptimalChebyshevBound) {
  for (auto [n, dims] : {std::pair<std::int64_t, int>{20, 2}, {8, 3}}) {
    const auto a = laplacian(n, dims == 3 ? n : 1);
    const auto [lmin, lmax] = laplacian_extremes(n, dims);
    const auto b = ones_rhs(a.rows);
    std::vector<double> x(b.size(), 0.0);
    KrylovOptions o;
    o.rtol = 1e-11;
    const auto res = trnsparse::chebyshev<double, std::int32_t>(a, b, x, {lmin, lmax, 0}, o);
    ASSERT_TRUE(res.converged);
    // With the exact spectral interval, r_k = p_k(A) r_0 with p_k = T_k((θ − λ)/δ)/T_k(σ), so
    // ‖r_k‖₂ ≤ ‖r_0‖₂/T_k(σ). Rounding adds O(k·u·‖A‖‖x‖) to the recurrence residual: allowed as 1e-13·k·‖b‖
    // (the history is relative to ‖b‖).
    const double sigma = (lmax + lmin) / (lmax - lmin);
    const double r0 = res.residual_history.front();
    for (std::size_t k = 0; k < res.residual_history.size(); ++k) {
      const double tk = std::cosh(static_cast<double>(k) * std::acosh(sigma));
      EXPECT_LE(res.residual_history[k], r0 / tk + 1e-13 * static_cast<double>(k + 1)) << "k=" << k;
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
    KrylovOptions o;
    o.rtol = 1e-10;
    ASSERT_GT(bounds.lambda_min, 0.0);
    const auto res = trnsparse::chebyshev<double, std::int32_t>(a, b, x, bounds, o);
    EXPECT_TRUE(res.converged);
    // Jacobi-preconditioned Chebyshev with bounds of D^{-1/2} A D^{-1/2}.
    std::vector<double> xj(b.size(), 0.0);
    const auto jb = trnsparse::lanczos_bounds(a, 80, trnsparse::Preconditioner::jacobi);
    const auto bsr = trnsparse::to_bsr(a, 8, 8);
    EXPECT_TRUE((trnsparse::chebyshev<double, std::int32_t>(bsr, b, xj, jb, o, trnsparse::jacobi_preconditioner(bsr))
                     .converged));
  }
}

TEST(IterativeRichardson, ContractsAtTheOptimalRate) {
  const std::int64_t n = 8;
  const auto a = laplacian(n);
  const auto [lmin, lmax] = laplacian_extremes(n, 2);
  const auto b = ones_rhs(a.rows);
  std::vector<double> x(b.size(), 0.0);
  KrylovOptions o;
  o.rtol = 1e-10;
  const auto res = trnsparse::richardson<double, std::int32_t>(a, b, x, 2 / (lmin + lmax), o);
  ASSERT_TRUE(res.converged);
  // r_{k+1} = (I − ωA) r_k with ‖I − ωA‖₂ = (κ − 1)/(κ + 1) exactly for the optimal ω: ‖r_k‖ ≤ q^k ‖r_0‖,
  // plus the O(u·‖A‖‖x‖) of computing each true residual (1e-13·‖r_0‖ allowed).
  const double q = (lmax - lmin) / (lmax + lmin);
  const double r0 = res.residual_history.front();
  for (std::size_t k = 0; k < res.residual_history.size(); ++k)
    EXPECT_LE(res.residual_history[k], std::pow(q, static_cast<double>(k)) * r0 + 1e-13 * r0) << k;
  std::vector<double> x2(b.size(), 0.0);
  o.max_iterations = 50;
  // ω beyond 2/λmax diverges: reported as max_iterations, stagnation or non_finite, never as converged.
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
  KrylovOptions o;
  o.rtol = 1e-10;
  const auto res = trnsparse::power_iteration<double, std::int32_t>(a, v, lambda, o);
  ASSERT_TRUE(res.converged);
  // Symmetric A: |λ − λ₁| ≤ ‖Av − λv‖²/gap (Parlett 11.7.1), plus the eigensolver's and our O(n·u·‖A‖).
  const double residual = res.relative_residual * std::fabs(lambda);
  EXPECT_LE(std::fabs(lambda - l1), residual * residual / (l1 - l2) + 1e-13 * n * l1);
  std::vector<double> zero(static_cast<std::size_t>(n), 0.0);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { (void)trnsparse::power_iteration<double, std::int32_t>(a, zero, lambda); }, "trnsolver::power_iteration",
      {"start vector"});
}

// The sparse overloads are thin: the same iterates, bit for bit, as trnsolver's solver on
// trnsparse::matrix_operator, and every field of the result equal.
void expect_same(const KrylovResult& p, const KrylovResult& q, const std::vector<double>& x,
                 const std::vector<double>& y) {
  EXPECT_EQ(p.reason, q.reason);
  EXPECT_EQ(p.iterations, q.iterations);
  EXPECT_EQ(p.restarts, q.restarts);
  EXPECT_EQ(p.relative_residual, q.relative_residual);
  EXPECT_EQ(p.residual_history, q.residual_history);
  EXPECT_EQ(p.detail, q.detail);
  ASSERT_EQ(x.size(), y.size());
  EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size() * sizeof(double)));
}

TEST(IterativeStack, SparseOverloadsGiveTrnsolversIteratesOnTheSameOperator) {
  const auto a = laplacian(12);
  const auto bsr = trnsparse::to_bsr(a, 4, 4);
  const auto b = ones_rhs(a.rows);
  const auto extremes = laplacian_extremes(12, 2);
  const double lmin = extremes.first, lmax = extremes.second;  // not a structured binding: lambdas capture them
  const auto op = trnsparse::matrix_operator(a);
  const auto op_bsr = trnsparse::matrix_operator(bsr);
  const auto m = trnsparse::jacobi_preconditioner(a);
  KrylovOptions o;
  o.rtol = 1e-11;
  auto run = [&](auto sparse, auto direct) {
    std::vector<double> x(b.size(), 0.25), y(b.size(), 0.25);
    const KrylovResult p = sparse(std::span<double>(x));
    const KrylovResult q = direct(std::span<double>(y));
    EXPECT_TRUE(p.converged) << p.detail;
    expect_same(p, q, x, y);
  };
  run([&](auto x) { return trnsparse::cg<double, std::int32_t>(a, b, x, o, m); },
      [&](auto y) { return trnsolver::cg(op, b, y, o, m); });
  run([&](auto x) { return trnsparse::cg<double, std::int32_t>(bsr, b, x, o); },
      [&](auto y) { return trnsolver::cg(op_bsr, b, y, o); });
  run(
      [&](auto x) {
        return trnsparse::chebyshev<double, std::int32_t>(a, b, x, {lmin, lmax, 0}, o);
      },
      [&](auto y) {
        return trnsolver::chebyshev(op, b, y, {lmin, lmax, 0}, o);
      });
  run([&](auto x) { return trnsparse::richardson<double, std::int32_t>(a, b, x, 2 / (lmin + lmax), o); },
      [&](auto y) { return trnsolver::richardson(op, b, y, 2 / (lmin + lmax), o); });
  double l1 = 0, l2 = 0;
  run([&](auto x) { return trnsparse::power_iteration<double, std::int32_t>(a, x, l1, o); },
      [&](auto y) { return trnsolver::power_iteration(op, y, l2, o); });
  EXPECT_EQ(l1, l2);
  // Lanczos without scaling: the sparse form converts A to double (a no-op here) and runs trnsolver's.
  const auto s1 = trnsparse::lanczos_bounds(a, 20, trnsparse::Preconditioner::none, trncore::Options{}.with_seed(3));
  const auto s2 = trnsolver::lanczos_bounds(op, 20, trncore::Options{}.with_seed(3));
  EXPECT_EQ(s1.lambda_min, s2.lambda_min);
  EXPECT_EQ(s1.lambda_max, s2.lambda_max);
  EXPECT_EQ(s1.steps, s2.steps);
}

TEST(IterativeStack, MonitorSeesEveryIterationAndStops) {
  const auto a = laplacian(20);
  const auto b = ones_rhs(a.rows);
  std::vector<std::int64_t> seen;
  std::vector<double> residuals;
  KrylovOptions o;
  o.rtol = 1e-12;
  o.monitor = [&](const trncore::Progress& p) {
    EXPECT_EQ(p.routine, "trnsolver::cg");
    seen.push_back(p.iteration);
    residuals.push_back(p.residual);
    return p.iteration == 5 ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
  };
  std::vector<double> x(b.size(), 0.0);
  const auto res = trnsparse::cg<double, std::int32_t>(a, b, x, o);
  EXPECT_EQ(seen, (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(res.iterations, 5);
  EXPECT_TRUE(res.stopped_by_monitor);
  EXPECT_EQ(res.reason, KrylovReason::stopped_by_monitor);
  EXPECT_FALSE(res.converged);
  // The monitor's residual is the relative residual estimate the history records.
  for (std::size_t k = 0; k < residuals.size(); ++k) EXPECT_EQ(residuals[k], res.residual_history[k + 1]);
  // The returned x is the fifth iterate: the true residual matches the reported one.
  EXPECT_NEAR(res.relative_residual, true_residual(a, x, b) / norm2(b), 1e-12);
}

TEST(IterativeThreads, CgIsBitwiseIdenticalForOneAndTwoThreads) {
  const auto a = laplacian(40, 40);  // 64000 rows, 4.4e5 nonzeros: two threads really split the SpMV
  std::vector<double> b = ones_rhs(a.rows), x1(b.size(), 0.0), x2(b.size(), 0.0);
  KrylovOptions o;
  o.rtol = 1e-8;
  o.threads = 1;
  const auto r1 = trnsparse::cg<double, std::int32_t>(a, b, x1, o);
  o.threads = 2;
  const auto r2 = trnsparse::cg<double, std::int32_t>(a, b, x2, o);
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_EQ(x1, x2);
}

TEST(IterativeErrors, BadArgumentsAreNamed) {
  using trnsci_testing::expect_error;
  const auto a = laplacian(3);
  std::vector<double> b(9, 1.0), x(9, 0.0), short_x(8);
  expect_error<trncore::DimensionMismatch>([&] { (void)trnsparse::cg<double, std::int32_t>(a, b, short_x); },
                                           "trnsolver::cg", {"x 8"});
  KrylovOptions bad;
  bad.rtol = -1;
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::cg<double, std::int32_t>(a, b, x, bad); },
                                         "trnsolver::cg", {"rtol"});
  KrylovOptions sim;
  sim.backend = trncore::Backend::sim;
  expect_error<trncore::NotSupported>([&] { (void)trnsparse::cg<double, std::int32_t>(a, b, x, sim); }, "trnsparse::cg",
                                      {"backend = sim", "bsr_spmm"});
  KrylovOptions negative_threads;
  negative_threads.threads = -1;
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::matrix_operator(a, negative_threads); },
                                         "trnsparse::matrix_operator", {"threads"});
  expect_error<trncore::InvalidArgument>(
      [&] {
        (void)trnsparse::chebyshev<double, std::int32_t>(a, b, x, {2.0, 1.0, 0});
      },
      "trnsolver::chebyshev", {"lambda_min = 2"});
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::richardson<double, std::int32_t>(a, b, x, 0.0); },
                                         "trnsolver::richardson", {"omega"});
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::lanczos_bounds(a, 0); }, "trnsparse::lanczos_bounds",
                                         {"steps"});
  expect_error<trncore::InvalidArgument>(
      [&] { (void)trnsparse::lanczos_bounds(a, 5, static_cast<trnsparse::Preconditioner>(9)); },
      "trnsparse::lanczos_bounds", {"preconditioner = 9"});
  trnsparse::Csr<double> zero_diag = a;
  for (std::size_t k = 0; k < zero_diag.values.size(); ++k)
    if (zero_diag.indices[k] == 0 && k < static_cast<std::size_t>(zero_diag.indptr[1])) zero_diag.values[k] = 0;
  expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::jacobi_preconditioner(zero_diag); },
                                         "trnsparse::jacobi_preconditioner", {"diagonal entry 0"});
  trnsparse::Csr<double> rect;
  rect.rows = 2;
  rect.cols = 3;
  rect.indptr = {0, 0, 0};
  expect_error<trncore::DimensionMismatch>([&] { (void)trnsparse::cg<double, std::int32_t>(rect, b, x); },
                                           "trnsparse::cg", {"2x3", "square"});
}

}  // namespace
