// Stochastic rounding's statistics, with reproducible Philox streams: unbiasedness, P(up) equal to the
// discarded fraction (chi-square), the exact bias of SR(r) with few bits, and stream properties.
// Every stream is seeded, so the tests are deterministic; the bounds say what an honest SR must meet.
#include <trncore/philox.hpp>
#include <trncore/small_float.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace {

using trncore::bf16;
using trncore::Overflow;
using trncore::Rounding;
using trncore::RoundingMode;

// The two bf16 neighbours of x and the fraction of the way from the lower to the upper one.
struct Bracket {
  double lo, hi, fraction;
};
Bracket bracket(float x) {
  const double lo = bf16::from_float(x, RoundingMode::down).to_double();
  const double hi = bf16::from_float(x, RoundingMode::up).to_double();
  return {lo, hi, hi == lo ? 0.0 : (static_cast<double>(x) - lo) / (hi - lo)};
}

TEST(StochasticRounding, OnlyEverReturnsANeighbourAndKeepsRepresentableValues) {
  std::mt19937_64 rng(1);
  const trncore::RandomBits bits{11, 0};
  for (int i = 0; i < 100000; ++i) {
    const float x =
        std::ldexp(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng), static_cast<int>(rng() % 60) - 30);
    const auto [lo, hi, f] = bracket(x);
    const double y = bf16::from_float(x, RoundingMode::stochastic, bits(i)).to_double();
    ASSERT_TRUE(y == lo || y == hi) << x;
    const float representable = bf16::from_float(x).to_float();
    ASSERT_EQ(bf16::from_float(representable, RoundingMode::stochastic, bits(i)).to_float(), representable);
  }
}

// Unbiased: over N draws the mean lies within 5 standard errors of x. Each draw is lo + (hi−lo)·Bernoulli(f),
// so the standard error of the mean is (hi−lo)·sqrt(f(1−f)/N); 5σ fails with probability < 1e-6.
TEST(StochasticRounding, MeanOfManyDrawsIsTheValue) {
  const int n = 200000;
  for (float x : {1.0f + 0x1p-10f, 3.14159265f, -2.7182817f, 1e-30f, 0x1.0101p-130f, 65504.3f}) {
    const auto [lo, hi, f] = bracket(x);
    const trncore::RandomBits bits{2026, static_cast<std::uint64_t>(std::fabs(x) * 1000)};
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += bf16::from_float(x, RoundingMode::stochastic, bits(i)).to_double();
    const double sigma = (hi - lo) * std::sqrt(f * (1 - f) / n);
    EXPECT_NEAR(sum / n, static_cast<double>(x), 5 * sigma + 1e-300) << x;
  }
}

// P(round up) = f for r = 32: a chi-square test over the 63 inputs whose fractions are j/64 of an ulp,
// 20000 draws each, one degree of freedom per input (63 in all). The 1e-6 upper quantile of χ²(63) is
// ≈ 131.7 (Wilson–Hilferty), so 131 is the bound.
TEST(StochasticRounding, ProbabilityOfRoundingUpIsTheDiscardedFraction) {
  const int draws = 20000;
  double chi2 = 0;
  for (int j = 1; j <= 64; ++j) {
    const float x = 1.0f + static_cast<float>(j) * 0x1p-13f;  // fractions j/64 of a bf16 ulp (2^-7)
    const auto [lo, hi, f] = bracket(x);
    const trncore::RandomBits bits{7, static_cast<std::uint64_t>(j)};
    int up = 0;
    for (int i = 0; i < draws; ++i) up += bf16::from_float(x, RoundingMode::stochastic, bits(i)).to_double() == hi;
    if (lo == hi) {  // j = 64: x is representable, so every draw is x itself
      EXPECT_EQ(up, draws);
      continue;
    }
    const double expected = draws * f;
    chi2 += (up - expected) * (up - expected) / (expected * (1 - f));
  }
  EXPECT_LT(chi2, 131.0);
  RecordProperty("chi2", std::to_string(chi2));
}

// SR(r) with r bits rounds up with probability floor(f·2^r)/2^r exactly: with every r-bit random value
// enumerated once, the count of round-ups is exactly floor(f·2^r). That is the documented bias.
TEST(StochasticRounding, FewRandomBitsGiveExactlyTheDocumentedBias) {
  for (int r : {1, 2, 3, 4, 8}) {
    for (int j = 1; j < 128; ++j) {
      const float x = 1.0f + static_cast<float>(j) * 0x1p-14f;  // fraction j/128
      const auto [lo, hi, f] = bracket(x);
      int up = 0;
      for (std::uint32_t u = 0; u < (1u << r); ++u) {
        const std::uint32_t random = u << (32 - r);  // the top r bits are the ones SR(r) uses
        up += bf16::from_float(x, Rounding(RoundingMode::stochastic, Overflow::standard, r), random).to_double() == hi;
      }
      EXPECT_EQ(up, static_cast<int>(std::floor(f * (1 << r)))) << "r=" << r << " j=" << j;
    }
  }
}

TEST(StochasticRounding, SameStreamSameBitsOtherSeedsOtherDraws) {
  const float x = 1.0f + 0x1p-9f;
  const trncore::RandomBits a{1, 0}, a_again{1, 0}, b{2, 0}, c{1, 1};
  int differ_seed = 0, differ_stream = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto ya = bf16::from_float(x, RoundingMode::stochastic, a(i)).bits();
    ASSERT_EQ(ya, bf16::from_float(x, RoundingMode::stochastic, a_again(i)).bits());
    differ_seed += ya != bf16::from_float(x, RoundingMode::stochastic, b(i)).bits();
    differ_stream += ya != bf16::from_float(x, RoundingMode::stochastic, c(i)).bits();
  }
  // f = 1/4: two independent draws differ with probability 2·(1/4)(3/4) = 3/8, i.e. ~375 of 1000.
  EXPECT_GT(differ_seed, 250);
  EXPECT_GT(differ_stream, 250);
}

}  // namespace
