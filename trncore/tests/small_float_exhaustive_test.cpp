// Every encoding of every 4-, 8- and 16-bit format, decoded by trncore and by an independent decoding
// written here from the format definitions (or the CPU's own conversion instructions), plus the CPU's
// fp32 → fp16 and fp32 → bf16 conversions over hundreds of millions of fp32 inputs.
#include <trncore/detail/cpu_features.hpp>
#include <trncore/format.hpp>
#include <trncore/small_float.hpp>

#include <gtest/gtest.h>
#include <immintrin.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace {

using trncore::FpClass;

// Independent decoding from (exponent bits, mantissa bits, bias) — formula, not bit surgery.
double formula_value(std::uint32_t bits, int eb, int mb, int bias) {
  const bool negative = (bits >> (eb + mb)) & 1u;
  const std::uint32_t e = (bits >> mb) & ((1u << eb) - 1);
  const std::uint32_t m = bits & ((1u << mb) - 1);
  const double v = e == 0 ? std::ldexp(static_cast<double>(m), 1 - bias - mb)
                          : std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -mb), static_cast<int>(e) - bias);
  return negative ? -v : v;
}

template <class T>
void expect_same_value(T x, double want, std::uint32_t bits) {
  const double got = x.to_double();
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << std::hex << bits;
  } else {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want)) << std::hex << bits;
  }
  EXPECT_EQ(std::signbit(got), std::signbit(want)) << std::hex << bits;
}

// Non-NaN encodings survive decode → encode(nearest_even) unchanged; NaNs stay NaN with their sign.
template <class T>
void expect_round_trip(T x) {
  const T back = T::from_double(x.to_double());
  if (x.is_nan()) {
    EXPECT_TRUE(back.is_nan());
    EXPECT_EQ(back.signbit(), x.signbit());
  } else {
    EXPECT_EQ(back.bits(), x.bits());
  }
}

FpClass class_of(double v, bool nan) {
  if (nan) return FpClass::nan;
  if (std::isinf(v)) return FpClass::infinite;
  if (v == 0) return FpClass::zero;
  return FpClass::normal;  // subnormal is decided by the exponent field below
}

TEST(Exhaustive, Fp8E4M3EveryEncoding) {
  for (std::uint32_t b = 0; b < 256; ++b) {
    const auto x = trncore::fp8_e4m3::from_bits(static_cast<std::uint8_t>(b));
    const bool nan = (b & 0x7F) == 0x7F;  // OFP8: only S.1111.111 is NaN, no infinities
    const double want = nan ? std::copysign(NAN, (b & 0x80) ? -1.0 : 1.0) : formula_value(b, 4, 3, 7);
    expect_same_value(x, want, b);
    FpClass c = class_of(want, nan);
    if (c == FpClass::normal && (b & 0x78) == 0) c = FpClass::subnormal;
    EXPECT_EQ(x.classify(), c) << b;
    EXPECT_FALSE(x.is_inf());
    expect_round_trip(x);
  }
}

TEST(Exhaustive, Fp8E5M2EveryEncoding) {
  for (std::uint32_t b = 0; b < 256; ++b) {
    const auto x = trncore::fp8_e5m2::from_bits(static_cast<std::uint8_t>(b));
    const bool special = (b & 0x7C) == 0x7C;
    const bool nan = special && (b & 0x3) != 0;
    double want = formula_value(b, 5, 2, 15);
    if (special) want = nan ? std::copysign(NAN, (b & 0x80) ? -1.0 : 1.0) : ((b & 0x80) ? -INFINITY : INFINITY);
    expect_same_value(x, want, b);
    FpClass c = class_of(want, nan);
    if (c == FpClass::normal && (b & 0x7C) == 0) c = FpClass::subnormal;
    EXPECT_EQ(x.classify(), c) << b;
    expect_round_trip(x);
  }
}

TEST(Exhaustive, Fp4E2M1EveryEncodingIsInTheMxTable) {
  const double table[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};  // OCP MX v1.0, FP4 E2M1
  for (std::uint32_t b = 0; b < 16; ++b) {
    const auto x = trncore::fp4_e2m1::from_bits(static_cast<std::uint8_t>(b));
    const double want = (b & 8) ? -table[b & 7] : table[b & 7];
    expect_same_value(x, want, b);
    EXPECT_TRUE(x.is_finite());
    EXPECT_EQ(x.is_subnormal(), (b & 7) == 1);
    expect_round_trip(x);
  }
}

TEST(Exhaustive, Bf16EveryEncodingIsTheTopHalfOfAnFp32) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto x = trncore::bf16::from_bits(static_cast<std::uint16_t>(b));
    const float want = std::bit_cast<float>(b << 16);
    expect_same_value(x, static_cast<double>(want), b);
    if (!std::isnan(want)) {
      EXPECT_EQ(std::bit_cast<std::uint32_t>(x.to_float()), b << 16) << b;
    }
    const int c = std::fpclassify(want);
    const FpClass expected_class = c == FP_NAN         ? FpClass::nan
                                   : c == FP_INFINITE  ? FpClass::infinite
                                   : c == FP_ZERO      ? FpClass::zero
                                   : c == FP_SUBNORMAL ? FpClass::subnormal
                                                       : FpClass::normal;
    EXPECT_EQ(x.classify(), expected_class) << b;
    expect_round_trip(x);
  }
}

__attribute__((target("f16c"))) float f16c_to_float(std::uint16_t h) { return _cvtsh_ss(h); }
__attribute__((target("f16c"))) std::uint16_t f16c_from_float(float x) {
  // The vector form: Clang's scalar _cvtss_sh macro expands to a compound literal (-Wc99-extensions).
  const __m128i h = _mm_cvtps_ph(_mm_set_ss(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return static_cast<std::uint16_t>(_mm_extract_epi16(h, 0));
}

TEST(Exhaustive, Fp16EveryEncodingAgreesWithTheCpuAndTheFormula) {
  const bool have_f16c = trncore::detail::cpu_has_f16c();
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto x = trncore::fp16::from_bits(static_cast<std::uint16_t>(b));
    const bool special = (b & 0x7C00) == 0x7C00;
    double want = formula_value(b, 5, 10, 15);
    if (special)
      want = (b & 0x3FF) ? std::copysign(NAN, (b & 0x8000) ? -1.0 : 1.0) : ((b & 0x8000) ? -INFINITY : INFINITY);
    expect_same_value(x, want, b);
    if (have_f16c) {  // the CPU's decoding, NaN payload included
      EXPECT_EQ(std::bit_cast<std::uint32_t>(x.to_float()),
                std::bit_cast<std::uint32_t>(f16c_to_float(static_cast<std::uint16_t>(b))))
          << b;
    }
    expect_round_trip(x);
  }
}

TEST(Exhaustive, Tf32EveryEncodingIsAnFp32WithTenMantissaBits) {
  for (std::uint32_t b = 0; b < (1u << 19); ++b) {
    const auto x = trncore::tf32::from_bits(b);
    const float want = std::bit_cast<float>(b << 13);
    expect_same_value(x, static_cast<double>(want), b);
    expect_round_trip(x);
  }
}

// fp32 → fp16 nearest-even against F16C over every 7th fp32 bit pattern (6.1e8 inputs, all exponents and
// a dense mantissa sample), NaNs included. Under sanitizers the stride is larger to keep the run short.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::uint64_t kSweepStride = 4099;
#else
constexpr std::uint64_t kSweepStride = 7;
#endif

TEST(Exhaustive, Fp32ToFp16NearestEvenMatchesF16c) {
  if (!trncore::detail::cpu_has_f16c()) GTEST_SKIP() << "this CPU has no F16C";
  std::uint64_t mismatches = 0;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32); i += kSweepStride) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(i));
    const std::uint16_t ours = trncore::fp16::from_float(x).bits();
    const std::uint16_t cpu = f16c_from_float(x);
    if (ours != cpu && mismatches++ < 5)
      ADD_FAILURE() << std::hex << "x bits " << i << ": ours " << ours << ", F16C " << cpu;
  }
  EXPECT_EQ(mismatches, 0u);
}

__attribute__((target("avx512bf16,avx512f,avx512vl"))) std::uint16_t avx512bf16_from_float(float x) {
  const __m128bh r = _mm_cvtneps_pbh(_mm_set1_ps(x));
  return static_cast<std::uint16_t>(_mm_extract_epi16(reinterpret_cast<const __m128i&>(r), 0));
}

// fp32 → bf16 nearest-even against AVX512-BF16's vcvtneps2bf16. That instruction treats subnormal
// inputs as zero (Intel SDM, "convert_fp32_to_bfloat16"), unlike our model, which keeps subnormals: the
// comparison covers every other input, and subnormals are checked against the formula instead.
TEST(Exhaustive, Fp32ToBf16NearestEvenMatchesAvx512Bf16) {
  if (!trncore::detail::cpu_has_avx512bf16()) GTEST_SKIP() << "this CPU has no AVX512-BF16";
  std::uint64_t mismatches = 0;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << 32); i += kSweepStride) {
    const std::uint32_t bits = static_cast<std::uint32_t>(i);
    const float x = std::bit_cast<float>(bits);
    const std::uint16_t ours = trncore::bf16::from_float(x).bits();
    if (std::fpclassify(x) == FP_SUBNORMAL) {
      const std::uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;  // RNE on the bit pattern
      if (ours != rounded && mismatches++ < 5) ADD_FAILURE() << std::hex << "subnormal " << bits << ": " << ours;
      continue;
    }
    const std::uint16_t cpu = avx512bf16_from_float(x);
    if (ours != cpu && mismatches++ < 5)
      ADD_FAILURE() << std::hex << "x bits " << bits << ": ours " << ours << ", CPU " << cpu;
  }
  EXPECT_EQ(mismatches, 0u);
}

// std::numeric_limits against the published constants of each format.
TEST(Limits, MatchPublishedConstants) {
  using std::numeric_limits;
  EXPECT_EQ(numeric_limits<trncore::fp16>::max().to_double(), 65504.0);
  EXPECT_EQ(numeric_limits<trncore::fp16>::min().to_double(), 0x1p-14);
  EXPECT_EQ(numeric_limits<trncore::fp16>::denorm_min().to_double(), 0x1p-24);
  EXPECT_EQ(numeric_limits<trncore::fp16>::epsilon().to_double(), 0x1p-10);
  EXPECT_EQ(numeric_limits<trncore::fp16>::digits, 11);
  EXPECT_EQ(numeric_limits<trncore::fp16>::max_exponent, 16);
  EXPECT_EQ(numeric_limits<trncore::fp16>::min_exponent, -13);
  EXPECT_EQ(numeric_limits<trncore::fp16>::min_exponent10, -4);
  EXPECT_EQ(numeric_limits<trncore::fp16>::max_exponent10, 4);
  EXPECT_EQ(numeric_limits<trncore::fp16>::digits10, 3);
  EXPECT_EQ(numeric_limits<trncore::fp16>::max_digits10, 5);
  EXPECT_TRUE(numeric_limits<trncore::fp16>::is_iec559);

  EXPECT_EQ(numeric_limits<trncore::bf16>::max().to_float(), 3.38953139e38f);
  EXPECT_EQ(numeric_limits<trncore::bf16>::min().to_double(), 0x1p-126);
  EXPECT_EQ(numeric_limits<trncore::bf16>::denorm_min().to_double(), 0x1p-133);
  EXPECT_EQ(numeric_limits<trncore::bf16>::epsilon().to_double(), 0x1p-7);
  EXPECT_EQ(numeric_limits<trncore::bf16>::digits, 8);
  EXPECT_EQ(numeric_limits<trncore::bf16>::min_exponent10, -37);
  EXPECT_EQ(numeric_limits<trncore::bf16>::max_exponent10, 38);

  EXPECT_EQ(numeric_limits<trncore::fp8_e4m3>::max().to_double(), 448.0);
  EXPECT_EQ(numeric_limits<trncore::fp8_e4m3>::min().to_double(), 0x1p-6);
  EXPECT_EQ(numeric_limits<trncore::fp8_e4m3>::denorm_min().to_double(), 0x1p-9);
  EXPECT_EQ(numeric_limits<trncore::fp8_e4m3>::lowest().to_double(), -448.0);
  EXPECT_FALSE(numeric_limits<trncore::fp8_e4m3>::has_infinity);
  EXPECT_TRUE(numeric_limits<trncore::fp8_e4m3>::has_quiet_NaN);
  EXPECT_FALSE(numeric_limits<trncore::fp8_e4m3>::has_signaling_NaN);
  EXPECT_EQ(numeric_limits<trncore::fp8_e4m3>::quiet_NaN().bits(), 0x7F);

  EXPECT_EQ(numeric_limits<trncore::fp8_e5m2>::max().to_double(), 57344.0);
  EXPECT_EQ(numeric_limits<trncore::fp8_e5m2>::min().to_double(), 0x1p-14);
  EXPECT_EQ(numeric_limits<trncore::fp8_e5m2>::denorm_min().to_double(), 0x1p-16);
  EXPECT_EQ(numeric_limits<trncore::fp8_e5m2>::infinity().bits(), 0x7C);
  EXPECT_TRUE(numeric_limits<trncore::fp8_e5m2>::signaling_NaN().is_nan());

  EXPECT_EQ(numeric_limits<trncore::fp4_e2m1>::max().to_double(), 6.0);
  EXPECT_EQ(numeric_limits<trncore::fp4_e2m1>::min().to_double(), 1.0);
  EXPECT_EQ(numeric_limits<trncore::fp4_e2m1>::denorm_min().to_double(), 0.5);
  EXPECT_EQ(numeric_limits<trncore::fp4_e2m1>::epsilon().to_double(), 0.5);
  EXPECT_FALSE(numeric_limits<trncore::fp4_e2m1>::has_quiet_NaN);

  EXPECT_EQ(numeric_limits<trncore::tf32>::max().to_float(), 3.40116213e38f);
  EXPECT_EQ(numeric_limits<trncore::tf32>::epsilon().to_double(), 0x1p-10);
}

}  // namespace
