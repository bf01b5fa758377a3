// Bulk conversions against the element-wise algorithm (encode/decode, itself checked against MPFR):
// every format, every rounding mode and overflow policy, every code path, 1–3 threads, sizes around
// the 64-element blocks and the threading threshold, random bit patterns including subnormals, ±0,
// ±inf and NaN payloads. Equality is bitwise: every path must produce the same bits.
#include <trncore/convert.hpp>
#include <trncore/error.hpp>
#include <trncore/philox.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using trncore::ConvertOptions;
using trncore::Isa;
using trncore::Overflow;
using trncore::Rounding;
using trncore::RoundingMode;

std::vector<float> float_inputs(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (rng() % 4) {
      case 0: x[i] = std::bit_cast<float>(static_cast<std::uint32_t>(rng())); break;  // any pattern, NaNs too
      case 1:
        x[i] = std::ldexp(static_cast<float>(rng() % 4096) / 4096.0f + 1.0f, static_cast<int>(rng() % 40) - 20);
        break;
      case 2:
        x[i] = std::bit_cast<float>(static_cast<std::uint32_t>((rng() % 0x00800000u) | ((rng() & 1) << 31)));
        break;  // subnormal
      default: {
        const float specials[] = {0.0f,
                                  -0.0f,
                                  INFINITY,
                                  -INFINITY,
                                  3.3895314e38f,
                                  3.4028235e38f,
                                  65504.0f,
                                  65520.0f,
                                  448.0f,
                                  464.0f,
                                  57344.0f,
                                  61440.0f,
                                  std::bit_cast<float>(0x7F800001u),
                                  std::bit_cast<float>(0xFFC00123u),
                                  1.0f + 0x1p-8f,
                                  1.0f + 0x1p-11f};
        x[i] = specials[rng() % std::size(specials)];
      }
    }
  }
  return x;
}

std::vector<Rounding> roundings() {
  std::vector<Rounding> out;
  for (Overflow o : {Overflow::standard, Overflow::saturate}) {
    for (RoundingMode m : {RoundingMode::nearest_even, RoundingMode::toward_zero, RoundingMode::up, RoundingMode::down,
                           RoundingMode::to_odd})
      out.emplace_back(m, o);
    for (int r : {32, 17, 16, 5, 1}) out.emplace_back(RoundingMode::stochastic, o, r);
  }
  return out;
}

std::vector<Isa> isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::scalar, Isa::avx2, Isa::avx512})
    if (trncore::cpu_supports(isa)) out.push_back(isa);
  return out;
}

template <class T, class In>
std::vector<typename T::storage_type> reference(const std::vector<In>& in, const ConvertOptions& o) {
  std::vector<typename T::storage_type> out(in.size());
  const trncore::RandomBits bits{o.seed, o.stream};
  for (std::size_t i = 0; i < in.size(); ++i)
    out[i] = static_cast<typename T::storage_type>(
        trncore::encode(T::spec, static_cast<double>(in[i]), o.rounding, bits(o.offset + i)));
  return out;
}

template <class T, class In>
void check_format(const std::vector<std::size_t>& sizes) {
  for (std::size_t n : sizes) {
    const auto in = [&] {
      const auto f = float_inputs(n, 100 + n);
      return std::vector<In>(f.begin(), f.end());
    }();
    for (const Rounding& r : roundings()) {
      ConvertOptions o;
      o.rounding = r;
      o.seed = 0xC0FFEE;
      o.stream = 3;
      o.offset = n % 7;  // also exercise ranges that start inside a 64-element block
      const auto want = reference<T>(in, o);
      for (Isa isa : isas()) {
        for (int threads : {1, 2, 3}) {
          o.isa = isa;
          o.threads = threads;
          std::vector<T> out(n);
          trncore::convert(std::span<const In>(in), std::span<T>(out), o);
          for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(out[i].bits(), want[i]) << T::spec.name << " n=" << n << " i=" << i << " x=" << std::hexfloat
                                              << static_cast<double>(in[i]) << " mode=" << trncore::to_string(r.mode)
                                              << " r=" << r.sr_bits << " overflow=" << trncore::to_string(r.overflow)
                                              << " isa=" << trncore::to_string(isa) << " threads=" << threads;
        }
      }
    }
  }
}

const std::vector<std::size_t> kSizes = {0, 1, 3, 63, 64, 65, 127, 128, 129, 511, 512, 513, (1u << 16) + 7};

TEST(BulkConvert, Bf16FromFloatEqualsElementwiseOnEveryPath) { check_format<trncore::bf16, float>(kSizes); }
TEST(BulkConvert, Fp16FromFloatEqualsElementwiseOnEveryPath) { check_format<trncore::fp16, float>(kSizes); }
TEST(BulkConvert, OtherFormatsFromFloatEqualElementwise) {
  const std::vector<std::size_t> sizes = {0, 1, 65, 513, (1u << 16) + 7};
  check_format<trncore::tf32, float>(sizes);
  check_format<trncore::fp8_e4m3, float>(sizes);
  check_format<trncore::fp8_e5m2, float>(sizes);
}
TEST(BulkConvert, FromDoubleEqualsElementwise) {
  const std::vector<std::size_t> sizes = {0, 1, 129, (1u << 16) + 7};
  check_format<trncore::bf16, double>(sizes);
  check_format<trncore::fp8_e4m3, double>(sizes);
}

TEST(BulkConvert, DoubleToFloatInEveryMode) {
  std::mt19937_64 rng(4);
  std::vector<double> in(70000);
  for (auto& x : in) x = std::bit_cast<double>(rng());
  for (const Rounding& r : roundings()) {
    ConvertOptions o;
    o.rounding = r;
    o.threads = 2;
    std::vector<float> out(in.size());
    trncore::convert(std::span<const double>(in), std::span<float>(out), o);
    const trncore::RandomBits bits{o.seed, o.stream};
    for (std::size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(std::bit_cast<std::uint32_t>(out[i]), trncore::encode(trncore::formats::fp32, in[i], r, bits(i))) << i;
  }
}

// A large input takes the threaded path; converting it in two pieces with matching offsets must give
// the same bits as converting it whole (the SR stream is indexed by global element, not by thread).
TEST(BulkConvert, PiecesWithOffsetsEqualTheWhole) {
  const std::size_t n = (1u << 20) + 3;
  const auto in = float_inputs(n, 77);
  ConvertOptions o;
  o.rounding = Rounding(RoundingMode::stochastic);
  o.seed = 9;
  std::vector<trncore::bf16> whole(n), pieces(n);
  o.threads = 2;
  trncore::convert(std::span<const float>(in), std::span<trncore::bf16>(whole), o);
  const std::size_t cut = 333333;
  o.threads = 1;
  trncore::convert(std::span<const float>(in).first(cut), std::span<trncore::bf16>(pieces).first(cut), o);
  o.offset = cut;
  o.threads = 3;
  trncore::convert(std::span<const float>(in).subspan(cut), std::span<trncore::bf16>(pieces).subspan(cut), o);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(whole[i].bits(), pieces[i].bits()) << i;
}

template <class T>
void check_back_conversion() {
  std::vector<T> in(70000);
  std::mt19937_64 rng(12);
  for (auto& x : in) x = T::from_bits(static_cast<typename T::storage_type>(rng()));
  for (Isa isa : isas()) {
    ConvertOptions o;
    o.isa = isa;
    o.threads = 2;
    std::vector<float> f(in.size());
    std::vector<double> d(in.size());
    trncore::convert(std::span<const T>(in), std::span<float>(f), o);
    trncore::convert(std::span<const T>(in), std::span<double>(d), o);
    for (std::size_t i = 0; i < in.size(); ++i) {
      const double want = trncore::decode(T::spec, in[i].bits());
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(f[i]) && std::isnan(d[i]));
        ASSERT_EQ(std::signbit(f[i]), std::signbit(want));
      } else {
        ASSERT_EQ(std::bit_cast<std::uint64_t>(d[i]), std::bit_cast<std::uint64_t>(want)) << i;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(f[i]), std::bit_cast<std::uint32_t>(static_cast<float>(want))) << i;
      }
    }
  }
}

TEST(BulkConvert, BackToFloatAndDoubleIsExact) {
  check_back_conversion<trncore::bf16>();
  check_back_conversion<trncore::fp16>();
  check_back_conversion<trncore::tf32>();
  check_back_conversion<trncore::fp8_e4m3>();
  check_back_conversion<trncore::fp8_e5m2>();
}

TEST(BulkConvert, BadInputThrowsWithTheValues) {
  std::vector<float> in(5);
  std::vector<trncore::bf16> out(4);
  try {
    trncore::convert(std::span<const float>(in), std::span<trncore::bf16>(out));
    FAIL() << "size mismatch accepted";
  } catch (const trncore::DimensionMismatch& e) {
    EXPECT_STREQ(e.what(), "trncore::convert: in has 5 elements but out has 4: pass spans of equal size");
  }
  out.resize(5);
  ConvertOptions o;
  o.rounding = Rounding(RoundingMode::stochastic, Overflow::standard, 0);
  EXPECT_THROW(trncore::convert(std::span<const float>(in), std::span<trncore::bf16>(out), o),
               trncore::InvalidArgument);
  o = ConvertOptions{};
  o.isa = static_cast<Isa>(17);
  EXPECT_THROW(trncore::convert(std::span<const float>(in), std::span<trncore::bf16>(out), o),
               trncore::InvalidArgument);
  for (Isa isa : {Isa::avx2, Isa::avx512}) {
    if (trncore::cpu_supports(isa)) continue;
    o.isa = isa;
    EXPECT_THROW(trncore::convert(std::span<const float>(in), std::span<trncore::bf16>(out), o), trncore::NotSupported);
  }
  EXPECT_EQ(trncore::to_string(Isa::avx512), "avx512");
}

}  // namespace
