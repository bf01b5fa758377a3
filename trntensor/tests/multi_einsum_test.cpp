// multi_einsum: mixed batches (homogeneous groups stacked into one batched einsum, singletons alone) against
// the long-double oracle within each task's own einsum bound, results in task order.
#include "expr_corpus.hpp"

#include <trntensor/einsum.hpp>

#include <gtest/gtest.h>

namespace trntensor::test {
namespace {

TEST(MultiEinsum, GroupsAndSingletonsMatchTheOracle) {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(-1, 1);
  struct Spec {
    std::string text, plain;
    std::vector<Shape> shapes;
  };
  const std::vector<Spec> specs{
      {"ij,jk->ik", "ij,jk->ik", {{5, 7}, {7, 3}}},
      {"ij,jk", "ij,jk->ik", {{5, 7}, {7, 3}}},  // same math, other text
      {"ij,jk->ik", "ij,jk->ik", {{5, 7}, {7, 3}}},
      {"...ii->...i", "Aii->Ai", {{2, 3, 3}}},
      {"ij,jk->ik", "ij,jk->ik", {{5, 7}, {7, 3}}},
      {"abc,cd,de->abe", "abc,cd,de->abe", {{2, 3, 4}, {4, 5}, {5, 2}}},
      {"abc,cd,de->abe", "abc,cd,de->abe", {{2, 3, 4}, {4, 5}, {5, 2}}},
      {"...ii->...i", "Aii->Ai", {{2, 3, 3}}},
  };
  std::vector<std::vector<std::vector<double>>> values;
  for (const auto& s : specs) {
    std::vector<std::vector<double>> v;
    for (const auto& sh : s.shapes) {
      std::int64_t n = 1;
      for (auto x : sh) n *= x;
      std::vector<double> x(static_cast<std::size_t>(n));
      for (auto& y : x) y = u(rng);
      v.push_back(std::move(x));
    }
    values.push_back(std::move(v));
  }
  std::vector<EinsumTask<double>> tasks;
  for (std::size_t t = 0; t < specs.size(); ++t) {
    EinsumTask<double> task{specs[t].text, {}};
    for (std::size_t o = 0; o < specs[t].shapes.size(); ++o)
      task.operands.emplace_back(values[t][o].data(), specs[t].shapes[o]);
    tasks.push_back(std::move(task));
  }
  const auto results = multi_einsum<double>(tasks);
  ASSERT_EQ(results.size(), specs.size());
  for (std::size_t t = 0; t < specs.size(); ++t) {
    const Expr e = plain_expr(specs[t].plain, specs[t].shapes, specs[t].text);
    const auto exact = naive_einsum(e, values[t]), mag = naive_einsum(e, values[t], true);
    // Each task's host bound: at most two GEMM steps with K ≤ 7 plus summations: < 20u.
    const double bound = 20 * std::numeric_limits<double>::epsilon() / 2;
    ASSERT_EQ(static_cast<std::size_t>(results[t].size()), exact.size()) << t;
    for (std::size_t i = 0; i < exact.size(); ++i)
      EXPECT_LE(std::fabs(results[t].values()[i] - exact[i]), bound * mag[i]) << "task " << t << " element " << i;
  }
  EXPECT_TRUE(multi_einsum<double>(std::span<const EinsumTask<double>>{}).empty());
  tasks[1].subscripts = "ij,jk->iq";
  EXPECT_THROW(multi_einsum<double>(tasks), trncore::ParseError);
}

}  // namespace
}  // namespace trntensor::test
