// Krylov solvers (double and float): convergence against LAPACK dgesv in fp64, iteration bounds,
// preconditioners, GMRES orthogonalization, the result struct on non-convergence/breakdown/stagnation/
// non-finite values, thread-count determinism, and bad arguments.
//
// Tolerances: for a solution with true relative residual ρ = ‖b − A x‖/‖b‖, ‖x − x*‖/‖x*‖ ≤ κ₂(A)·ρ;
// the oracle x* itself carries ≤ κ₂(A)·c·n·u of error (LU backward stable, Higham ASNA Thm. 9.4/7.2), so
// every comparison allows κ·(ρ + 4·n·u).
#include <trnsolver/krylov.hpp>
#include <trncore/error.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace krylov_test {
using Matrix = std::vector<double>;
Matrix poisson2d(std::int64_t m);
double poisson2d_condition(std::int64_t m);
Matrix convection_diffusion(std::int64_t m, double c);
Matrix symmetric_with_eigenvalues(const std::vector<double>& eigenvalues, std::uint64_t seed);
std::vector<double> geometric(std::int64_t n, double kappa);
Matrix random_matrix(std::int64_t n, double shift, std::uint64_t seed);
double condition2(const Matrix& a, std::int64_t n);
std::vector<double> direct_solve(const Matrix& a, const std::vector<double>& b);
double relative_difference(const std::vector<double>& x, const std::vector<double>& y);
double relative_residual(const Matrix& a, const std::vector<double>& b, const std::vector<double>& x);
}  // namespace krylov_test

namespace {

using namespace krylov_test;
using trncore::Layout;
using trncore::MatrixView;
using trnsolver::KrylovOptions;
using trnsolver::KrylovReason;
using trnsolver::KrylovResult;
using trnsolver::LinearOperator;
using trnsolver::Orthogonalization;

constexpr double kU = 0x1p-53;

MatrixView<const double> view(const Matrix& a, std::int64_t n, Layout layout = Layout::row_major) {
  return MatrixView<const double>(a.data(), n, n, n, layout);
}

std::vector<double> ones(std::int64_t n) { return std::vector<double>(static_cast<std::size_t>(n), 1.0); }

// b = A·(1, 2, …, n)/n, so x* is known to be smooth and nonzero everywhere.
std::vector<double> rhs_of(const Matrix& a, std::int64_t n) {
  std::vector<double> b(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      b[static_cast<std::size_t>(i)] +=
          a[static_cast<std::size_t>(i * n + j)] * static_cast<double>(j + 1) / static_cast<double>(n);
  return b;
}

using Solver = std::function<KrylovResult(MatrixView<const double>, std::span<const double>, std::span<double>,
                                          const KrylovOptions&, const LinearOperator<double>&)>;
const Solver kCg = [](auto a, auto b, auto x, const auto& o, const auto& m) { return trnsolver::cg(a, b, x, o, m); };
const Solver kGmres = [](auto a, auto b, auto x, const auto& o, const auto& m) {
  return trnsolver::gmres(a, b, x, o, m);
};
const Solver kBicgstab = [](auto a, auto b, auto x, const auto& o, const auto& m) {
  return trnsolver::bicgstab(a, b, x, o, m);
};
const Solver kMinres = [](auto a, auto b, auto x, const auto& o, const auto& m) {
  return trnsolver::minres(a, b, x, o, m);
};

// Solves, checks the result struct's claims against an independent fp64 residual, and the solution
// against dgesv within κ·(ρ + 4nu).
void expect_solves(const Solver& solve, const Matrix& a, std::int64_t n, const std::vector<double>& b, double kappa,
                   const KrylovOptions& options, const LinearOperator<double>& m = {}, KrylovResult* out = nullptr) {
  std::vector<double> x(static_cast<std::size_t>(n), 0.0);
  const KrylovResult r = solve(view(a, n), b, x, options, m);
  EXPECT_TRUE(r.converged) << r.detail;
  EXPECT_EQ(r.reason, KrylovReason::converged) << r.detail;
  const double rho = relative_residual(a, b, x);
  EXPECT_LE(r.relative_residual, options.rtol);
  EXPECT_NEAR(r.relative_residual, rho, 1e-3 * rho + 8 * static_cast<double>(n) * kU);
  EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations + 1));
  const std::vector<double> oracle = direct_solve(a, b);
  EXPECT_LE(relative_difference(x, oracle), kappa * (rho + 4 * static_cast<double>(n) * kU))
      << "kappa " << kappa << " residual " << rho;
  if (out) *out = r;
}

KrylovOptions tight(double rtol = 1e-10) {
  KrylovOptions o;
  o.rtol = rtol;
  return o;
}

// trnsci_testing::expect_error with one fragment.
template <class E, class F>
void expect_error_fn(F&& f, std::string_view function, std::string_view fragment) {
  trnsci_testing::expect_error<E>(std::forward<F>(f), function, {fragment});
}

// ---- Convergence against the oracle ----

TEST(KrylovConvergence, CgOnPoisson16And32WithinTheSqrtKappaBound) {
  for (std::int64_t m : {16, 32}) {
    const std::int64_t n = m * m;
    const Matrix a = poisson2d(m);
    const double kappa = poisson2d_condition(m);
    const std::vector<double> b = ones(n);
    KrylovResult r;
    expect_solves(kCg, a, n, b, kappa, tight(), {}, &r);
    // ‖r_k‖/‖b‖ ≤ √κ·‖e_k‖_A/‖e_0‖_A ≤ 2√κ·((√κ−1)/(√κ+1))^k (x₀ = 0; Saad Thm. 6.29).
    const double s = std::sqrt(kappa);
    const double bound = std::log(2 * s / 1e-10) / std::log((s + 1) / (s - 1));
    EXPECT_LE(static_cast<double>(r.iterations), std::ceil(bound)) << "m = " << m;
    RecordProperty("cg_poisson_" + std::to_string(m) + "_iterations", static_cast<int>(r.iterations));
  }
}

TEST(KrylovConvergence, AllSolversOnPoisson16) {
  const std::int64_t m = 16, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = rhs_of(a, n);
  for (const Solver* s : {&kCg, &kGmres, &kBicgstab, &kMinres})
    expect_solves(*s, a, n, b, poisson2d_condition(m), tight());
}

TEST(KrylovConvergence, SpdWithPrescribedCondition) {
  const std::int64_t n = 120;
  const Matrix a = symmetric_with_eigenvalues(geometric(n, 1e4), 7);
  const std::vector<double> b = rhs_of(a, n);
  for (const Solver* s : {&kCg, &kGmres, &kBicgstab, &kMinres}) {
    KrylovOptions o = tight();
    o.restart = 60;
    expect_solves(*s, a, n, b, 1e4, o);
  }
}

TEST(KrylovConvergence, NonsymmetricConvectionDiffusion) {
  const std::int64_t m = 14, n = m * m;
  const Matrix a = convection_diffusion(m, 0.6);
  const double kappa = condition2(a, n);
  const std::vector<double> b = rhs_of(a, n);
  for (Orthogonalization orth : {Orthogonalization::mgs, Orthogonalization::cgs2}) {
    KrylovOptions o = tight();
    o.orthogonalization = orth;
    expect_solves(kGmres, a, n, b, kappa, o);
  }
  expect_solves(kBicgstab, a, n, b, kappa, tight());
}

TEST(KrylovConvergence, SymmetricIndefiniteWithMinresAndGmres) {
  const std::int64_t n = 100;
  std::vector<double> eig = geometric(n, 1e3);
  for (std::size_t i = 0; i < eig.size(); i += 2) eig[i] = -eig[i];
  const Matrix a = symmetric_with_eigenvalues(eig, 11);
  const std::vector<double> b = rhs_of(a, n);
  KrylovOptions o = tight();
  o.restart = 100;
  expect_solves(kMinres, a, n, b, 1e3, o);
  expect_solves(kGmres, a, n, b, 1e3, o);
}

TEST(KrylovConvergence, ColumnMajorGivesBitwiseTheSameResult) {
  const std::int64_t m = 12, n = m * m;
  const Matrix a = convection_diffusion(m, 0.3);
  Matrix at(a.size());  // the same matrix stored column-major
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      at[static_cast<std::size_t>(j * n + i)] = a[static_cast<std::size_t>(i * n + j)];
  const std::vector<double> b = rhs_of(a, n);
  std::vector<double> x1(static_cast<std::size_t>(n), 0.0), x2 = x1;
  const KrylovResult r1 = trnsolver::gmres(view(a, n), b, x1, tight());
  const KrylovResult r2 = trnsolver::gmres(view(at, n, Layout::col_major), b, x2, tight());
  EXPECT_TRUE(r1.converged);
  EXPECT_EQ(0, std::memcmp(x1.data(), x2.data(), x1.size() * sizeof(double)));
  EXPECT_EQ(r1.residual_history, r2.residual_history);
}

TEST(KrylovConvergence, FloatSolvers) {
  // float: the attainable relative residual is about n·u_f·κ-ish; rtol = 1e-5 is comfortably above.
  const std::int64_t m = 16, n = m * m;
  const Matrix a = poisson2d(m);
  std::vector<float> af(a.begin(), a.end()), b(static_cast<std::size_t>(n), 1.0f);
  const std::vector<double> oracle = direct_solve(a, ones(n));
  const double kappa = poisson2d_condition(m);
  KrylovOptions o = tight(1e-5);
  MatrixView<const float> av(af.data(), n, n, n);
  using FloatSolver = std::function<KrylovResult(std::span<float>)>;
  const FloatSolver solvers[] = {[&](std::span<float> x) { return trnsolver::cg(av, b, x, o); },
                                 [&](std::span<float> x) { return trnsolver::gmres(av, b, x, o); },
                                 [&](std::span<float> x) { return trnsolver::bicgstab(av, b, x, o); },
                                 [&](std::span<float> x) { return trnsolver::minres(av, b, x, o); }};
  for (const auto& solve : solvers) {
    std::vector<float> x(static_cast<std::size_t>(n), 0.0f);
    const KrylovResult r = solve(x);
    EXPECT_TRUE(r.converged) << r.detail;
    EXPECT_LE(r.relative_residual, 1e-5);
    const std::vector<double> xd(x.begin(), x.end());
    EXPECT_LE(relative_difference(xd, oracle), kappa * (r.relative_residual + 4 * static_cast<double>(n) * 0x1p-24));
  }
}

TEST(KrylovConvergence, GmresWithFullRestartConvergesInAtMostNSteps) {
  // A dense Gaussian matrix has eigenvalues spread over a disc: GMRES needs nearly all n steps, and in
  // exact arithmetic the n-th Krylov space holds the solution.
  const std::int64_t n = 40;
  const Matrix a = random_matrix(n, 0.0, 5);
  const std::vector<double> b = rhs_of(a, n);
  for (Orthogonalization orth : {Orthogonalization::mgs, Orthogonalization::cgs2}) {
    KrylovOptions o = tight(1e-10);
    o.restart = n;
    o.orthogonalization = orth;
    KrylovResult r;
    expect_solves(kGmres, a, n, b, condition2(a, n), o, {}, &r);
    EXPECT_LE(r.iterations, n);
    EXPECT_EQ(r.restarts, 0);
  }
}

TEST(KrylovConvergence, CallbackOperatorMatchesMatrixForm) {
  const std::int64_t m = 10, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = ones(n);
  const LinearOperator<double> op(n, [&](std::span<const double> x, std::span<double> y) {
    for (std::int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::int64_t j = 0; j < n; ++j) s += a[static_cast<std::size_t>(i * n + j)] * x[static_cast<std::size_t>(j)];
      y[static_cast<std::size_t>(i)] = s;
    }
  });
  std::vector<double> x1(static_cast<std::size_t>(n), 0.0), x2 = x1;
  const KrylovResult r1 = trnsolver::cg(op, b, x1, tight());
  const KrylovResult r2 = trnsolver::cg(view(a, n), b, x2, tight());
  EXPECT_TRUE(r1.converged);
  EXPECT_EQ(x1, x2);
  EXPECT_EQ(r1.iterations, r2.iterations);
}

TEST(KrylovConvergence, InitialGuessIsUsedAndExactGuessNeedsNoIteration) {
  const std::int64_t m = 8, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = ones(n);
  std::vector<double> x = direct_solve(a, b);
  const KrylovResult r = trnsolver::cg(view(a, n), b, x, tight(1e-8));
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 0);
  // b = 0: x = 0 whatever the guess.
  std::vector<double> zero(static_cast<std::size_t>(n), 0.0);
  const KrylovResult z = trnsolver::gmres(view(a, n), zero, x);
  EXPECT_TRUE(z.converged);
  EXPECT_EQ(x, zero);
  // n = 0.
  std::vector<double> empty;
  EXPECT_TRUE(trnsolver::minres(MatrixView<const double>(), empty, empty).converged);
}

// ---- Preconditioners ----

TEST(KrylovPreconditioners, ReduceIterations) {
  const std::int64_t m = 16, n = m * m;
  // Variable coefficients: A = D P D with D² ∈ [1, 100] (seeded) makes the diagonal informative.
  Matrix p = poisson2d(m);
  std::vector<double> d(static_cast<std::size_t>(n));
  std::uint64_t state = 12345;
  for (double& e : d) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    e = std::sqrt(1.0 + 99.0 * static_cast<double>(state >> 11) * 0x1p-53);
  }
  Matrix a(p.size());
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      a[static_cast<std::size_t>(i * n + j)] =
          d[static_cast<std::size_t>(i)] * p[static_cast<std::size_t>(i * n + j)] * d[static_cast<std::size_t>(j)];
  const std::vector<double> b = rhs_of(a, n);
  const double kappa = condition2(a, n);
  KrylovResult none, jacobi, block, ssor;
  expect_solves(kCg, a, n, b, kappa, tight(), {}, &none);
  expect_solves(kCg, a, n, b, kappa, tight(), trnsolver::jacobi_preconditioner(view(a, n)), &jacobi);
  expect_solves(kCg, a, n, b, kappa, tight(), trnsolver::block_jacobi_preconditioner(view(a, n), m), &block);
  expect_solves(kCg, a, n, b, kappa, tight(), trnsolver::ssor_preconditioner(view(a, n), 1.2), &ssor);
  EXPECT_LT(jacobi.iterations, none.iterations / 2);
  EXPECT_LT(block.iterations, jacobi.iterations);
  EXPECT_LT(ssor.iterations, jacobi.iterations);
  RecordProperty("pcg_iterations_none_jacobi_block_ssor",
                 std::to_string(none.iterations) + " " + std::to_string(jacobi.iterations) + " " +
                     std::to_string(block.iterations) + " " + std::to_string(ssor.iterations));
  // The other solvers take a preconditioner too.
  KrylovResult g0, g1, b0, b1, m0, m1;
  KrylovOptions o = tight();
  o.restart = 50;
  expect_solves(kGmres, a, n, b, kappa, o, {}, &g0);
  expect_solves(kGmres, a, n, b, kappa, o, trnsolver::block_jacobi_preconditioner(view(a, n), m), &g1);
  expect_solves(kBicgstab, a, n, b, kappa, tight(), {}, &b0);
  expect_solves(kBicgstab, a, n, b, kappa, tight(), trnsolver::ssor_preconditioner(view(a, n), 1.0), &b1);
  expect_solves(kMinres, a, n, b, kappa, tight(), {}, &m0);
  expect_solves(kMinres, a, n, b, kappa, tight(), trnsolver::jacobi_preconditioner(view(a, n)), &m1);
  EXPECT_LT(g1.iterations, g0.iterations);
  EXPECT_LT(b1.iterations, b0.iterations);
  EXPECT_LT(m1.iterations, m0.iterations);
}

TEST(KrylovPreconditioners, BlockJacobiWithOneBlockIsADirectSolve) {
  const std::int64_t n = 30;
  const Matrix a = random_matrix(n, 10.0, 3);
  const std::vector<double> b = rhs_of(a, n);
  KrylovResult r;
  expect_solves(kGmres, a, n, b, condition2(a, n), tight(1e-12),
                trnsolver::block_jacobi_preconditioner(view(a, n), 1000), &r);
  EXPECT_LE(r.iterations, 2);
}

TEST(KrylovPreconditioners, FloatForms) {
  const std::int64_t m = 8, n = m * m;
  const Matrix a = poisson2d(m);
  std::vector<float> af(a.begin(), a.end()), b(static_cast<std::size_t>(n), 1.0f);
  MatrixView<const float> av(af.data(), n, n, n);
  for (const auto& pre : {trnsolver::jacobi_preconditioner(av), trnsolver::block_jacobi_preconditioner(av, 8),
                          trnsolver::ssor_preconditioner(av, 1.5)}) {
    std::vector<float> x(static_cast<std::size_t>(n), 0.0f);
    EXPECT_TRUE(trnsolver::cg(av, b, x, tight(1e-5), pre).converged);
  }
}

// ---- GMRES orthogonalization ----

double orthogonality_loss(const trnsolver::ArnoldiResult<double>& ar) {
  const auto n = static_cast<std::size_t>(ar.n), k = static_cast<std::size_t>(ar.steps + 1);
  double f = 0;
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      double s = 0;
      for (std::size_t l = 0; l < n; ++l) s += ar.basis[i * n + l] * ar.basis[j * n + l];
      const double e = s - (i == j ? 1.0 : 0.0);
      f += e * e;
    }
  return std::sqrt(f);
}

TEST(KrylovOrthogonalization, Cgs2KeepsTheBasisOrthogonalWhereMgsLosesIt) {
  // Eigenvalues 1 … 1e10: the Krylov vectors become nearly dependent, and MGS's loss of orthogonality grows
  // like κ([v₀, A V_k])·u (Björck; Greenbaum, Rozložník, Strakoš 1997) while CGS2's stays O(n·u)
  // (Giraud, Langou, Rozložník 2005).
  const std::int64_t n = 80;
  std::vector<double> eig = geometric(n, 1e10);
  const LinearOperator<double> op(n, [&](std::span<const double> x, std::span<double> y) {
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = eig[i] * x[i];
  });
  const std::vector<double> start = ones(n);
  const auto mgs = trnsolver::arnoldi(op, start, 40, Orthogonalization::mgs);
  const auto cgs2 = trnsolver::arnoldi(op, start, 40, Orthogonalization::cgs2);
  const double lm = orthogonality_loss(mgs), lc = orthogonality_loss(cgs2);
  EXPECT_LE(lc, 100 * static_cast<double>(n) * kU);
  EXPECT_GT(lm, 1e4 * lc);
  std::ostringstream losses;
  losses << std::scientific << lm << " " << lc;
  RecordProperty("orthogonality_loss_mgs_cgs2", losses.str());
  // The Arnoldi relation A V_k = V_{k+1} H_k holds for both.
  for (const auto* ar : {&mgs, &cgs2}) {
    const auto k = static_cast<std::size_t>(ar->steps), un = static_cast<std::size_t>(n);
    double worst = 0;
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t i = 0; i < un; ++i) {
        double s = eig[i] * ar->basis[j * un + i];
        for (std::size_t l = 0; l <= j + 1; ++l) s -= ar->basis[l * un + i] * ar->hessenberg[l + j * (k + 1)];
        worst = std::max(worst, std::fabs(s));
      }
    EXPECT_LE(worst, 1e-12 * 1e10);
  }
}

// ---- The result struct tells the truth ----

TEST(KrylovResultStruct, MaxIterations) {
  const std::int64_t m = 16, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = ones(n);
  for (const Solver* s : {&kCg, &kGmres, &kBicgstab, &kMinres}) {
    KrylovOptions o = tight();
    o.max_iterations = 3;
    std::vector<double> x(static_cast<std::size_t>(n), 0.0);
    const KrylovResult r = (*s)(view(a, n), b, x, o, {});
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.reason, KrylovReason::max_iterations) << r.detail;
    EXPECT_EQ(r.iterations, 3);
    EXPECT_EQ(r.residual_history.size(), 4u);
    EXPECT_NEAR(r.relative_residual, relative_residual(a, b, x), 1e-12);
    EXPECT_GT(r.relative_residual, 1e-3);
    EXPECT_NE(r.detail.find("max_iterations"), std::string::npos);
  }
}

TEST(KrylovResultStruct, CgBreaksDownOnAnIndefiniteMatrix) {
  const Matrix a = {1, 0, 0, -3};
  const std::vector<double> b = {1, 1};
  std::vector<double> x = {0, 0};
  const KrylovResult r = trnsolver::cg(view(a, 2), b, x);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.reason, KrylovReason::breakdown);
  EXPECT_NE(r.detail.find("p^T A p"), std::string::npos) << r.detail;
  EXPECT_EQ(x, (std::vector<double>{0, 0}));  // x was not updated with the bad step
  EXPECT_DOUBLE_EQ(r.relative_residual, 1.0);
  // MINRES solves the same system.
  std::vector<double> y = {0, 0};
  const KrylovResult q = trnsolver::minres(view(a, 2), b, y);
  EXPECT_TRUE(q.converged) << q.detail;
  EXPECT_NEAR(y[1], -1.0 / 3.0, 1e-12);
}

TEST(KrylovResultStruct, BicgstabBreaksDownWhenRhoIsZero) {
  // Found by exact rational search: one step gives r₁ = (0, −1, 1) ⟂ r̂ = r₀ = b = (0, 2, 2), with α = ω = 1/2
  // and every intermediate exactly representable, so the computed ρ₁ = r̂ᵀr₁ is exactly 0. det A = −2.
  const Matrix a = {1, 1, 0, -1, 2, 1, -1, 1, 0};
  const std::vector<double> b = {0, 2, 2};
  std::vector<double> x = {0, 0, 0};
  const KrylovResult r = trnsolver::bicgstab(view(a, 3), b, x);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.reason, KrylovReason::breakdown);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_NE(r.detail.find("rho"), std::string::npos) << r.detail;
  EXPECT_DOUBLE_EQ(r.relative_residual, 0.5);  // ‖(0, −1, 1)‖/‖(0, 2, 2)‖
  // GMRES has no such breakdown.
  std::vector<double> y = {0, 0, 0};
  EXPECT_TRUE(trnsolver::gmres(view(a, 3), b, y).converged);
}

TEST(KrylovResultStruct, RestartedGmresStagnatesOnTheCyclicShift) {
  // A e_i = e_{i+1 mod n}, b = e_1: every GMRES(m) cycle with m < n makes no progress (the residual stays 1).
  const std::int64_t n = 20;
  const LinearOperator<double> shift(n, [=](std::span<const double> x, std::span<double> y) {
    for (std::int64_t i = 0; i < n; ++i) y[static_cast<std::size_t>((i + 1) % n)] = x[static_cast<std::size_t>(i)];
  });
  std::vector<double> b(static_cast<std::size_t>(n), 0.0), x = b;
  b[0] = 1;
  KrylovOptions o;
  o.restart = 5;
  o.stagnation_window = 12;
  const KrylovResult r = trnsolver::gmres(shift, b, x, o);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.reason, KrylovReason::stagnation) << r.detail;
  EXPECT_EQ(r.iterations, 15);  // no progress for 12 iterations, judged at the end of the third cycle
  EXPECT_DOUBLE_EQ(r.relative_residual, 1.0);
  EXPECT_GE(r.restarts, 2);
  // With m = n, it converges in n steps: the plateau of n − 1 steps inside one cycle is not stagnation.
  o.restart = n;
  std::fill(x.begin(), x.end(), 0.0);
  const KrylovResult full = trnsolver::gmres(shift, b, x, o);
  EXPECT_TRUE(full.converged) << full.detail;
  EXPECT_EQ(full.iterations, n);
}

TEST(KrylovResultStruct, UnattainableToleranceEndsInStagnationNotALoop) {
  // rtol = 1e-20 is below what fp64 can certify for κ ≈ 100: CG's updated residual keeps shrinking while the
  // true residual stalls near u·κ, so the confirmations fail and the run must stop honestly.
  const std::int64_t m = 16, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = ones(n);
  std::vector<double> x(static_cast<std::size_t>(n), 0.0);
  const KrylovResult r = trnsolver::cg(view(a, n), b, x, tight(1e-20));
  EXPECT_FALSE(r.converged);
  EXPECT_TRUE(r.reason == KrylovReason::stagnation) << trnsolver::to_string(r.reason) << ": " << r.detail;
  EXPECT_LT(r.relative_residual, 1e-13);
  EXPECT_LT(r.iterations, 10 * n);
}

TEST(KrylovResultStruct, NonFiniteValuesStopTheRun) {
  const std::int64_t n = 50;
  int calls = 0;
  const LinearOperator<double> poisoned(n, [&](std::span<const double> x, std::span<double> y) {
    ++calls;
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = (i + 2.0) * x[i];
    if (calls == 4) y[7] = std::numeric_limits<double>::quiet_NaN();
  });
  const std::vector<double> b = ones(n);
  using OpSolver = std::function<KrylovResult(std::span<double>)>;
  const OpSolver solvers[] = {[&](std::span<double> x) { return trnsolver::cg(poisoned, b, x, tight(1e-14)); },
                              [&](std::span<double> x) { return trnsolver::gmres(poisoned, b, x, tight(1e-14)); },
                              [&](std::span<double> x) { return trnsolver::bicgstab(poisoned, b, x, tight(1e-14)); },
                              [&](std::span<double> x) { return trnsolver::minres(poisoned, b, x, tight(1e-14)); }};
  for (const auto& solve : solvers) {
    calls = 0;
    std::vector<double> x(static_cast<std::size_t>(n), 0.0);
    const KrylovResult r = solve(x);
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.reason, KrylovReason::non_finite) << r.detail;
    EXPECT_LT(r.iterations, 5);
  }
  // Overflow: A = 1e300·I with b = 1e300·1 gives pᵀAp = inf.
  const Matrix big = {1e300, 0, 0, 1e300};
  const std::vector<double> bb = {1e300, 1e300};
  std::vector<double> x = {0, 0};
  const KrylovResult r = trnsolver::cg(view(big, 2), bb, x);
  EXPECT_EQ(r.reason, KrylovReason::non_finite) << r.detail;
  EXPECT_FALSE(r.converged);
}

TEST(KrylovResultStruct, IndefinitePreconditionerIsABreakdown) {
  const std::int64_t m = 6, n = m * m;
  const Matrix a = poisson2d(m);
  const LinearOperator<double> negative(n, [](std::span<const double> r, std::span<double> z) {
    for (std::size_t i = 0; i < r.size(); ++i) z[i] = -r[i];
  });
  std::vector<double> x(static_cast<std::size_t>(n), 0.0);
  EXPECT_EQ(trnsolver::cg(view(a, n), ones(n), x, {}, negative).reason, KrylovReason::breakdown);
  EXPECT_EQ(trnsolver::minres(view(a, n), ones(n), x, {}, negative).reason, KrylovReason::breakdown);
}

TEST(KrylovResultStruct, ReasonNames) {
  for (KrylovReason r : {KrylovReason::converged, KrylovReason::max_iterations, KrylovReason::breakdown,
                         KrylovReason::stagnation, KrylovReason::non_finite, KrylovReason::stopped_by_monitor})
    EXPECT_EQ(trnsolver::parse_krylov_reason(trnsolver::to_string(r)), r);
  EXPECT_EQ(trnsolver::to_string(KrylovReason::non_finite), "non_finite");
  EXPECT_EQ(trnsolver::parse_orthogonalization("cgs2"), Orthogonalization::cgs2);
  EXPECT_THROW(trnsolver::parse_krylov_reason("done"), trncore::ParseError);
}

// ---- Chebyshev, Richardson, power iteration, Lanczos bounds ----

TEST(KrylovPolynomial, ChebyshevAndRichardsonSolveWithKnownSpectrum) {
  // Eigenvalues geometric in [1, 100]: the interval [1, 100] holds the spectrum exactly.
  const std::int64_t n = 80;
  const Matrix a = symmetric_with_eigenvalues(geometric(n, 100), 11);
  const std::vector<double> b = rhs_of(a, n);
  const Solver cheb = [](auto a, auto b, auto x, const auto& o, const auto& m) {
    return trnsolver::chebyshev(a, b, x, {1.0, 100.0, 0}, o, m);
  };
  KrylovResult r;
  expect_solves(cheb, a, n, b, 100, tight(), {}, &r);
  // ‖r_k‖ ≤ ‖r_0‖/T_k(σ), σ = 101/99: the iterations the bound needs for 1e-10, plus one.
  const double sigma = 101.0 / 99.0;
  EXPECT_LE(static_cast<double>(r.iterations), std::ceil(std::acosh(2 / 1e-10) / std::acosh(sigma)) + 1);
  // Richardson with the optimal ω = 2/(λmin + λmax) contracts by q = 99/101 per step (‖I − ωA‖₂ = q).
  const Solver rich = [](auto a, auto b, auto x, const auto& o, const auto& m) {
    return trnsolver::richardson(a, b, x, 2.0 / 101.0, o, m);
  };
  KrylovOptions o = tight(1e-8);
  o.max_iterations = 2000;
  expect_solves(rich, a, n, b, 100, o, {}, &r);
  const double q = 99.0 / 101.0;
  for (std::size_t k = 0; k < r.residual_history.size(); ++k)
    EXPECT_LE(r.residual_history[k], std::pow(q, static_cast<double>(k)) * r.residual_history[0] + 1e-13) << k;
  // With a Jacobi preconditioner on Poisson (constant diagonal 4: M⁻¹A = A/4, spectrum in (0, 2)).
  const std::int64_t m = 8, np = m * m;
  const Matrix p = poisson2d(m);
  const double h = std::acos(-1.0) / static_cast<double>(m + 1);
  const double lmin = 2 * (1 - std::cos(h)) / 2, lmax = 2 * (1 + std::cos(h)) / 2;  // of A/4 = (4 − 2cos − 2cos)/4
  const Solver pcheb = [&](auto a, auto b, auto x, const auto& o, const auto& m) {
    return trnsolver::chebyshev(a, b, x, {lmin, lmax, 0}, o, m);
  };
  expect_solves(pcheb, p, np, rhs_of(p, np), poisson2d_condition(m), tight(),
                trnsolver::jacobi_preconditioner(view(p, np)));
}

TEST(KrylovEigen, PowerIterationAndLanczosBoundsAgainstKnownEigenvalues) {
  const std::int64_t n = 60;
  std::vector<double> ev = geometric(n, 50);  // 1 … 50
  ev.back() = 100;                            // dominant; the next is 50^(58/59) ≈ 46.7: gap > 50, rate < 1/2
  const Matrix a = symmetric_with_eigenvalues(ev, 5);
  std::vector<double> v = ones(n);
  double lambda = 0;
  const KrylovResult r = trnsolver::power_iteration(view(a, n), v, lambda, tight(1e-10));
  ASSERT_TRUE(r.converged) << r.detail;
  // |λ − λ₁| ≤ ‖Av − λv‖²/gap (Parlett Thm 11.7.1) plus the rounding of the construction, O(n·u·λ₁).
  const double residual = r.relative_residual * std::fabs(lambda);
  EXPECT_LE(std::fabs(lambda - 100), residual * residual / 50 + 64 * n * kU * 100);
  EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations + 1));
  // Rate 1/2: about log2(1e10) iterations; allow twice as many.
  EXPECT_LE(r.iterations, 70);
  // Lanczos: n steps span the whole space, so the Ritz values are the eigenvalues (to rounding) and the
  // widened bounds enclose [1, 100] tightly.
  const auto op = trnsolver::matrix_operator(view(a, n));
  const trnsolver::SpectrumBounds s = trnsolver::lanczos_bounds(op, n);
  EXPECT_LE(s.lambda_min, 1);
  EXPECT_GE(s.lambda_max, 100);
  EXPECT_GE(s.lambda_min, 1 - 1e-8);
  EXPECT_LE(s.lambda_max, 100 + 1e-8);
  // The isolated λ₁ = 100 (gap 50) converges within a few steps: 12 steps bound it from above already,
  // and a different seed (another start vector) does too.
  for (std::uint64_t seed : {0, 9}) {
    const auto s12 = trnsolver::lanczos_bounds(op, 12, trncore::Options{}.with_seed(seed));
    EXPECT_EQ(s12.steps, 12);
    EXPECT_GE(s12.lambda_max, 100 - 1e-10);
    EXPECT_LE(s12.lambda_max, 100 + 1e-3);
    EXPECT_GE(s12.lambda_min, 0.0);  // clamped for SPD
  }
  // Bad arguments.
  expect_error_fn<trncore::InvalidArgument>([&] { (void)trnsolver::lanczos_bounds(op, 0); },
                                            "trnsolver::lanczos_bounds", "steps = 0");
  std::vector<double> zero(static_cast<std::size_t>(n), 0.0);
  expect_error_fn<trncore::InvalidArgument>([&] { (void)trnsolver::power_iteration(op, zero, lambda); },
                                            "trnsolver::power_iteration", "start vector is zero");
  expect_error_fn<trncore::InvalidArgument>(
      [&] {
        (void)trnsolver::chebyshev(op, ones(n), v, {2.0, 1.0, 0});
      },
      "trnsolver::chebyshev", "lambda_min = 2");
  expect_error_fn<trncore::InvalidArgument>([&] { (void)trnsolver::richardson(op, ones(n), v, -1.0); },
                                            "trnsolver::richardson", "omega = -1");
  expect_error_fn<trncore::NotSupported>(
      [&] { (void)trnsolver::lanczos_bounds(op, 5, trncore::Options{}.with_backend(trncore::Backend::sim)); },
      "trnsolver::lanczos_bounds", "backend = sim");
}

TEST(KrylovOptionsStruct, DerivesTrncoreOptions) {
  // One options type: the Krylov fields on top of trncore::Options, chaining setters keep the derived type.
  KrylovOptions o;
  o.rtol = 1e-3;
  const KrylovOptions chained = KrylovOptions(o).with_threads(2).with_seed(7);
  EXPECT_EQ(chained.rtol, 1e-3);
  EXPECT_EQ(chained.threads, 2);
  EXPECT_EQ(chained.seed, 7u);
  // A plain trncore::Options converts, with the Krylov defaults.
  const KrylovOptions from_core = trncore::Options{}.with_threads(3);
  EXPECT_EQ(from_core.threads, 3);
  EXPECT_EQ(from_core.rtol, 1e-8);
  EXPECT_EQ(from_core.max_iterations, 0);
  EXPECT_EQ(from_core.stagnation_window, 100);
}

// ---- The monitor ----

// Runs `solve` with a monitor that stops at iteration 3 and checks the contract: the monitor saw
// iterations 1, 2, 3 with the routine's name, the solver returned the third iterate with reason
// stopped_by_monitor, and relative_residual is that iterate's true residual.
template <class Solve>
void expect_monitor_stop(const char* routine, Solve&& solve, const Matrix& a, std::int64_t n,
                         const std::vector<double>& b) {
  std::vector<std::int64_t> seen;
  KrylovOptions o = tight(1e-14);
  o.stagnation_window = 0;
  o.monitor = [&](const trncore::Progress& p) {
    EXPECT_EQ(p.routine, routine);
    EXPECT_GE(p.elapsed_seconds, 0.0);
    EXPECT_TRUE(std::isfinite(p.residual));
    seen.push_back(p.iteration);
    return p.iteration >= 3 ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
  };
  std::vector<double> x(static_cast<std::size_t>(n), 0.0);
  const KrylovResult r = solve(o, x);
  EXPECT_EQ(seen, (std::vector<std::int64_t>{1, 2, 3})) << routine;
  EXPECT_EQ(r.iterations, 3) << routine;
  EXPECT_TRUE(r.stopped_by_monitor) << routine;
  EXPECT_EQ(r.reason, KrylovReason::stopped_by_monitor) << routine << ": " << r.detail;
  EXPECT_FALSE(r.converged) << routine;
  if (!b.empty()) {
    const double rho = relative_residual(a, b, x);
    EXPECT_NEAR(r.relative_residual, rho, 1e-6 * rho) << routine;
  }
}

TEST(KrylovMonitor, EverySolverReportsEachIterationAndStopsWhenAsked) {
  const std::int64_t m = 12, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = rhs_of(a, n);
  const auto av = view(a, n);
  const auto h = std::acos(-1.0) / static_cast<double>(m + 1);
  const trnsolver::SpectrumBounds bounds{4 * (1 - std::cos(h)), 4 * (1 + std::cos(h)), 0};
  expect_monitor_stop(
      "trnsolver::cg", [&](const auto& o, auto& x) { return trnsolver::cg(av, b, x, o); }, a, n, b);
  expect_monitor_stop(
      "trnsolver::gmres", [&](const auto& o, auto& x) { return trnsolver::gmres(av, b, x, o); }, a, n, b);
  expect_monitor_stop(
      "trnsolver::bicgstab", [&](const auto& o, auto& x) { return trnsolver::bicgstab(av, b, x, o); }, a, n, b);
  expect_monitor_stop(
      "trnsolver::minres", [&](const auto& o, auto& x) { return trnsolver::minres(av, b, x, o); }, a, n, b);
  expect_monitor_stop(
      "trnsolver::chebyshev", [&](const auto& o, auto& x) { return trnsolver::chebyshev(av, b, x, bounds, o); }, a, n,
      b);
  expect_monitor_stop(
      "trnsolver::richardson", [&](const auto& o, auto& x) { return trnsolver::richardson(av, b, x, 0.2, o); }, a, n,
      b);
  expect_monitor_stop("trnsolver::cg_bf16", [&](const auto& o, auto& x) { return trnsolver::cg_bf16(av, b, x, o); }, a,
                      n, {});
  expect_monitor_stop("trnsolver::richardson_bf16",
                      [&](const auto& o, auto& x) { return trnsolver::richardson_bf16(av, b, x, 0.8, o); }, a, n, {});
  double lambda = 0;
  expect_monitor_stop("trnsolver::power_iteration",
                      [&](const auto& o, auto& x) {
                        x = ones(n);
                        x[0] = 2;
                        return trnsolver::power_iteration(av, x, lambda, o);
                      },
                      a, n, {});
  // GMRES stopped inside a cycle forms the iterate of the steps done: its true residual is the least-squares
  // one of 3 steps, which the history's last entry records.
  // Lanczos: a stop at step 3 returns the bounds of 3 steps.
  std::vector<std::int64_t> steps;
  trncore::Options lo;
  lo.monitor = [&](const trncore::Progress& p) {
    steps.push_back(p.iteration);
    return p.iteration == 3 ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
  };
  EXPECT_EQ(trnsolver::lanczos_bounds(trnsolver::matrix_operator(av), 20, lo).steps, 3);
  EXPECT_EQ(steps, (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(KrylovMonitor, AStopOnTheConvergedIterateStillReportsConvergence) {
  // A = I: CG converges in one iteration; a monitor that always stops does not un-converge it.
  const std::int64_t n = 5;
  Matrix eye(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) eye[static_cast<std::size_t>(i * n + i)] = 1;
  KrylovOptions o;
  int calls = 0;
  o.monitor = [&](const trncore::Progress&) {
    ++calls;
    return trncore::MonitorAction::stop;
  };
  std::vector<double> x(5, 0.0);
  const KrylovResult r = trnsolver::cg(view(eye, n), ones(n), x, o);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.reason, KrylovReason::converged);
  EXPECT_TRUE(r.stopped_by_monitor);
  // No monitor: never called, never stopped.
  const KrylovResult plain = trnsolver::cg(view(eye, n), ones(n), x);
  EXPECT_FALSE(plain.stopped_by_monitor);
}

// ---- Determinism ----

TEST(KrylovDeterminism, OneAndTwoThreadsGiveBitwiseIdenticalResults) {
  // n = 1024 runs the matrix-vector product on two threads; the diagonal operator of 70000 elements runs
  // the blocked dot products on two threads.
  const std::int64_t m = 32, n = m * m;
  const Matrix a = convection_diffusion(m, 0.2);
  const std::vector<double> b = rhs_of(a, n);
  for (int solver = 0; solver < 2; ++solver) {
    std::vector<std::vector<double>> xs;
    std::vector<KrylovResult> rs;
    for (int threads : {1, 2}) {
      KrylovOptions o = tight();
      o.threads = threads;
      std::vector<double> x(static_cast<std::size_t>(n), 0.0);
      rs.push_back(solver == 0 ? trnsolver::gmres(view(a, n), b, x, o) : trnsolver::bicgstab(view(a, n), b, x, o));
      xs.push_back(x);
    }
    EXPECT_TRUE(rs[0].converged);
    EXPECT_EQ(0, std::memcmp(xs[0].data(), xs[1].data(), xs[0].size() * sizeof(double)));
    EXPECT_EQ(rs[0].residual_history, rs[1].residual_history);
  }
  const std::int64_t big = 70000;
  const LinearOperator<double> diag(big, [](std::span<const double> x, std::span<double> y) {
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = (1.0 + static_cast<double>(i % 97)) * x[i];
  });
  std::vector<double> bb(static_cast<std::size_t>(big));
  for (std::size_t i = 0; i < bb.size(); ++i) bb[i] = std::sin(static_cast<double>(i));
  std::vector<std::vector<double>> xs;
  for (int threads : {1, 2}) {
    KrylovOptions o = tight(1e-8);
    o.threads = threads;
    std::vector<double> x(bb.size(), 0.0);
    EXPECT_TRUE(trnsolver::cg(diag, bb, x, o).converged);
    xs.push_back(x);
  }
  EXPECT_EQ(0, std::memcmp(xs[0].data(), xs[1].data(), xs[0].size() * sizeof(double)));
}

// ---- Bad arguments ----

using trnsci_testing::expect_error;

TEST(KrylovArguments, BadArgumentsThrowWithTheFunctionName) {
  using trncore::DimensionMismatch;
  using trncore::InvalidArgument;
  const std::int64_t n = 4;
  const Matrix a = poisson2d(2);
  const Matrix rect(12, 1.0);
  std::vector<double> b = ones(n), x(4, 0.0), x3(3, 0.0);
  auto with = [](auto change) {
    KrylovOptions o;
    change(o);
    return o;
  };
  expect_error<DimensionMismatch>([&] { trnsolver::cg(view(a, n), b, x3); }, "trnsolver::cg", {"x 3"});
  expect_error<DimensionMismatch>([&] { trnsolver::gmres(MatrixView<const double>(rect.data(), 4, 3, 3), b, x); },
                                  "trnsolver::gmres", {"4x3"});
  expect_error<InvalidArgument>([&] { trnsolver::bicgstab(view(a, n), b, x, with([](auto& o) { o.rtol = -1; })); },
                                "trnsolver::bicgstab", {"rtol = -1"});
  expect_error<InvalidArgument>(
      [&] { trnsolver::minres(view(a, n), b, x, with([](auto& o) { o.atol = std::nan(""); })); }, "trnsolver::minres",
      {"atol = nan"});
  expect_error<InvalidArgument>([&] { trnsolver::gmres(view(a, n), b, x, with([](auto& o) { o.restart = 0; })); },
                                "trnsolver::gmres", {"restart = 0"});
  expect_error<InvalidArgument>([&] { trnsolver::cg(view(a, n), b, x, with([](auto& o) { o.max_iterations = -2; })); },
                                "trnsolver::cg", {"max_iterations = -2"});
  expect_error<InvalidArgument>([&] { trnsolver::cg(view(a, n), b, x, with([](auto& o) { o.threads = -1; })); },
                                "trnsolver::cg", {"threads = -1"});
  // Host only, and no forward-error target (a residual test certifies none).
  expect_error<trncore::NotSupported>(
      [&] { trnsolver::cg(view(a, n), b, x, with([](auto& o) { o.backend = trncore::Backend::sim; })); },
      "trnsolver::cg", {"backend = sim"});
  expect_error<trncore::NotSupported>(
      [&] { trnsolver::gmres(view(a, n), b, x, with([](auto& o) { o.target_forward_error = 1e-6; })); },
      "trnsolver::gmres", {"target_forward_error"});
  expect_error<trncore::NotSupported>(
      [&] { trnsolver::matrix_operator(view(a, n), trncore::Options{}.with_backend(trncore::Backend::sim)); },
      "trnsolver::matrix_operator", {"backend = sim"});
  expect_error<InvalidArgument>(
      [&] { trnsolver::cg(view(a, n), b, x, with([](auto& o) { o.stagnation_window = -1; })); }, "trnsolver::cg",
      {"stagnation_window = -1"});
  expect_error<InvalidArgument>(
      [&] {
        trnsolver::gmres(view(a, n), b, x,
                         with([](auto& o) { o.orthogonalization = static_cast<Orthogonalization>(9); }));
      },
      "trnsolver::gmres", {"orthogonalization = 9"});
  std::vector<double> bad_b = {1, std::numeric_limits<double>::infinity(), 1, 1};
  expect_error<InvalidArgument>([&] { trnsolver::cg(view(a, n), bad_b, x); }, "trnsolver::cg", {"b[1] = inf"});
  std::vector<double> bad_x = {0, 0, std::nan(""), 0};
  expect_error<InvalidArgument>([&] { trnsolver::gmres(view(a, n), b, bad_x); }, "trnsolver::gmres",
                                {"x (the initial guess)[2]"});
  // Callback sizes: the operator's size, b, x and the preconditioner must agree.
  const LinearOperator<double> op5(5, [](std::span<const double>, std::span<double>) {});
  expect_error<DimensionMismatch>([&] { trnsolver::bicgstab(op5, b, x); }, "trnsolver::bicgstab",
                                  {"A is 5x5 but b has 4"});
  expect_error<DimensionMismatch>([&] { trnsolver::cg(view(a, n), b, x, {}, op5); }, "trnsolver::cg",
                                  {"preconditioner has size 5"});
  expect_error<InvalidArgument>([&] { trnsolver::minres(LinearOperator<double>(), b, x); }, "trnsolver::minres",
                                {"operator A is empty"});
  expect_error<InvalidArgument>([&] { LinearOperator<double>(-1, [](auto, auto) {}); }, "trnsolver::LinearOperator",
                                {"size = -1"});
  expect_error<InvalidArgument>([&] { LinearOperator<double>(3, nullptr); }, "trnsolver::LinearOperator", {"empty"});
  expect_error<DimensionMismatch>([&] { op5(b, x); }, "trnsolver::LinearOperator::operator()", {"size 5"});
  // Preconditioners.
  const Matrix zero_diag = {0, 1, 1, 2};
  expect_error<InvalidArgument>([&] { trnsolver::jacobi_preconditioner(view(zero_diag, 2)); },
                                "trnsolver::jacobi_preconditioner", {"a(0, 0) = 0"});
  expect_error<InvalidArgument>([&] { trnsolver::ssor_preconditioner(view(a, n), 2.0); },
                                "trnsolver::ssor_preconditioner", {"omega = 2"});
  expect_error<InvalidArgument>([&] { trnsolver::block_jacobi_preconditioner(view(a, n), 0); },
                                "trnsolver::block_jacobi_preconditioner", {"block_size = 0"});
  const Matrix singular_block = {1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  expect_error<InvalidArgument>([&] { trnsolver::block_jacobi_preconditioner(view(singular_block, 4), 2); },
                                "trnsolver::block_jacobi_preconditioner", {"block 0"});
  expect_error<DimensionMismatch>(
      [&] { trnsolver::jacobi_preconditioner(MatrixView<const double>(rect.data(), 4, 3, 3)); },
      "trnsolver::jacobi_preconditioner", {"4x3"});
  expect_error<InvalidArgument>([&] { trnsolver::arnoldi(op5, ones(5), -1); }, "trnsolver::arnoldi", {"steps = -1"});
  expect_error<InvalidArgument>([&] { trnsolver::arnoldi(op5, std::vector<double>(5, 0.0), 2); }, "trnsolver::arnoldi",
                                {"zero"});
  expect_error<DimensionMismatch>([&] { trnsolver::matrix_operator(MatrixView<const double>(rect.data(), 4, 3, 3)); },
                                  "trnsolver::matrix_operator", {"4x3"});
}

}  // namespace

// An invariant Krylov subspace ends Lanczos with zero Ritz residuals: the rounding term must still keep the
// exact extreme eigenvalues inside (small diagonal operators reach it in ≤ n steps; 12 of 25 such cases gave
// bounds a few ulps inside the spectrum before the term, found through the Python bindings).
TEST(Lanczos, InvariantSubspaceStillEnclosesTheSpectrum) {
  std::mt19937_64 gen(2026);
  std::uniform_real_distribution<double> value(-3.0, 7.0);
  for (int trial = 0; trial < 50; ++trial) {
    const std::int64_t n = 1 + trial % 10;
    std::vector<double> diag(static_cast<std::size_t>(n));
    for (auto& v : diag) v = value(gen);
    const trnsolver::LinearOperator<double> op(n, [diag](std::span<const double> x, std::span<double> y) {
      for (std::size_t i = 0; i < x.size(); ++i) y[i] = diag[i] * x[i];
    });
    const auto s =
        trnsolver::lanczos_bounds(op, 30, trncore::Options{}.with_seed(static_cast<std::uint64_t>(trial)), false);
    EXPECT_LE(s.lambda_min, *std::min_element(diag.begin(), diag.end())) << "trial " << trial;
    EXPECT_GE(s.lambda_max, *std::max_element(diag.begin(), diag.end())) << "trial " << trial;
    // The widening is a rounding term, not a loose bound: within 1e-12 relative of the spectrum here.
    EXPECT_GE(s.lambda_min, *std::min_element(diag.begin(), diag.end()) - 1e-12 * 7) << "trial " << trial;
  }
}
