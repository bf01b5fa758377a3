#include <trncore/error.hpp>
#include <trncore/rounding.hpp>
#include <trncore/small_float.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using trncore::Overflow;
using trncore::RoundingMode;

TEST(Rounding, NamesRoundTripThroughParse) {
  for (RoundingMode m : {RoundingMode::nearest_even, RoundingMode::toward_zero, RoundingMode::up, RoundingMode::down,
                         RoundingMode::to_odd, RoundingMode::stochastic})
    EXPECT_EQ(trncore::parse_rounding_mode(trncore::to_string(m)), m);
  EXPECT_EQ(trncore::parse_rounding_mode("sr"), RoundingMode::stochastic);
  EXPECT_EQ(trncore::parse_overflow(trncore::to_string(Overflow::saturate)), Overflow::saturate);
  EXPECT_EQ(trncore::parse_overflow("standard"), Overflow::standard);
}

TEST(Rounding, ParseRejectsUnknownNamesWithParseError) {
  try {
    trncore::parse_rounding_mode("nearest");
    FAIL() << "no exception";
  } catch (const trncore::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("trncore::parse_rounding_mode: unknown rounding mode 'nearest'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(trncore::parse_overflow("clamp"), trncore::ParseError);
}

TEST(Rounding, ValidateNamesTheBadField) {
  EXPECT_NO_THROW(trncore::validate(trncore::Rounding(RoundingMode::stochastic, Overflow::standard, 1), "f"));
  for (int bad : {0, -1, 33}) {
    try {
      trncore::validate(trncore::Rounding(RoundingMode::stochastic, Overflow::standard, bad), "trnblas::gemm");
      FAIL() << "sr_bits = " << bad << " accepted";
    } catch (const trncore::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("trnblas::gemm: sr_bits = " + std::to_string(bad)), std::string::npos)
          << e.what();
    }
  }
  trncore::Rounding bad_mode;
  bad_mode.mode = static_cast<RoundingMode>(42);
  EXPECT_THROW(trncore::validate(bad_mode, "f"), trncore::InvalidArgument);
  trncore::Rounding bad_overflow;
  bad_overflow.overflow = static_cast<Overflow>(7);
  EXPECT_THROW(trncore::validate(bad_overflow, "f"), trncore::InvalidArgument);
}

TEST(SmallFloatApi, FromFloatRejectsInvalidRoundingAndNanWithoutEncoding) {
  EXPECT_THROW(trncore::bf16::from_float(1.0f, trncore::Rounding(RoundingMode::stochastic, Overflow::standard, 0)),
               trncore::InvalidArgument);
  try {
    trncore::fp4_e2m1::from_float(std::nanf(""));
    FAIL() << "NaN accepted by fp4_e2m1";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("trncore::fp4_e2m1::from_float: NaN has no encoding"), std::string::npos)
        << e.what();
  }
}

TEST(SmallFloatApi, FromBitsIgnoresBitsAboveTheWidth) {
  EXPECT_EQ(trncore::fp8_e4m3::from_bits(0xFF).bits(), 0xFF);
  EXPECT_EQ(trncore::fp4_e2m1::from_bits(0xF7).bits(), 0x07);
  EXPECT_EQ(trncore::tf32::from_bits(0xFFFFFFFFu).bits(), 0x7FFFFu);
}

TEST(SmallFloatApi, ComparisonIsNumericNegationFlipsTheSign) {
  const auto pz = trncore::bf16::from_float(0.0f);
  const auto nz = trncore::bf16::from_float(-0.0f);
  EXPECT_TRUE(pz == nz);  // IEEE: +0 == -0 although the encodings differ
  EXPECT_NE(pz.bits(), nz.bits());
  const auto nan = trncore::bf16::from_float(std::nanf(""));
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(trncore::bf16::from_float(1.0f) < trncore::bf16::from_float(2.0f));
  EXPECT_EQ((-trncore::fp8_e5m2::from_float(3.0f)).to_float(), -3.0f);
  EXPECT_TRUE((-nz).signbit() == false);
}

// Conversions are constexpr: a compile-time check that 1.0 encodes as the published patterns.
static_assert(trncore::bf16::from_float(1.0f).bits() == 0x3F80);
static_assert(trncore::fp16::from_float(1.0f).bits() == 0x3C00);
static_assert(trncore::fp8_e4m3::from_float(1.0f).bits() == 0x38);
static_assert(trncore::fp8_e5m2::from_float(1.0f).bits() == 0x3C);
static_assert(trncore::fp4_e2m1::from_float(1.0f).bits() == 0x2);
static_assert(trncore::tf32::from_float(1.0f).bits() == (0x3F800000u >> 13));

}  // namespace
