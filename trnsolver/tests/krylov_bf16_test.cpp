// cg_bf16, the VectorEngine model of CG: reproducibility (seed, thread count), the result struct's honesty,
// argument checks, and the round-to-nearest vs stochastic-rounding experiment of docs/trnsolver-krylov.md.
#include <trnsolver/krylov.hpp>
#include <trncore/error.hpp>
#include <trncore/small_float.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace krylov_test {
using Matrix = std::vector<double>;
Matrix poisson2d(std::int64_t m);
std::vector<double> direct_solve(const Matrix& a, const std::vector<double>& b);
double relative_difference(const std::vector<double>& x, const std::vector<double>& y);
double relative_residual(const Matrix& a, const std::vector<double>& b, const std::vector<double>& x);
}  // namespace krylov_test

namespace {

using namespace krylov_test;
using trncore::MatrixView;
using trncore::Rounding;
using trncore::RoundingMode;
using trnsolver::KrylovOptions;
using trnsolver::KrylovReason;
using trnsolver::KrylovResult;

// b_i = (i mod 7) − 3: integers, exact in bf16, with x* of the same size as b (so the bf16 residual floor
// u·‖A‖‖x‖/‖b‖ is a few u rather than u·κ).
std::vector<double> rough_rhs(std::int64_t n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) b[static_cast<std::size_t>(i)] = static_cast<double>(i % 7 - 3);
  return b;
}

KrylovOptions bf16_options(RoundingMode mode, std::uint64_t seed, std::int64_t iterations) {
  KrylovOptions o;
  o.rtol = 0;  // run the whole budget: the experiment looks at the trajectory
  o.max_iterations = iterations;
  o.stagnation_window = 0;
  o.rounding = Rounding(mode);
  o.seed = seed;
  return o;
}

struct Bf16Run {
  std::vector<double> x;
  KrylovResult result;
};

Bf16Run run(const Matrix& a, std::int64_t n, const std::vector<double>& b, const KrylovOptions& o) {
  Bf16Run r{std::vector<double>(static_cast<std::size_t>(n), 0.0), {}};
  r.result = trnsolver::cg_bf16(MatrixView<const double>(a.data(), n, n, n), b, r.x, o);
  return r;
}

bool bitwise_equal(const Bf16Run& p, const Bf16Run& q) {
  return p.x.size() == q.x.size() && std::memcmp(p.x.data(), q.x.data(), p.x.size() * sizeof(double)) == 0 &&
         p.result.residual_history == q.result.residual_history &&
         p.result.true_residual_history == q.result.true_residual_history;
}

TEST(KrylovBf16, StochasticRoundingIsReproducibleForAnySeedAndThreadCount) {
  // n = 256 runs the modelled matvec on two threads; the random bits depend only on (seed, 4k + v, i).
  const std::int64_t m = 16, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = rough_rhs(n);
  for (RoundingMode mode : {RoundingMode::nearest_even, RoundingMode::stochastic}) {
    KrylovOptions o = bf16_options(mode, 42, 60);
    o.threads = 1;
    const Bf16Run one = run(a, n, b, o);
    o.threads = 2;
    const Bf16Run two = run(a, n, b, o);
    EXPECT_TRUE(bitwise_equal(one, two)) << trncore::to_string(mode);
    EXPECT_TRUE(bitwise_equal(one, run(a, n, b, o))) << "repeated run";
  }
  const Bf16Run s1 = run(a, n, b, bf16_options(RoundingMode::stochastic, 1, 60));
  const Bf16Run s2 = run(a, n, b, bf16_options(RoundingMode::stochastic, 2, 60));
  const Bf16Run rn1 = run(a, n, b, bf16_options(RoundingMode::nearest_even, 1, 60));
  const Bf16Run rn2 = run(a, n, b, bf16_options(RoundingMode::nearest_even, 2, 60));
  EXPECT_NE(s1.x, s2.x) << "a different seed must give a different stochastic run";
  EXPECT_TRUE(bitwise_equal(rn1, rn2)) << "round-to-nearest ignores the seed";
  // Every returned value is a bf16 value.
  for (double v : s1.x) EXPECT_EQ(static_cast<double>(trncore::bf16::from_double(v).to_double()), v);
}

TEST(KrylovBf16, ConvergesOnAWellConditionedProblemAndTellsTheTruth) {
  // A = Poisson + 4I (κ < 3, entries exact in bf16): a 1e-2 relative residual is well above the bf16 floor.
  const std::int64_t m = 8, n = m * m;
  Matrix a = poisson2d(m);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i * n + i)] += 4;
  const std::vector<double> b = rough_rhs(n);
  for (RoundingMode mode : {RoundingMode::nearest_even, RoundingMode::stochastic}) {
    KrylovOptions o;
    o.rtol = 1e-2;
    o.rounding = Rounding(mode);
    o.seed = 7;
    Bf16Run r = run(a, n, b, o);
    EXPECT_TRUE(r.result.converged) << r.result.detail;
    EXPECT_EQ(r.result.reason, KrylovReason::converged);
    EXPECT_DOUBLE_EQ(r.result.relative_residual, relative_residual(a, b, r.x));
    EXPECT_LE(r.result.relative_residual, 1e-2);
    EXPECT_EQ(r.result.true_residual_history.size(), r.result.residual_history.size());
    EXPECT_DOUBLE_EQ(r.result.true_residual_history.back(), r.result.relative_residual);
    // κ < 3: the forward error is at most 3× the residual plus the oracle's.
    EXPECT_LE(relative_difference(r.x, direct_solve(a, b)), 3 * r.result.relative_residual + 1e-12);
    // An unattainable tolerance is reported as not converged, never as a loop.
    o.rtol = 1e-6;
    r = run(a, n, b, o);
    EXPECT_FALSE(r.result.converged);
    EXPECT_NE(r.result.reason, KrylovReason::converged) << r.result.detail;
    EXPECT_GT(r.result.relative_residual, 1e-6);
    EXPECT_DOUBLE_EQ(r.result.relative_residual, relative_residual(a, b, r.x));
  }
}

TEST(KrylovBf16, RoundToNearestFreezesTheIterateAndTheRunSaysSo) {
  // Poisson 16², rough b: after ~20 iterations every update αp is below half an ulp of x, so x stops
  // changing while the model's own residual keeps falling (the residual gap).
  const std::int64_t m = 16, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = rough_rhs(n);
  KrylovOptions o = bf16_options(RoundingMode::nearest_even, 0, 500);
  o.stagnation_window = 30;
  const Bf16Run r = run(a, n, b, o);
  EXPECT_FALSE(r.result.converged);
  EXPECT_EQ(r.result.reason, KrylovReason::stagnation) << r.result.detail;
  EXPECT_NE(r.result.detail.find("x has not changed"), std::string::npos) << r.result.detail;
  EXPECT_LT(r.result.iterations, 100);
  const auto& model = r.result.residual_history;
  const auto& truth = r.result.true_residual_history;
  EXPECT_LT(model.back(), 1e-3 * truth.back()) << "the model's residual has left the true one behind";
  EXPECT_EQ(truth.back(), truth[truth.size() - 30]) << "frozen x, frozen true residual";
}

TEST(KrylovBf16, RoundToNearestVersusStochasticRoundingTable) {
  // The experiment of docs/trnsolver-krylov.md ("bf16 CG: round-to-nearest vs stochastic rounding"). It
  // records the numbers and checks what they show in this model: both roundings stall at the residual gap,
  // a few bf16 units (u = 2^-8 relative spacing) above zero, and stochastic rounding does not go lower.
  const std::int64_t m = 16, n = m * m;
  const Matrix a = poisson2d(m);
  const std::vector<double> b = rough_rhs(n);
  const std::vector<double> exact = direct_solve(a, b);
  std::ostringstream table;
  double best_rn = 0, best_sr = 1e300;
  for (int v = 0; v < 4; ++v) {
    const bool sr = v > 0;
    const Bf16Run r = run(
        a, n, b,
        bf16_options(sr ? RoundingMode::stochastic : RoundingMode::nearest_even, static_cast<std::uint64_t>(v), 300));
    const auto& t = r.result.true_residual_history;
    double best = 1e300;
    for (double e : t) best = std::min(best, e);
    table << (sr ? "SR seed " + std::to_string(v) : std::string("RN")) << ": true residual k=10 " << t[10] << " k=20 "
          << t[20] << " k=100 " << t[100] << " k=300 " << t[300] << " min " << best << " forward error "
          << relative_difference(r.x, exact) << "; ";
    EXPECT_LT(best, 0.02);
    EXPECT_GT(best, 1e-3);  // above the bf16 floor's order: the gap, not convergence, ends the descent
    if (sr)
      best_sr = std::min(best_sr, best);
    else
      best_rn = best;
  }
  RecordProperty("bf16_cg_poisson16_rn_vs_sr", table.str());
  EXPECT_GT(best_sr, 0.5 * best_rn) << table.str();
}

TEST(KrylovBf16, BadArguments) {
  const std::int64_t n = 4;
  const Matrix a = poisson2d(2);
  std::vector<double> b(4, 1.0), x(4, 0.0);
  auto expect_invalid = [&](const KrylovOptions& o, std::string_view fragment) {
    trnsci_testing::expect_error<trncore::InvalidArgument>(
        [&] { trnsolver::cg_bf16(MatrixView<const double>(a.data(), n, n, n), b, x, o); }, "trnsolver::cg_bf16",
        {fragment});
  };
  KrylovOptions o;
  o.rounding = Rounding(RoundingMode::toward_zero);
  expect_invalid(o, "toward_zero");
  o.rounding = Rounding(RoundingMode::stochastic, trncore::Overflow::standard, 0);
  expect_invalid(o, "sr_bits");
  o = KrylovOptions{};
  o.rtol = -1;
  expect_invalid(o, "rtol = -1");
  Matrix bad = a;
  bad[5] = std::nan("");
  std::vector<float> bf(4, 1.0f), xf(4, 0.0f), af(bad.begin(), bad.end());
  EXPECT_THROW(trnsolver::cg_bf16(MatrixView<const float>(af.data(), n, n, n), bf, xf), trncore::InvalidArgument);
  std::vector<double> x3(3, 0.0);
  EXPECT_THROW(trnsolver::cg_bf16(MatrixView<const double>(a.data(), n, n, n), b, x3), trncore::DimensionMismatch);
}

}  // namespace
