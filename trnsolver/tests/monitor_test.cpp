// Options::monitor in trnsolver's iterative routines: solve's refinement steps, eigh_jacobi's sweeps,
// inv_sqrt_spd's Newton–Schulz iterations, rsvd's power iterations and rsvd_adaptive's blocks. Each test
// checks that the monitor sees iterations 1, 2, … in order, that a monitor which always proceeds changes no
// bit of the result, and that a stop returns early with stopped_by_monitor set and no certificate — against
// an independent oracle where the early result has a meaning of its own (LAPACK's eigenvalues with Weyl's
// bound for Jacobi; rsvd with fewer power iterations; the adaptive range finder's own bound).
#include "dense_test_support.hpp"

#include <trnsolver/dense.hpp>
#include <trnsolver/jacobi.hpp>
#include <trnsolver/randomized.hpp>
#include <trnsolver/solve.hpp>

#include <trncore/error.hpp>
#include <trncore/monitor.hpp>

#include <gtest/gtest.h>

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using trncore::Layout;
using trncore::MonitorAction;
using trncore::Progress;

// Records every call and asks to stop at iteration `stop_at` (0: never).
struct Recorder {
  std::vector<std::int64_t> iterations;
  std::vector<double> residuals;
  std::string routine;
  std::int64_t stop_at = 0;
  trncore::Monitor monitor() {
    return [this](const Progress& p) {
      iterations.push_back(p.iteration);
      residuals.push_back(p.residual);
      routine = std::string(p.routine);
      EXPECT_GE(p.elapsed_seconds, 0.0);
      return stop_at > 0 && p.iteration >= stop_at ? MonitorAction::stop : MonitorAction::proceed;
    };
  }
};

void expect_counting(const std::vector<std::int64_t>& it) {
  for (std::size_t i = 0; i < it.size(); ++i) EXPECT_EQ(it[i], static_cast<std::int64_t>(i + 1));
}

// A column-major n×n matrix with κ∞ around 10^6 (graded columns of a random matrix): LU-IR from fp32
// factors needs several refinement steps.
std::vector<double> graded_matrix(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      a[static_cast<std::size_t>(i + j * n)] =
          u(rng) * std::pow(10.0, -6.0 * static_cast<double>(j) / static_cast<double>(n - 1));
  return a;
}

TEST(Monitor, SolveSeesRefinementStepsAndStops) {
  const std::int64_t n = 60, nrhs = 2;
  const std::vector<double> a = graded_matrix(n, 5);
  std::vector<double> b(static_cast<std::size_t>(n * nrhs));
  std::mt19937_64 rng(6);
  for (double& v : b) v = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
  trnsolver::SolveOptions o;
  o.refinement = trnsolver::Refinement::lu_ir;
  o.residual = trnsolver::ResidualPrecision::double_double;
  std::vector<double> plain(b.size()), watched(b.size());
  trnsolver::SolveReport r0, r1;
  trnsolver::solve(Layout::col_major, n, nrhs, a.data(), n, b.data(), n, plain.data(), n, o, r0);
  ASSERT_TRUE(r0.certified) << r0.to_string();
  ASSERT_GE(r0.refinements, 3) << r0.to_string();

  // A monitor that always proceeds: every step seen, in order, and no bit changes.
  Recorder all;
  o.monitor = all.monitor();
  trnsolver::solve(Layout::col_major, n, nrhs, a.data(), n, b.data(), n, watched.data(), n, o, r1);
  EXPECT_EQ(plain, watched);
  EXPECT_EQ(static_cast<std::int64_t>(all.iterations.size()), r0.refinements);
  expect_counting(all.iterations);
  EXPECT_EQ(all.routine, "trnsolver::solve");
  EXPECT_FALSE(r1.stopped_by_monitor);
  EXPECT_TRUE(r1.certified);
  // The measure is the correction's relative size: it falls below u at convergence.
  EXPECT_LE(all.residuals.back(), 0x1p-53);

  // Stop after the second step: the iterates so far, no fallback, uncertified, the bound still computed.
  Recorder two;
  two.stop_at = 2;
  o.monitor = two.monitor();
  trnsolver::SolveReport r2;
  std::vector<double> early(b.size());
  trnsolver::solve(Layout::col_major, n, nrhs, a.data(), n, b.data(), n, early.data(), n, o, r2);
  EXPECT_EQ(two.iterations, (std::vector<std::int64_t>{1, 2}));
  EXPECT_TRUE(r2.stopped_by_monitor);
  EXPECT_FALSE(r2.certified);
  EXPECT_FALSE(r2.met);
  EXPECT_NE(r2.uncertified_reason.find("stopped by the monitor at refinement step 2"), std::string::npos)
      << r2.uncertified_reason;
  EXPECT_EQ(r2.fallbacks, 0);
  EXPECT_EQ(r2.refinements, 2);
  EXPECT_TRUE(std::isfinite(r2.forward_error_bound_normwise));
  EXPECT_NE(early, plain);
  // Without a report the stop is a TargetNotMet, as every uncertified result is.
  Recorder again;
  again.stop_at = 1;
  o.monitor = again.monitor();
  EXPECT_THROW(trnsolver::solve(Layout::col_major, n, nrhs, a.data(), n, b.data(), n, early.data(), n, o),
               trncore::TargetNotMet);
}

// A random symmetric n×n matrix, row-major (the dense tests' generator).
std::vector<double> symmetric(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto m = dense_test::random_sym<double>(n, Layout::row_major, rng);
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) a[static_cast<std::size_t>(i * n + j)] = m(i, j);
  return a;
}

TEST(Monitor, JacobiSeesSweepsAndStopsWithinWeylsBound) {
  const std::int64_t n = 24;
  const std::vector<double> a = symmetric(n, 11);
  std::vector<double> w0(n), v0(a.size()), w1(n), v1(a.size());
  trnsolver::JacobiOptions o;
  const trnsolver::JacobiResult plain =
      trnsolver::eigh_jacobi<double>(Layout::row_major, n, a.data(), n, w0.data(), v0.data(), n, o);
  ASSERT_TRUE(plain.converged);
  Recorder all;
  o.monitor = all.monitor();
  const trnsolver::JacobiResult watched =
      trnsolver::eigh_jacobi<double>(Layout::row_major, n, a.data(), n, w1.data(), v1.data(), n, o);
  EXPECT_EQ(w0, w1);
  EXPECT_EQ(v0, v1);
  // Every sweep but the converged last one (which rotated nothing) is reported, with off(A)/‖A‖_F.
  EXPECT_EQ(static_cast<std::int64_t>(all.iterations.size()), plain.sweeps - 1);
  expect_counting(all.iterations);
  for (std::size_t i = 0; i < all.residuals.size(); ++i) EXPECT_EQ(all.residuals[i], plain.off_history[i]);
  EXPECT_EQ(all.routine, "trnsolver::eigh_jacobi");

  Recorder two;
  two.stop_at = 2;
  o.monitor = two.monitor();
  std::vector<double> w2(n), v2(a.size());
  const trnsolver::JacobiResult early =
      trnsolver::eigh_jacobi<double>(Layout::row_major, n, a.data(), n, w2.data(), v2.data(), n, o);
  EXPECT_EQ(two.iterations, (std::vector<std::int64_t>{1, 2}));
  EXPECT_TRUE(early.stopped_by_monitor);
  EXPECT_FALSE(early.converged);
  EXPECT_EQ(early.sweeps, 2);
  // Oracle: LAPACK's eigenvalues. The returned diagonal of A₂ = VᵀAV differs from A's eigenvalues by at most
  // ‖A₂ − diag(A₂)‖₂ ≤ off(A₂) (Weyl), plus rounding.
  std::vector<double> copy = a, lapack(n);
  ASSERT_EQ(
      LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'L', static_cast<int>(n), copy.data(), static_cast<int>(n), lapack.data()),
      0);
  double frob = 0.0;
  for (double x : a) frob += x * x;
  const double off = early.off_history.back() * std::sqrt(frob);
  double worst = 0.0;
  for (std::int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(w2[i] - lapack[i]));
  EXPECT_LE(worst, off * (1 + 1e-12) + 1e-12 * std::sqrt(frob));
  EXPECT_GT(worst, 1e-10);  // two sweeps are not enough to converge
}

TEST(Monitor, NewtonSchulzSeesIterationsAndStops) {
  const std::int64_t n = 16;
  std::vector<double> a = symmetric(n, 3);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i * n + i)] += 12.0;  // SPD
  trnsolver::InvSqrtOptions o;
  o.method = trnsolver::InvSqrtMethod::newton_schulz;
  std::vector<double> x0(a.size()), x1(a.size()), x2(a.size());
  const auto plain = trnsolver::inv_sqrt_spd<double>(Layout::row_major, n, a.data(), n, x0.data(), n, o);
  ASSERT_TRUE(plain.converged);
  ASSERT_GE(plain.iterations, 3);
  EXPECT_FALSE(plain.certified);  // inv_sqrt_spd certifies no bound, and says so
  EXPECT_FALSE(plain.uncertified_reason.empty());
  Recorder all;
  o.monitor = all.monitor();
  const auto watched = trnsolver::inv_sqrt_spd<double>(Layout::row_major, n, a.data(), n, x1.data(), n, o);
  EXPECT_EQ(x0, x1);
  EXPECT_EQ(static_cast<std::int64_t>(all.iterations.size()), plain.iterations);
  expect_counting(all.iterations);
  for (std::size_t i = 1; i < all.residuals.size(); ++i) EXPECT_LT(all.residuals[i], all.residuals[i - 1]);
  EXPECT_FALSE(watched.stopped_by_monitor);

  Recorder one;
  one.stop_at = 1;
  o.monitor = one.monitor();
  const auto early = trnsolver::inv_sqrt_spd<double>(Layout::row_major, n, a.data(), n, x2.data(), n, o);
  EXPECT_EQ(one.iterations, (std::vector<std::int64_t>{1}));
  EXPECT_TRUE(early.stopped_by_monitor);
  EXPECT_FALSE(early.converged);
  EXPECT_EQ(early.iterations, 1);
  EXPECT_GT(early.residual, plain.residual);
}

// A = U·diag(σ)·Vᵀ (m×n, column-major) with σ_i = 0.7^i, so power iterations matter.
std::vector<double> decaying(std::int64_t m, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::vector<double> a(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t r = 0; r < std::min(m, n); ++r) {
    std::vector<double> u(m), v(n);
    for (double& x : u) x = g(rng);
    for (double& x : v) x = g(rng);
    const double s = std::pow(0.7, static_cast<double>(r)) / std::sqrt(static_cast<double>(m * n));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i) a[static_cast<std::size_t>(i + j * m)] += s * u[i] * v[j];
  }
  return a;
}

TEST(Monitor, RsvdStopIsRsvdWithFewerPowerIterations) {
  const std::int64_t m = 80, n = 50, k = 5;
  const std::vector<double> a = decaying(m, n, 21);
  const trncore::MatrixView<const double> view(a.data(), m, n, m, Layout::col_major);
  trnsolver::RsvdOptions o;
  o.power_iterations = 3;
  o.sketch.seed = 4;
  const auto plain = trnsolver::rsvd<double>(view, k, o);
  Recorder all;
  o.monitor = all.monitor();
  const auto watched = trnsolver::rsvd<double>(view, k, o);
  EXPECT_EQ(plain.s, watched.s);
  EXPECT_EQ(plain.u.data, watched.u.data);
  EXPECT_EQ(all.iterations, (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(all.routine, "trnsolver::rsvd");
  for (double r : all.residuals) EXPECT_TRUE(r >= 0.0 && r <= 1.0) << r;  // ‖(I − PPᵀ)Q‖_F/√l ∈ [0, 1]
  EXPECT_FALSE(watched.stopped_by_monitor);

  // Stopping after the first power iteration gives exactly rsvd with power_iterations = 1.
  Recorder one;
  one.stop_at = 1;
  o.monitor = one.monitor();
  const auto early = trnsolver::rsvd<double>(view, k, o);
  EXPECT_TRUE(early.stopped_by_monitor);
  trnsolver::RsvdOptions reference;
  reference.power_iterations = 1;
  reference.sketch.seed = 4;
  const auto fewer = trnsolver::rsvd<double>(view, k, reference);
  EXPECT_EQ(early.s, fewer.s);
  EXPECT_EQ(early.u.data, fewer.u.data);
  EXPECT_EQ(early.vt.data, fewer.vt.data);
}

TEST(Monitor, AdaptiveRangeFinderStopsWithItsOwnBound) {
  const std::int64_t m = 80, n = 50;
  const std::vector<double> a = decaying(m, n, 22);
  const trncore::MatrixView<const double> view(a.data(), m, n, m, Layout::col_major);
  trnsolver::AdaptiveRangeOptions o;
  o.block_size = 4;
  const double tolerance = 1e-6;
  const auto plain = trnsolver::rsvd_adaptive<double>(view, tolerance, o);
  Recorder all;
  o.monitor = all.monitor();
  const auto watched = trnsolver::rsvd_adaptive<double>(view, tolerance, o);
  EXPECT_EQ(plain.s, watched.s);
  expect_counting(all.iterations);
  EXPECT_EQ(all.residuals.back(), plain.error_estimate);
  ASSERT_GE(all.iterations.size(), 3u);

  Recorder two;
  two.stop_at = 2;
  o.monitor = two.monitor();
  const auto early = trnsolver::rsvd_adaptive<double>(view, tolerance, o);
  EXPECT_TRUE(early.stopped_by_monitor);
  EXPECT_EQ(early.rank, o.block_size);  // one block appended before the stop
  EXPECT_GT(early.error_estimate, tolerance);
  // The estimate bounds ‖A − U·diag(s)·Vᵀ‖₂ (HMT Lemma 4.1); check it against the residual's Frobenius norm,
  // which is at most √rank(A) times the 2-norm and here well inside the bound.
  std::vector<double> res = a;
  for (std::int64_t r = 0; r < early.rank; ++r)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i)
        res[static_cast<std::size_t>(i + j * m)] -= early.u(i, r) * early.s[r] * early.vt(r, j);
  double fro = 0.0;
  for (double x : res) fro += x * x;
  EXPECT_LE(std::sqrt(fro) / std::sqrt(static_cast<double>(std::min(m, n))), early.error_estimate);
}

TEST(Monitor, LsqrSeesIterationsAndStops) {
  const std::int64_t m = 300, n = 20;
  std::mt19937_64 rng(31);
  std::normal_distribution<double> g;
  std::vector<double> a(static_cast<std::size_t>(m * n)), b(static_cast<std::size_t>(m));
  for (double& x : a) x = g(rng);
  for (std::int64_t j = 0; j < n; ++j)  // graded columns: κ(A) ≈ 10^4, so LSQR takes a few steps
    for (std::int64_t i = 0; i < m; ++i) a[static_cast<std::size_t>(i + j * m)] *= std::pow(10.0, -4.0 * j / (n - 1));
  for (double& x : b) x = g(rng);
  const trncore::MatrixView<const double> view(a.data(), m, n, m, Layout::col_major);
  trnsolver::SketchedLstsqOptions o;
  o.sketch_factor = 1.5;  // a coarse sketch: κ(A·R⁻¹) well above 1, several LSQR steps
  const auto plain = trnsolver::lstsq_sketched<double>(view, b, o);
  ASSERT_TRUE(plain.converged);
  ASSERT_GE(plain.iterations, 3);
  Recorder all;
  o.monitor = all.monitor();
  const auto watched = trnsolver::lstsq_sketched<double>(view, b, o);
  EXPECT_EQ(plain.x, watched.x);
  EXPECT_EQ(static_cast<std::int64_t>(all.iterations.size()), plain.iterations);
  expect_counting(all.iterations);
  EXPECT_EQ(all.routine, "trnsolver::lstsq_sketched");

  Recorder one;
  one.stop_at = 1;
  o.monitor = one.monitor();
  const auto early = trnsolver::lstsq_sketched<double>(view, b, o);
  EXPECT_TRUE(early.stopped_by_monitor);
  EXPECT_FALSE(early.converged);
  EXPECT_EQ(early.iterations, 1);
  // Oracle: LAPACK's least-squares residual, the minimum over all x.
  std::vector<double> qa = a, qb = b;
  ASSERT_EQ(LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', static_cast<int>(m), static_cast<int>(n), 1, qa.data(),
                          static_cast<int>(m), qb.data(), static_cast<int>(m)),
            0);
  double best = 0.0;
  for (std::int64_t i = n; i < m; ++i) best += qb[static_cast<std::size_t>(i)] * qb[static_cast<std::size_t>(i)];
  best = std::sqrt(best);
  EXPECT_NEAR(plain.residual_norm, best, 1e-10 * best);
  EXPECT_GE(early.residual_norm, best * (1 - 1e-12));
}

}  // namespace
