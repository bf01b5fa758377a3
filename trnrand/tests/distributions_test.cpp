// Distributions against their exact CDFs / pmfs: Kolmogorov–Smirnov for continuous laws, chi-square
// for discrete ones, exact moments, parameter edge cases and invalid parameters.
//
// Decision rules (KS at the 1e-6 DKW critical value with n = 200000 against the law of the rounded
// value, chi-square at the 1e-6 quantile, fixed seeds): see distribution_stats.hpp.
#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>

#include "distribution_stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>
#include <vector>

namespace {

using trnrand::Stream;
using namespace trnrand_test;

TEST(Distributions, NormalFloatAndDoubleFollowTheNormalLaw) {
  std::vector<float> f(kN);
  std::vector<double> d(kN);
  const Stream after = trnrand::normal(trnrand::make_stream(1), std::span<float>(f), 2.0f, 3.0f);
  EXPECT_EQ(after.offset, 2 * kN);  // one word per uniform, two uniforms per output
  trnrand::normal(trnrand::make_stream(2), std::span<double>(d), -1.0, 0.5);
  EXPECT_LT(ks(f, [](double x) { return normal_cdf((x - 2) / 3); }), kKsCritical);
  EXPECT_LT(ks(d, [](double x) { return normal_cdf((x + 1) / 0.5); }), kKsCritical);
  // Any count: a fill of 3 is the first 3 values of a fill of 4, and advances by 3 values' words.
  std::vector<double> odd(3), even(4);
  EXPECT_EQ(trnrand::normal(trnrand::make_stream(5), std::span<double>(odd)).offset, 12u);
  trnrand::normal(trnrand::make_stream(5), std::span<double>(even));
  EXPECT_TRUE(std::equal(odd.begin(), odd.end(), even.begin()));
  std::vector<double> zero_sd(5);
  trnrand::normal(trnrand::make_stream(5), std::span<double>(zero_sd), 7.0, 0.0);
  for (double x : zero_sd) EXPECT_EQ(x, 7.0);
}

TEST(Distributions, LognormalAndExponential) {
  std::vector<double> ln(kN), ex(kN);
  std::vector<float> exf(kN);
  trnrand::lognormal(trnrand::make_stream(3), std::span<double>(ln), 0.5, 0.25);
  for (double& x : ln) x = std::log(x);
  EXPECT_LT(ks(ln, [](double x) { return normal_cdf((x - 0.5) / 0.25); }), kKsCritical);
  trnrand::exponential(trnrand::make_stream(4), std::span<double>(ex), 2.0);
  EXPECT_LT(ks(ex, [](double x) { return x <= 0 ? 0.0 : -std::expm1(-2.0 * x); }), kKsCritical);
  trnrand::exponential(trnrand::make_stream(4), std::span<float>(exf), 0.5f);
  EXPECT_LT(ks(exf, [](double x) { return x <= 0 ? 0.0 : -std::expm1(-0.5 * x); }), kKsCritical);
  for (float x : exf) ASSERT_TRUE(std::isfinite(x) && x >= 0);
}

// Gamma: integer shape 3 has CDF 1 − e^{-x}(1 + x + x²/2); shape 1/2 is χ²₁/2 with CDF erf(√x).
TEST(Distributions, GammaMatchesClosedFormCdfsAndMoments) {
  std::vector<double> g3(kN), gh(kN);
  trnrand::gamma(trnrand::make_stream(6), std::span<double>(g3), 3.0, 1.0);
  EXPECT_LT(ks(g3, [](double x) { return x <= 0 ? 0.0 : 1 - std::exp(-x) * (1 + x + x * x / 2); }), kKsCritical);
  trnrand::gamma(trnrand::make_stream(7), std::span<double>(gh), 0.5, 1.0);
  EXPECT_LT(ks(gh, [](double x) { return x <= 0 ? 0.0 : std::erf(std::sqrt(x)); }), kKsCritical);
  // Tiny and huge shapes: mean k·θ within 6 standard errors (σ = √k·θ per sample).
  for (double shape : {0.01, 1e4}) {
    std::vector<double> g(20000);
    trnrand::gamma(trnrand::make_stream(8), std::span<double>(g), shape, 2.0);
    const double mean = std::accumulate(g.begin(), g.end(), 0.0) / static_cast<double>(g.size());
    EXPECT_NEAR(mean, 2.0 * shape, 6 * 2.0 * std::sqrt(shape) / std::sqrt(20000.0)) << shape;
    for (double x : g) ASSERT_TRUE(std::isfinite(x) && x >= 0) << shape;
  }
}

TEST(Distributions, PoissonMatchesItsPmfForSmallAndLargeLambda) {
  for (double lambda : {0.5, 4.0, 9.99, 10.0, 30.0, 1000.0}) {
    std::vector<std::int64_t> x(kN);
    trnrand::poisson(trnrand::make_stream(9, static_cast<std::uint64_t>(lambda * 100)), x, lambda);
    const auto hi = static_cast<std::size_t>(lambda + 12 * std::sqrt(lambda) + 20);
    std::vector<double> observed(hi + 1, 0), expected(hi + 1, 0);
    for (std::int64_t k : x) observed[std::min(static_cast<std::size_t>(k), hi)] += 1;
    for (std::size_t k = 0; k <= hi; ++k)
      expected[k] =
          kN * std::exp(-lambda + static_cast<double>(k) * std::log(lambda) - std::lgamma(static_cast<double>(k) + 1));
    int dof = 0;
    const double chi2 = chi_square(observed, expected, &dof);
    EXPECT_LT(chi2, chi2_critical(std::max(dof, 5))) << "lambda " << lambda << " dof " << dof;
  }
  std::vector<std::int64_t> zeros(10, 7);
  trnrand::poisson(trnrand::make_stream(1), zeros, 0.0);
  for (auto k : zeros) EXPECT_EQ(k, 0);
}

TEST(Distributions, RandintIsUniformWithoutModuloBias) {
  std::vector<std::int64_t> x(700000);
  trnrand::randint(trnrand::make_stream(10), x, -3, 3);
  std::vector<double> observed(7, 0), expected(7, 100000);
  for (auto v : x) {
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    observed[static_cast<std::size_t>(v + 3)] += 1;
  }
  int dof = 0;
  // χ²(6): the survival function is e^{-x/2}(1 + x/2 + x²/8) exactly; it equals 1e-6 at x ≈ 38.3.
  EXPECT_LT(chi_square(observed, expected, &dof), 38.3);
  // A range that is not a power of two and close to 2^64: a modulo-reduction would favour the low third.
  std::vector<std::int64_t> big(30000);
  const std::int64_t low = INT64_MIN / 4 * 3, high = INT64_MAX / 4 * 3;
  trnrand::randint(trnrand::make_stream(11), big, low, high);
  const double third = (static_cast<double>(high) - static_cast<double>(low)) / 3;
  int in_low_third = 0;
  for (auto v : big) in_low_third += static_cast<double>(v) - static_cast<double>(low) < third;
  EXPECT_NEAR(in_low_third, 10000, 6 * std::sqrt(30000 * (1.0 / 3) * (2.0 / 3)));
  std::vector<std::int64_t> one(5), full(5);
  trnrand::randint(trnrand::make_stream(12), one, 42, 42);
  for (auto v : one) EXPECT_EQ(v, 42);
  trnrand::randint(trnrand::make_stream(12), full, INT64_MIN, INT64_MAX);  // the whole 2^64 range
}

TEST(Distributions, RandpermIsAUniformPermutation) {
  for (std::size_t n : {0u, 1u, 2u, 1000u}) {
    std::vector<std::int64_t> p(n);
    trnrand::randperm(trnrand::make_stream(13), p);
    std::vector<std::int64_t> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], static_cast<std::int64_t>(i));
  }
  // All 6 permutations of 3 equally likely: 60000 draws from distinct subsequences, χ²(5).
  std::vector<double> observed(6, 0), expected(6, 10000);
  for (std::uint64_t t = 0; t < 60000; ++t) {
    std::vector<std::int64_t> p(3);
    trnrand::randperm(trnrand::make_stream(14, t), p);
    observed[static_cast<std::size_t>(p[0] * 2 + (p[1] > p[2] ? 1 : 0))] += 1;
  }
  int dof = 0;
  EXPECT_LT(chi_square(observed, expected, &dof), chi2_critical(5));
}

TEST(Distributions, BernoulliEdgesAndRate) {
  std::vector<std::uint8_t> b(kN);
  trnrand::bernoulli(trnrand::make_stream(15), b, 0.3);
  const double ones = std::accumulate(b.begin(), b.end(), 0.0);
  EXPECT_NEAR(ones / kN, 0.3, 5 * std::sqrt(0.3 * 0.7 / kN));
  trnrand::bernoulli(trnrand::make_stream(15), b, 0.0);
  EXPECT_EQ(std::accumulate(b.begin(), b.end(), 0), 0);
  trnrand::bernoulli(trnrand::make_stream(15), b, 1.0);
  EXPECT_EQ(std::accumulate(b.begin(), b.end(), 0), static_cast<int>(kN));
}

TEST(Distributions, SamplesDependOnlyOnTheirPosition) {
  // Rejection samplers: sample i comes from its own window, so a prefix is the prefix of a longer call.
  std::vector<double> long_run(100), short_run(10);
  trnrand::gamma(trnrand::make_stream(16), std::span<double>(long_run), 0.7);
  trnrand::gamma(trnrand::make_stream(16), std::span<double>(short_run), 0.7);
  EXPECT_TRUE(std::equal(short_run.begin(), short_run.end(), long_run.begin()));
  std::vector<std::int64_t> a(4);
  const Stream after = trnrand::poisson(trnrand::make_stream(17), a, 50.0);
  EXPECT_EQ(after.offset, 4ull << 32);
}

TEST(Distributions, InvalidParametersThrowWithTheValue) {
  std::vector<double> d(3);
  std::vector<float> f(3);
  std::vector<std::int64_t> i(3);
  std::vector<std::uint8_t> b(3);
  const Stream s = trnrand::make_stream(1);
  try {
    trnrand::normal(s, std::span<double>(d), 0.0, -1.0);
    FAIL();
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "trnrand::normal: stddev = -1 is not a finite value >= 0: pass a finite stddev >= 0");
  }
  EXPECT_THROW(trnrand::normal(s, std::span<float>(f), NAN, 1.0f), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::lognormal(s, std::span<double>(d), 0.0, INFINITY), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::exponential(s, std::span<double>(d), 0.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::exponential(s, std::span<float>(f), NAN), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::bernoulli(s, b, 1.5), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::bernoulli(s, b, NAN), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::randint(s, i, 3, 2), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::gamma(s, std::span<double>(d), 0.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::gamma(s, std::span<double>(d), 1.0, -2.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::poisson(s, i, -1.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::poisson(s, i, NAN), trncore::InvalidArgument);
}

}  // namespace
