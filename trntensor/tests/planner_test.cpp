// The planner: the optimal search against brute force over every pairwise order, greedy never worse than
// left-to-right on the corpus, FLOP counts against hand counts, the memory limit, and plan reuse.
#include "expr_corpus.hpp"
#include "path_search.hpp"

#include <trntensor/einsum.hpp>
#include <trntensor/plan.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace trntensor::test {
namespace {

using detail::LabelSet;
using detail::PathProblem;

// Every complete sequence of pairs (all orders of all pairs), cost by detail::path_cost.
void brute_force(const PathProblem& p, std::vector<int>& live, int next, std::vector<std::pair<int, int>>& pairs,
                 double& best) {
  if (live.size() <= 1) {
    best = std::min(best, detail::path_cost(p, pairs));
    return;
  }
  for (std::size_t i = 0; i < live.size(); ++i)
    for (std::size_t j = i + 1; j < live.size(); ++j) {
      std::vector<int> rest;
      for (std::size_t t = 0; t < live.size(); ++t)
        if (t != i && t != j) rest.push_back(live[t]);
      rest.push_back(next);
      pairs.emplace_back(live[i], live[j]);
      brute_force(p, rest, next + 1, pairs, best);
      pairs.pop_back();
    }
}

PathProblem random_problem(std::mt19937_64& rng, int n) {
  PathProblem p;
  const int labels = 3 + static_cast<int>(rng() % 6);
  for (int l = 0; l < labels; ++l) p.extents.push_back(1 + static_cast<std::int64_t>(rng() % 9));
  std::vector<int> holders(static_cast<std::size_t>(labels), 0);
  for (int o = 0; o < n; ++o) {
    LabelSet s;
    for (int l = 0; l < labels; ++l)
      if (rng() % 3 == 0) s.set(static_cast<std::size_t>(l));
    p.operands.push_back(s);
  }
  for (int l = 0; l < labels; ++l)
    if (rng() % 4 == 0) p.output.set(static_cast<std::size_t>(l));
  // Every label of an operand must occur in another operand or the output (the planner's precondition).
  for (int l = 0; l < labels; ++l) {
    int c = 0;
    for (const auto& s : p.operands) c += s[static_cast<std::size_t>(l)];
    if (c == 1) p.output.set(static_cast<std::size_t>(l));
  }
  return p;
}

TEST(Planner, OptimalEqualsBruteForce) {
  std::mt19937_64 rng(7);
  for (int t = 0; t < 60; ++t) {
    const int n = 2 + t % 4;  // 2..5 operands: brute force visits up to 2700 orders
    PathProblem p = random_problem(rng, n);
    if (t % 5 == 0) p.memory_limit = 20;
    const auto opt = detail::optimal_path(p);
    std::vector<int> live(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) live[static_cast<std::size_t>(i)] = i;
    std::vector<std::pair<int, int>> pairs;
    double best = std::numeric_limits<double>::infinity();
    brute_force(p, live, n, pairs, best);
    if (best == std::numeric_limits<double>::infinity()) {
      EXPECT_FALSE(opt.has_value()) << "t=" << t;
      continue;
    }
    ASSERT_TRUE(opt.has_value()) << "t=" << t;
    EXPECT_EQ(opt->flops, best) << "t=" << t;
    EXPECT_EQ(detail::path_cost(p, opt->pairs), opt->flops) << "t=" << t;
  }
}

TEST(Planner, GreedyNeverWorseThanLeftToRightOnTheCorpus) {
  std::mt19937_64 rng(2026);
  int multi = 0;
  for (int t = 0; t < 300; ++t) {
    const Expr e = random_expr(rng);
    const ContractionPlan greedy(e.text, e.shapes, PlanOptions{}.with_algorithm(PathAlgorithm::greedy));
    const ContractionPlan ltr(e.text, e.shapes, PlanOptions{}.with_algorithm(PathAlgorithm::left_to_right));
    const ContractionPlan opt(e.text, e.shapes, PlanOptions{}.with_algorithm(PathAlgorithm::optimal));
    EXPECT_LE(greedy.total_flops(), ltr.total_flops()) << e.text;
    EXPECT_LE(opt.total_flops(), greedy.total_flops()) << e.text;
    multi += e.inputs.size() >= 3;
  }
  EXPECT_GE(multi, 50);
}

TEST(Planner, FlopsEqualHandCounts) {
  // ij,jk,kl->il with i=2, j=3, k=4, l=5: (AB) costs 2·2·3·4 = 48 and gives ik, then (AB)C costs
  // 2·2·4·5 = 80: 128. The other order: (BC) 2·3·4·5 = 120, then A(BC) 2·2·3·5 = 60: 180.
  const std::vector<Shape> shapes{{2, 3}, {3, 4}, {4, 5}};
  const ContractionPlan opt("ij,jk,kl->il", shapes);
  EXPECT_EQ(opt.total_flops(), 128);
  EXPECT_EQ(opt.path(), (std::vector<std::pair<int, int>>{{0, 1}, {3, 2}}));
  EXPECT_EQ(opt.largest_intermediate(), 8);
  // Skewed: i=100, j=2, k=100, l=2: (AB) 2·100·2·100 = 40000 (100x100 intermediate) + (AB)C 2·100·100·2
  // = 40000; (BC) 2·2·100·2 = 800 + A(BC) 2·100·2·2 = 800: the optimum is 1600 and keeps 2x2.
  const std::vector<Shape> skew{{100, 2}, {2, 100}, {100, 2}};
  const ContractionPlan s("ij,jk,kl->il", skew);
  EXPECT_EQ(s.total_flops(), 1600);
  EXPECT_EQ(s.largest_intermediate(), 4);
  const ContractionPlan l("ij,jk,kl->il", skew, PlanOptions{}.with_algorithm(PathAlgorithm::left_to_right));
  EXPECT_EQ(l.total_flops(), 80000);
  // Trace: ii-> sums 4 of 16 stored elements... the finish step of a diagonal view adds 4 terms into 1: 3.
  const std::vector<Shape> sq{{4, 4}};
  EXPECT_EQ(ContractionPlan("ii->", sq).total_flops(), 3);
  // Hadamard with a sum: i,i-> is 7 products and 6 additions, counted as a multiply-add each: 2·7 = 14.
  const std::vector<Shape> v{{7}, {7}};
  EXPECT_EQ(ContractionPlan("i,i->", v).total_flops(), 14);
  // Outer product: 3·4 products, nothing summed.
  const std::vector<Shape> o{{3}, {4}};
  EXPECT_EQ(ContractionPlan("i,j->ij", o).total_flops(), 12);
  // A reduce step first: ij,k->k sums i and j of the first operand (6 − 1 = 5 additions... to a scalar),
  // then scales k (4 products).
  const std::vector<Shape> r{{2, 3}, {4}};
  const ContractionPlan rp("ij,k->k", r);
  EXPECT_EQ(rp.steps().front().kind, StepKind::reduce);
  EXPECT_EQ(rp.total_flops(), 5 + 4);
}

TEST(Planner, MemoryLimitIsKeptOrRefused) {
  const std::vector<Shape> skew{{100, 2}, {2, 100}, {100, 2}};
  // Left-to-right would build a 100x100 intermediate; the optimum keeps 2x2 and passes any limit >= 4.
  const ContractionPlan p("ij,jk,kl->il", skew,
                          PlanOptions{}.with_algorithm(PathAlgorithm::greedy).with_memory_limit(4));
  EXPECT_LE(p.largest_intermediate(), 4);
  EXPECT_THROW(
      ContractionPlan("ij,jk,kl->il", skew, PlanOptions{}.with_algorithm(PathAlgorithm::optimal).with_memory_limit(3)),
      trncore::ResourceExhausted);
  EXPECT_THROW(ContractionPlan("ij,jk,kl->il", skew,
                               PlanOptions{}.with_algorithm(PathAlgorithm::left_to_right).with_memory_limit(5)),
               trncore::ResourceExhausted);
  EXPECT_THROW(ContractionPlan("ij,jk->ik", std::vector<Shape>{{2, 2}, {2, 2}}, PlanOptions{}.with_memory_limit(-1)),
               trncore::InvalidArgument);
  EXPECT_THROW(ContractionPlan("ij,jk->ik", std::vector<Shape>{{2, 2}, {2, 2}}, PlanOptions{}.with_optimal_limit(0)),
               trncore::InvalidArgument);
}

TEST(Planner, PlanIsReusableAndPrintable) {
  const std::vector<Shape> shapes{{3, 4}, {4, 5}, {5, 2}};
  ContractionPlan plan("ij,jk,kl->il", shapes);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int run = 0; run < 3; ++run) {
    Tensor<double> a({3, 4}), b({4, 5}), c({5, 2}), y({3, 2});
    for (auto* t : {&a, &b, &c})
      for (auto& x : t->values()) x = u(rng);
    const TensorView<const double> ops[] = {a.view(), b.view(), c.view()};
    plan.execute<double>(ops, 1.0, 0.0, y.view());
    const Tensor<double> ref = einsum("ij,jk,kl->il", a, b, c);
    EXPECT_EQ(y.values(), ref.values());  // same plan, same kernels: bit-identical
  }
  const std::string text = plan.to_string();
  EXPECT_NE(text.find("ij,jk,kl->il"), std::string::npos) << text;
  EXPECT_NE(text.find("gemm"), std::string::npos) << text;
  // (BC) 2·4·5·2 = 80, then A(BC) 2·3·4·2 = 48 (the other order: 120 + 60).
  EXPECT_NE(text.find("total flops=128"), std::string::npos) << text;
  EXPECT_NE(text.find("gemm host"), std::string::npos) << text;
  const ContractionPlan sim("ij,jk,kl->il", shapes, trncore::Options{}.with_backend(trncore::Backend::sim));
  for (const auto& s : sim.steps())
    EXPECT_EQ(s.backend, s.kind == StepKind::contract ? trncore::Backend::sim : trncore::Backend::host);
  EXPECT_NE(sim.to_string().find("gemm sim"), std::string::npos) << sim.to_string();
  plan.set_mode(0, trncore::MathMode::fp64);
  EXPECT_EQ(plan.steps()[0].mode, trncore::MathMode::fp64);
  EXPECT_THROW(plan.set_mode(plan.steps().size() - 1, trncore::MathMode::fp64), trncore::InvalidArgument);
}

// One options object: PlanOptions carries both halves; a chain from PlanOptions{} keeps the planner fields
// (the inherited setters return PlanOptions&); a plain trncore::Options converts with the planner defaults.
TEST(Planner, OneOptionsObjectKeepsBothHalves) {
  const auto o = PlanOptions{}
                     .with_algorithm(PathAlgorithm::left_to_right)
                     .with_threads(2)
                     .with_target(1e-10)
                     .with_backend(trncore::Backend::sim);
  EXPECT_EQ(o.algorithm, PathAlgorithm::left_to_right);
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.backend, trncore::Backend::sim);
  const std::vector<Shape> skew{{100, 2}, {2, 100}, {100, 2}};
  const ContractionPlan p("ij,jk,kl->il", skew, o);
  EXPECT_EQ(p.algorithm(), PathAlgorithm::left_to_right);
  EXPECT_EQ(p.backend(), trncore::Backend::sim);
  const PlanOptions converted = trncore::Options{}.with_threads(3);
  EXPECT_EQ(converted.threads, 3);
  EXPECT_EQ(converted.algorithm, PathAlgorithm::automatic);
}

}  // namespace
}  // namespace trntensor::test
