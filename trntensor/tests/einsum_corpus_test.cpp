// einsum against the long-double nested-loop oracle (naive_einsum.hpp) over numpy's documented cases and a
// generated corpus of 300 expressions. Each result must satisfy the bound the call reports,
// |ŷ − y| ≤ ε·einsum(|operands|) (componentwise; y in long double, whose own error is ≤ 2^-64 relative to the
// same magnitude and is absorbed by the slack term below), and the bound itself must be small (≤ 1e-12 in
// double, ≤ 2e-5 in float, since every corpus sum has at most 200000 terms), so a wrong answer cannot pass.
#include "expr_corpus.hpp"

#include <trntensor/einsum.hpp>

#include <gtest/gtest.h>

namespace trntensor::test {
namespace {

template <class T>
std::vector<std::vector<T>> random_values(const Expr& e, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::vector<T>> v;
  for (const auto& s : e.shapes) {
    std::int64_t n = 1;
    for (auto x : s) n *= x;
    std::vector<T> x(static_cast<std::size_t>(n));
    for (auto& y : x) y = static_cast<T>(u(rng));
    v.push_back(std::move(x));
  }
  return v;
}

template <class T>
void check_against_oracle(const Expr& e, std::mt19937_64& rng, const trncore::Options& options, double max_bound) {
  SCOPED_TRACE("expression \"" + e.text + "\"");
  const auto values = random_values<T>(e, rng);
  std::vector<TensorView<const T>> views;
  for (std::size_t o = 0; o < values.size(); ++o) views.emplace_back(values[o].data(), e.shapes[o]);
  trncore::AccuracyReport report;
  const Tensor<T> y = einsum<T>(e.text, views, options, report);
  const auto exact = naive_einsum(e, values);
  const auto magnitude = naive_einsum(e, values, true);
  Shape expect_shape;
  for (int l : e.output) expect_shape.push_back(e.extents[static_cast<std::size_t>(l)]);
  ASSERT_EQ(y.shape(), expect_shape);
  ASSERT_EQ(static_cast<std::size_t>(y.size()), exact.size());
  EXPECT_LE(report.a_priori_bound, max_bound);
  EXPECT_TRUE(report.met);
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(y.values()[i]) - exact[i]);
    ASSERT_LE(err, report.a_priori_bound * magnitude[i] + 1e-300L) << "element " << i << " of " << exact.size();
  }
}

TEST(EinsumCorpus, DocumentedNumpyCasesMatchTheOracle) {
  std::mt19937_64 rng(11);
  for (const auto& c : documented_cases()) {
    const Expr e = plain_expr(c.plain, c.shapes, c.text);
    check_against_oracle<double>(e, rng, {}, 1e-12);
    check_against_oracle<float>(e, rng, {}, 2e-4);
  }
}

TEST(EinsumCorpus, GeneratedExpressionsMatchTheOracle) {
  std::mt19937_64 rng(2026);
  int with_ellipsis = 0, implicit = 0, many = 0;
  for (int t = 0; t < 300; ++t) {
    const Expr e = random_expr(rng);
    with_ellipsis += e.text.find("...") != std::string::npos;
    implicit += e.text.find("->") == std::string::npos;
    many += e.inputs.size() >= 4;
    check_against_oracle<double>(e, rng, {}, 1e-12);
    if (t % 3 == 0) check_against_oracle<float>(e, rng, {}, 2e-3);
  }
  EXPECT_GE(with_ellipsis, 20);
  EXPECT_GE(implicit, 40);
  EXPECT_GE(many, 20);
}

TEST(EinsumCorpus, GeneratedExpressionsOnTheSimBackend) {
  // 75 generated expressions on sim, in bf16 (bound ≈ 2^-7 per GEMM step) and ozaki (fp64 level): each element
  // must lie within the composed bound the call reports (≤ 0.5 for bf16 with at most 4 GEMM steps).
  std::mt19937_64 rng(2027), values(5);
  const trncore::Options bf16 =
      trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::bf16);
  const trncore::Options ozaki =
      trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::ozaki);
  for (int t = 0; t < 300; ++t) {
    const Expr e = random_expr(rng);
    if (t % 4 != 0) continue;
    check_against_oracle<double>(e, values, bf16, 0.5);
    check_against_oracle<double>(e, values, ozaki, 1e-12);
  }
}

}  // namespace
}  // namespace trntensor::test
