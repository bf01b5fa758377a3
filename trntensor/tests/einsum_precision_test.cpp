// Precision modes and targets on the sim backend (trnblas's sim GEMM per step), against the long-double
// oracle: every measured error must be within the bound the call reports (componentwise relative to the
// einsum of |operands|), the bounds must be the size each mode promises, and sim results must be bitwise
// identical for 1 and 2 threads.
#include "expr_corpus.hpp"

#include <trntensor/einsum.hpp>

#include <gtest/gtest.h>

namespace trntensor::test {
namespace {

using trncore::Backend;
using trncore::MathMode;
using trncore::Options;

struct Problem {
  Expr e;
  std::vector<std::vector<double>> values;
  std::vector<TensorView<const double>> views;
};

Problem make(const std::string& text, const std::vector<Shape>& shapes, std::uint64_t seed) {
  Problem p;
  p.e = plain_expr(text, shapes, text);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const auto& s : shapes) {
    std::int64_t n = 1;
    for (auto x : s) n *= x;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = u(rng);
    p.values.push_back(std::move(v));
  }
  for (std::size_t o = 0; o < shapes.size(); ++o) p.views.emplace_back(p.values[o].data(), shapes[o]);
  return p;
}

// The largest err/magnitude ratio; the test asserts it is within the reported bound element by element.
double check_within_bound(const Problem& p, const Tensor<double>& y, double bound) {
  const auto exact = naive_einsum(p.e, p.values);
  const auto mag = naive_einsum(p.e, p.values, true);
  double worst = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(y.values()[i]) - exact[i]);
    EXPECT_LE(err, bound * mag[i]) << "element " << i;
    worst = std::max(worst, static_cast<double>(err / mag[i]));
  }
  return worst;
}

TEST(EinsumPrecision, SimModesStayWithinTheirBounds) {
  // Shapes straddle the TensorEngine tile edges (128 partitions, 512 free): m = 129, k = 127, n = 5.
  const Problem p = make("ij,jk,kl->il", {{129, 127}, {127, 33}, {33, 5}}, 1);
  struct Case {
    MathMode mode;
    double max_bound;  // each mode's own bound for K ≤ 127, composed over two steps (docs/trnblas-sim.md)
  };
  for (const Case c : {Case{MathMode::bf16, 5e-2}, Case{MathMode::fp32, 5e-2}, Case{MathMode::compensated, 1e-4},
                       Case{MathMode::ozaki, 1e-13}}) {
    SCOPED_TRACE(std::string(trncore::to_string(c.mode)));
    trncore::AccuracyReport r;
    const Tensor<double> y =
        einsum<double>(p.e.text, p.views, Options{}.with_backend(Backend::sim).with_math_mode(c.mode), r);
    EXPECT_TRUE(r.met) << r.to_string();
    EXPECT_LE(r.a_priori_bound, c.max_bound) << r.to_string();
    const double worst = check_within_bound(p, y, r.a_priori_bound);
    RecordProperty(std::string(trncore::to_string(c.mode)) + "_worst_relative_error", std::to_string(worst));
  }
}

TEST(EinsumPrecision, TargetPicksModesThatMeetIt) {
  const Problem p = make("bij,bjk,kl->bil", {{3, 17, 40}, {3, 40, 9}, {9, 4}}, 2);
  for (const double target : {1e-2, 1e-6, 1e-12}) {
    SCOPED_TRACE("target " + std::to_string(target));
    trncore::AccuracyReport r;
    const Tensor<double> y =
        einsum<double>(p.e.text, p.views, Options{}.with_backend(Backend::sim).with_target(target), r);
    EXPECT_TRUE(r.met) << r.to_string();
    EXPECT_LE(r.a_priori_bound, target) << r.to_string();
    check_within_bound(p, y, r.a_priori_bound);
  }
  // The host's fp64 GEMM cannot certify 1e-18: the report says so, the plain overload throws.
  trncore::AccuracyReport r;
  einsum<double>(p.e.text, p.views, Options{}.with_target(1e-18), r);
  EXPECT_FALSE(r.met);
  EXPECT_THROW(einsum<double>(p.e.text, p.views, Options{}.with_target(1e-18)), trncore::TargetNotMet);
  // And 1e-12 it can: K = 40, bound ≈ γ_42 + γ_11 ≈ 6e-15 per step.
  einsum<double>(p.e.text, p.views, Options{}.with_target(1e-12), r);
  EXPECT_TRUE(r.met) << r.to_string();
}

TEST(EinsumPrecision, PerStepModesFromThePlan) {
  const Problem p = make("ij,jk,kl->il", {{20, 30}, {30, 40}, {40, 10}}, 3);
  const std::vector<Shape> shapes{{20, 30}, {30, 40}, {40, 10}};
  const Options sim = Options{}.with_backend(Backend::sim).with_math_mode(MathMode::ozaki);
  ContractionPlan plan(p.e.text, shapes, sim);
  std::size_t first = 0;
  while (plan.steps()[first].kind != StepKind::contract) ++first;
  plan.set_mode(first, MathMode::bf16);
  Tensor<double> y({20, 10});
  trncore::AccuracyReport r;
  plan.execute<double>(p.views, 1.0, 0.0, y.view(), sim, r);
  // One bf16 step dominates: the bound is bf16's (≈ 2^-7 relative), far above ozaki's, and it holds.
  EXPECT_GT(r.a_priori_bound, 1e-4) << r.to_string();
  EXPECT_LT(r.a_priori_bound, 5e-2) << r.to_string();
  check_within_bound(p, y, r.a_priori_bound);
  EXPECT_NE(r.to_string().find("bf16"), std::string::npos) << r.to_string();
}

TEST(EinsumPrecision, AlphaBetaOnTheOutput) {
  const Problem p = make("ij,jk->ki", {{13, 7}, {7, 11}}, 4);
  Tensor<double> y({11, 13});
  for (std::int64_t i = 0; i < y.size(); ++i)
    y.values()[static_cast<std::size_t>(i)] = 0.25 * static_cast<double>(i % 5);
  const Tensor<double> y0 = y;
  einsum<double>(p.e.text, p.views, 2.0, -0.5, y.view());
  const auto exact = naive_einsum(p.e, p.values);
  const auto mag = naive_einsum(p.e, p.values, true);
  // Host bound γ_{K+2}·(|α||A||B| + |β||Y₀|) with K = 7, plus the separate α/β stage (3 roundings).
  const double eps = 12 * std::numeric_limits<double>::epsilon() / 2;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const long double want = 2.0L * exact[i] - 0.5L * y0.values()[i];
    EXPECT_LE(std::fabs(y.values()[i] - want), eps * (2 * mag[i] + 0.5 * std::fabs(y0.values()[i]))) << i;
  }
}

TEST(EinsumPrecision, SimIsBitwiseIdenticalForOneAndTwoThreads) {
  const Problem p = make("bij,bkj->bik", {{2, 129, 64}, {2, 130, 64}}, 5);
  for (const MathMode mode : {MathMode::bf16, MathMode::compensated, MathMode::ozaki}) {
    const Options o = Options{}.with_backend(Backend::sim).with_math_mode(mode);
    const Tensor<double> one = einsum<double>(p.e.text, p.views, Options(o).with_threads(1));
    const Tensor<double> two = einsum<double>(p.e.text, p.views, Options(o).with_threads(2));
    EXPECT_EQ(one.values(), two.values()) << trncore::to_string(mode);
  }
  std::vector<float> a(64 * 129), b(64 * 130);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(p.values[0][i]);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(p.values[1][i]);
  const TensorView<const float> f[] = {TensorView<const float>(a.data(), {129, 64}),
                                       TensorView<const float>(b.data(), {130, 64})};
  const Options o = Options{}.with_backend(Backend::sim).with_math_mode(MathMode::sr).with_seed(9);
  EXPECT_EQ(einsum<float>("ij,kj->ik", f, Options(o).with_threads(1)).values(),
            einsum<float>("ij,kj->ik", f, Options(o).with_threads(2)).values());
}

}  // namespace
}  // namespace trntensor::test
