// MX quantization against a reference written here from the MX v1.0 text: the element value set is
// enumerated from each format's definition (not through trncore's encode), each scaled element goes to
// the nearest member (ties to the even code, saturating at ±max), and the shared exponent is
// floor(log2 max|x|) − emax_elem clamped to [−127, 127].
#include <trncore/error.hpp>
#include <trncore/mx.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

using trncore::MxFormat;

struct ElementTable {
  int emax;                    // exponent of the largest normal
  std::vector<double> values;  // non-negative values, index = magnitude code
};

// Values by code from the definitions: E4M3 (bias 7, S.1111.111 NaN), E5M2 (bias 15, exponent 31 special),
// E2M1 (bias 1, no specials).
ElementTable table(MxFormat f) {
  ElementTable t;
  const int eb = f == MxFormat::mxfp8_e4m3 ? 4 : f == MxFormat::mxfp8_e5m2 ? 5 : 2;
  const int mb = f == MxFormat::mxfp8_e4m3 ? 3 : f == MxFormat::mxfp8_e5m2 ? 2 : 1;
  const int bias = f == MxFormat::mxfp8_e4m3 ? 7 : f == MxFormat::mxfp8_e5m2 ? 15 : 1;
  for (int code = 0; code < (1 << (eb + mb)); ++code) {
    const int e = code >> mb, m = code & ((1 << mb) - 1);
    if (f == MxFormat::mxfp8_e4m3 && code == 0x7F) break;  // NaN
    if (f == MxFormat::mxfp8_e5m2 && e == 31) break;       // inf / NaN
    t.values.push_back(e == 0 ? std::ldexp(m, 1 - bias - mb) : std::ldexp(1.0 + std::ldexp(m, -mb), e - bias));
  }
  t.emax = std::ilogb(t.values.back());
  return t;
}

// Nearest element code for a scaled value, ties to the even code, saturating.
std::uint8_t nearest_code(const ElementTable& t, double v, int sign_shift) {
  const double a = std::fabs(v);
  int best = 0;
  for (int c = 1; c < static_cast<int>(t.values.size()); ++c) {
    const double d = std::fabs(t.values[c] - a), db = std::fabs(t.values[best] - a);
    if (d < db || (d == db && c % 2 == 0)) best = c;
  }
  if (a > t.values.back()) best = static_cast<int>(t.values.size()) - 1;
  const bool negative = std::signbit(v) && !(best == 0 && a == 0 && !std::signbit(v));
  return static_cast<std::uint8_t>(best | (negative ? (1 << sign_shift) : 0));
}

void check_against_reference(const std::vector<float>& x, MxFormat f) {
  const ElementTable t = table(f);
  const int sign_shift = f == MxFormat::mxfp4_e2m1 ? 3 : 7;
  const auto blocks = trncore::quantize_mx(std::span<const float>(x), f);
  ASSERT_EQ(blocks.size, static_cast<std::int64_t>(x.size()));
  ASSERT_EQ(blocks.scales.size(), (x.size() + 31) / 32);
  for (std::size_t b = 0; b < blocks.scales.size(); ++b) {
    double max_abs = 0;
    bool special = false;
    for (std::size_t i = 32 * b; i < std::min(x.size(), 32 * b + 32); ++i) {
      special |= !std::isfinite(x[i]);
      max_abs = std::max(max_abs, std::fabs(static_cast<double>(x[i])));
    }
    if (special) {
      EXPECT_TRUE(blocks.scales[b].is_nan()) << "block " << b;
      continue;
    }
    const int e = max_abs == 0 ? -127 : std::max(-127, static_cast<int>(std::floor(std::log2(max_abs))) - t.emax);
    ASSERT_EQ(blocks.scales[b].exponent(), e) << "block " << b << " max " << max_abs;
    for (std::size_t i = 32 * b; i < std::min(x.size(), 32 * b + 32); ++i) {
      const std::uint8_t want = nearest_code(t, std::ldexp(static_cast<double>(x[i]), -e), sign_shift);
      ASSERT_EQ(blocks.elements[i], want) << trncore::to_string(f) << " i=" << i << " x=" << x[i] << " e=" << e;
    }
  }
}

std::vector<float> random_block_data(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> x(n);
  for (auto& v : x) {
    const float m = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
    v = std::ldexp(m, static_cast<int>(rng() % 24) - 12);  // 24 binades: some elements become subnormal or zero
  }
  return x;
}

TEST(Mx, MatchesTheSpecReferenceOnEdgeSizes) {
  for (MxFormat f : {MxFormat::mxfp8_e4m3, MxFormat::mxfp8_e5m2, MxFormat::mxfp4_e2m1})
    for (std::size_t n : {0u, 1u, 31u, 32u, 33u, 127u, 128u, 129u, 1000u})
      check_against_reference(random_block_data(n, n + 17), f);
}

TEST(Mx, EdgeBlocksZerosPowersOfTwoHugeAndTinyValues) {
  std::vector<float> x(32 * 6, 0.0f);  // block 0: all zeros
  x[32] = 256.0f;                      // block 1: max exactly a power of two
  x[33] = 1.0f;
  x[64] = std::nextafter(512.0f, 0.0f);  // block 2: max just below a power of two (E4M3 saturates it)
  x[65] = -3.0f;
  x[96] = 1e30f;  // block 3: huge and tiny together, tiny ones flush to zero
  x[97] = 1e-30f;
  x[98] = -7e28f;
  x[128] = 1e-40f;  // block 4: subnormal fp32 inputs
  x[129] = -3e-41f;
  for (int i = 160; i < 192; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i - 175) * 0.37f;  // block 5
  for (MxFormat f : {MxFormat::mxfp8_e4m3, MxFormat::mxfp8_e5m2, MxFormat::mxfp4_e2m1}) check_against_reference(x, f);
}

TEST(Mx, NanOrInfinityMakesTheBlockScaleNan) {
  std::vector<float> x(70, 1.0f);
  x[3] = std::nanf("");
  x[40] = -INFINITY;
  for (MxFormat f : {MxFormat::mxfp8_e4m3, MxFormat::mxfp4_e2m1}) {
    check_against_reference(x, f);
    const auto blocks = trncore::quantize_mx(std::span<const float>(x), f);
    std::vector<float> y(x.size());
    trncore::dequantize_mx(blocks, y);
    EXPECT_TRUE(std::isnan(y[0]) && std::isnan(y[31]) && std::isnan(y[32]) && std::isnan(y[63]));
    EXPECT_EQ(y[64], 1.0f);  // block 2 is unaffected
  }
}

// Round trip: each dequantized element is within half an element ulp at its own magnitude of the input
// (|error| ≤ 2^(e − M − 1 + max(exponent(x_i / 2^e), emin_elem))) unless it is the saturated block maximum.
TEST(Mx, DequantizedValuesAreWithinHalfAnElementUlp) {
  for (MxFormat f : {MxFormat::mxfp8_e4m3, MxFormat::mxfp8_e5m2, MxFormat::mxfp4_e2m1}) {
    const ElementTable t = table(f);
    const int mb = f == MxFormat::mxfp8_e4m3 ? 3 : f == MxFormat::mxfp8_e5m2 ? 2 : 1;
    const int emin = std::ilogb(t.values[1 << mb]);
    const auto x = random_block_data(4096, 99);
    const auto blocks = trncore::quantize_mx(std::span<const float>(x), f);
    std::vector<float> y(x.size());
    trncore::dequantize_mx(blocks, y);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const int e = blocks.scales[i / 32].exponent();
      const double scaled = std::ldexp(static_cast<double>(x[i]), -e);
      if (std::fabs(scaled) > t.values.back()) continue;  // saturated: checked by the reference test
      const int ex = scaled == 0 ? emin : std::max(std::ilogb(scaled), emin);
      EXPECT_LE(std::fabs(static_cast<double>(y[i]) - x[i]), std::ldexp(1.0, e + ex - mb - 1)) << i;
    }
  }
}

TEST(Mx, RepresentableBlocksRoundTripExactly) {
  std::vector<float> x = {0.5f, -1.0f, 1.5f, 2.0f, -3.0f, 4.0f, 6.0f, 0.0f};  // E2M1 values with scale 1
  const auto blocks = trncore::quantize_mx(std::span<const float>(x), MxFormat::mxfp4_e2m1);
  EXPECT_EQ(blocks.scales[0].exponent(), 0);
  std::vector<float> y(x.size());
  trncore::dequantize_mx(blocks, y);
  EXPECT_EQ(y, x);
  const auto packed = trncore::pack_fp4(blocks);
  ASSERT_EQ(packed.size(), 4u);
  EXPECT_EQ(packed[0], static_cast<std::uint8_t>(blocks.elements[0] | (blocks.elements[1] << 4)));
}

TEST(Mx, StochasticRoundingIsReproducibleAndUnbiased) {
  std::vector<float> x(32 * 64, 1.1f);  // 1.1 lies between E4M3 values 1.0 and 1.125 (scale 1 since max 1.1)
  trncore::MxOptions o;
  o.rounding = trncore::Rounding(trncore::RoundingMode::stochastic);
  o.seed = 3;
  const auto a = trncore::quantize_mx(std::span<const float>(x), MxFormat::mxfp8_e4m3, o);
  const auto b = trncore::quantize_mx(std::span<const float>(x), MxFormat::mxfp8_e4m3, o);
  EXPECT_EQ(a.elements, b.elements);
  std::vector<float> y(x.size());
  trncore::dequantize_mx(a, y);
  double mean = 0;
  for (float v : y) mean += v;
  mean /= static_cast<double>(y.size());
  // Bernoulli(0.8) between 1.0 and 1.125 (x = 1.1f is 1.1 to 1e-7): sd of the mean 0.125·0.4/√2048 ≈ 0.0011.
  EXPECT_NEAR(mean, 1.1, 0.0056);
}

TEST(Mx, BadInputThrows) {
  std::vector<float> x(40, 1.0f), y(39);
  const auto blocks = trncore::quantize_mx(std::span<const float>(x), MxFormat::mxfp8_e5m2);
  try {
    trncore::dequantize_mx(blocks, y);
    FAIL() << "size mismatch accepted";
  } catch (const trncore::DimensionMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("blocks hold 40 elements but out has 39"), std::string::npos);
  }
  auto broken = blocks;
  broken.scales.pop_back();
  y.resize(40);
  EXPECT_THROW(trncore::dequantize_mx(broken, y), trncore::InvalidArgument);
  EXPECT_THROW(trncore::quantize_mx(std::span<const float>(x), static_cast<MxFormat>(9)), trncore::InvalidArgument);
  EXPECT_THROW(trncore::pack_fp4(blocks), trncore::InvalidArgument);
  EXPECT_THROW(trncore::parse_mx_format("mxfp6"), trncore::ParseError);
  EXPECT_EQ(trncore::parse_mx_format("mxfp4_e2m1"), MxFormat::mxfp4_e2m1);
}

}  // namespace
