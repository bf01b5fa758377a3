// The Vector, Scalar and GpSimd engines and DMA of the modelled NeuronCore against computations written
// independently here: fp32 arithmetic as double arithmetic rounded to float (exact for + − × ÷ of floats,
// since double has more than 2·24 + 2 bits), writes rounded with trncore::encode, stochastic draws from
// RandomBits; activations against long-double libm with a bound, and bit for bit where the model defines
// them as correctly rounded; integer ops with 64-bit arithmetic.
#include "sim_test_support.hpp"

#include <trncore/correctly_rounded.hpp>
#include <trncore/error.hpp>
#include <trncore/philox.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numbers>

namespace {

using namespace sim_test;

constexpr DType kFloatTypes[] = {DType::fp32, DType::tf32, DType::bf16, DType::fp16, DType::fp8_e4m3, DType::fp8_e5m2};

// What an op writes: x (an fp32 result) rounded into t by w, element i.
float written(DType t, float x, const WriteOptions& w, std::size_t i) {
  const auto& f = format_of(t);
  const std::uint32_t r = w.rounding.mode == trncore::RoundingMode::stochastic
                              ? trncore::RandomBits{w.seed, w.stream}(static_cast<std::uint64_t>(i))
                              : 0u;
  return static_cast<float>(trncore::decode(f, trncore::encode(f, static_cast<double>(x), w.rounding, r)));
}

float fp32_op(AluOp op, float a, float b) {
  const double x = a, y = b;
  switch (op) {
    case AluOp::add: return static_cast<float>(x + y);
    case AluOp::subtract: return static_cast<float>(x - y);
    case AluOp::multiply: return static_cast<float>(x * y);
    case AluOp::divide: return static_cast<float>(x / y);
    case AluOp::max: return std::isnan(a) ? b : std::isnan(b) ? a : (a > b || (a == b && !std::signbit(a)) ? a : b);
    case AluOp::min: return std::isnan(a) ? b : std::isnan(b) ? a : (a < b || (a == b && std::signbit(a)) ? a : b);
  }
  return 0;
}

std::vector<WriteOptions> write_modes() {
  WriteOptions rne, rz, sr, sr8;
  rz.rounding.mode = trncore::RoundingMode::toward_zero;
  sr.rounding.mode = trncore::RoundingMode::stochastic;
  sr.seed = 99;
  sr.stream = 5;
  sr8 = sr;
  sr8.rounding.sr_bits = 8;
  return {rne, rz, sr, sr8};
}

TEST(SimEngines, TensorTensorAndTensorScalarRoundTheFp32Result) {
  const std::int64_t P = 5, F = 37;
  NeuronCore core;
  const auto av = random_values(P * F, DType::fp32, 5, true), bv = random_values(P * F, DType::bf16, 6, true);
  Tile a = load(core, "a", P, F, DType::fp32, av), b = load(core, "b", P, F, DType::bf16, bv);
  for (DType t : kFloatTypes)
    for (const WriteOptions& w : write_modes())
      for (AluOp op : {AluOp::add, AluOp::subtract, AluOp::multiply, AluOp::divide, AluOp::max, AluOp::min}) {
        Tile out = core.sbuf("out", P, F, t);
        core.tensor_tensor(out, a, b, op, w);
        for (std::size_t i = 0; i < av.size(); ++i)
          ASSERT_TRUE(same_value(out.values()[i], written(t, fp32_op(op, av[i], bv[i]), w, i)))
              << to_string(t) << " op " << static_cast<int>(op) << " element " << i << ": " << av[i] << ", " << bv[i];
        core.tensor_scalar(out, a, -2.75f, op, w);
        for (std::size_t i = 0; i < av.size(); ++i)
          ASSERT_TRUE(same_value(out.values()[i], written(t, fp32_op(op, av[i], -2.75f), w, i)))
              << to_string(t) << " op " << static_cast<int>(op) << " element " << i;
      }
}

// Stochastic rounding is reproducible (same seed and stream, same bits), keyed by stream, and unbiased:
// the mean of n SR(32) roundings of x to bf16 is within 5σ of x, σ ≤ ulp/2/√n (a rounding is one of two
// neighbours ulp apart, so its standard deviation is at most ulp/2); 5σ fails with probability < 1e-6.
TEST(SimEngines, StochasticWritesAreReproducibleAndUnbiased) {
  const std::int64_t P = 128, F = 64;
  NeuronCore core;
  const float x = 1.0f + 0x1p-10f;  // 1/8 of a bf16 ulp (2^-7) above 1
  Tile in = core.sbuf("in", P, F, DType::fp32), o1 = core.sbuf("o1", P, F, DType::bf16),
       o2 = core.sbuf("o2", P, F, DType::bf16);
  core.tensor_scalar(in, in, x, AluOp::add);  // in = 0 + x
  WriteOptions w;
  w.rounding.mode = trncore::RoundingMode::stochastic;
  w.seed = 1234;
  core.copy(o1, in, w);
  core.copy(o2, in, w);
  EXPECT_EQ(o1.values(), o2.values());
  w.stream = 1;
  core.copy(o2, in, w);
  EXPECT_NE(o1.values(), o2.values());
  double sum = 0;
  for (float v : o1.values()) {
    ASSERT_TRUE(v == 1.0f || v == 1.0f + 0x1p-7f) << v;
    sum += v;
  }
  const double n = static_cast<double>(P * F), mean = sum / n;
  EXPECT_LT(std::abs(mean - x), 5 * 0x1p-8 / std::sqrt(n)) << mean;
}

TEST(SimEngines, ReductionsAreSequentialFp32AlongTheFreeAxis) {
  const std::int64_t P = 7, F = 300;
  NeuronCore core;
  const auto v = random_values(P * F, DType::fp32, 8, false);
  Tile in = load(core, "in", P, F, DType::fp32, v);
  for (DType t : {DType::fp32, DType::bf16})
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::max, ReduceOp::min}) {
      Tile out = core.sbuf("r", P, 1, t);
      core.reduce(out, in, op);
      for (std::int64_t p = 0; p < P; ++p) {
        float acc = v[static_cast<std::size_t>(p * F)];
        for (std::int64_t f = 1; f < F; ++f) {
          const float x = v[static_cast<std::size_t>(p * F + f)];
          acc = op == ReduceOp::sum   ? fp32_op(AluOp::add, acc, x)
                : op == ReduceOp::max ? fp32_op(AluOp::max, acc, x)
                                      : fp32_op(AluOp::min, acc, x);
        }
        ASSERT_EQ(bits(out.value(p, 0)), bits(round_to(t, acc))) << p;
      }
    }
  Tile wrong = core.sbuf("w", P, 2, DType::fp32);
  EXPECT_THROW(core.reduce(wrong, in, ReduceOp::sum), trncore::DimensionMismatch);
}

// Memories as NKI documents them: Vector/Scalar ops read and write PSUM, but a tensor-tensor op reads at
// most one operand from PSUM. PSUM → SBUF bf16 copy with SR is the usual way out of a matmul.
TEST(SimEngines, VectorAndScalarEnginesUsePsumAsNkiDocuments) {
  const std::int64_t P = 4, F = 9;
  NeuronCore core;
  const auto v = random_values(P * F, DType::fp32, 31, true);
  Tile s = load(core, "s", P, F, DType::fp32, v);
  Tile ps = core.psum("ps", P, F), ps2 = core.psum("ps2", P, F);
  core.tensor_scalar(ps, s, 1.5f, AluOp::multiply);  // write PSUM
  for (std::size_t i = 0; i < v.size(); ++i)
    ASSERT_TRUE(same_value(ps.values()[i], fp32_op(AluOp::multiply, v[i], 1.5f)));
  core.activation(ps2, ps, Activation::identity);  // read and write PSUM
  EXPECT_EQ(ps2.values(), ps.values());
  Tile out = core.sbuf("out", P, F, DType::bf16);
  core.tensor_tensor(out, ps, s, AluOp::add);  // one PSUM operand
  EXPECT_THROW(core.tensor_tensor(out, ps, ps2, AluOp::add), trncore::NotSupported);
  Tile wrong = core.sbuf("w", P, F + 1, DType::fp32);
  EXPECT_THROW(core.tensor_tensor(wrong, s, s, AluOp::add), trncore::DimensionMismatch);
  Tile ints = core.sbuf("i", P, F, DType::int32);
  EXPECT_THROW(core.copy(ints, s), trncore::InvalidArgument);
  WriteOptions bad;
  bad.rounding.sr_bits = 0;
  bad.rounding.mode = trncore::RoundingMode::stochastic;
  EXPECT_THROW(core.copy(out, s, bad), trncore::InvalidArgument);
}

// The documented special-value rules: max/min are maximumNumber/minimumNumber (NaN loses, −0 < +0) and
// every activation propagates NaN.
TEST(SimEngines, SpecialValueRules) {
  NeuronCore core;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tile a = load(core, "a", 1, 4, DType::fp32, {-0.0f, 0.0f, nan, -inf});
  Tile b = load(core, "b", 1, 4, DType::fp32, {0.0f, -0.0f, 2.0f, nan});
  Tile o = core.sbuf("o", 1, 4, DType::fp32);
  core.tensor_tensor(o, a, b, AluOp::max);
  EXPECT_EQ(bits(o.value(0, 0)), bits(0.0f));
  EXPECT_EQ(bits(o.value(0, 1)), bits(0.0f));
  EXPECT_EQ(o.value(0, 2), 2.0f);
  EXPECT_EQ(o.value(0, 3), -inf);
  core.tensor_tensor(o, a, b, AluOp::min);
  EXPECT_EQ(bits(o.value(0, 0)), bits(-0.0f));
  EXPECT_EQ(bits(o.value(0, 1)), bits(-0.0f));
  EXPECT_EQ(o.value(0, 2), 2.0f);
  for (Activation f :
       {Activation::identity, Activation::relu, Activation::gelu, Activation::sigmoid, Activation::exp}) {
    core.activation(o, a, f);
    EXPECT_TRUE(std::isnan(o.value(0, 2))) << static_cast<int>(f);
  }
}

double activate_ld(Activation f, long double x) {
  switch (f) {
    case Activation::identity: return static_cast<double>(x);
    case Activation::exp: return static_cast<double>(std::exp(x));
    case Activation::log: return static_cast<double>(std::log(x));
    case Activation::sqrt: return static_cast<double>(std::sqrt(x));
    case Activation::rsqrt: return static_cast<double>(1.0L / std::sqrt(x));
    case Activation::square: return static_cast<double>(x * x);
    case Activation::reciprocal: return static_cast<double>(1.0L / x);
    case Activation::sin: return static_cast<double>(std::sin(x));
    case Activation::cos: return static_cast<double>(std::cos(x));
    case Activation::tanh: return static_cast<double>(std::tanh(x));
    case Activation::sigmoid: return static_cast<double>(1.0L / (1.0L + std::exp(-x)));
    case Activation::relu: return static_cast<double>(x > 0 ? x : 0.0L);
    case Activation::gelu: return static_cast<double>(0.5L * x * std::erfc(-x / std::sqrt(2.0L)));
    case Activation::silu: return static_cast<double>(x / (1.0L + std::exp(-x)));
  }
  return 0;
}

// fp32 ulp at |v| (subnormal spacing below 2^-126).
double ulp32(double v) { return std::ldexp(1.0, std::max(std::ilogb(v), -126) - 23); }

// activation = f of the fp32 value fl(fl(scale·in) + bias), rounded to fp32, then written. Oracle: f in
// long double (64-bit significand; glibc's long-double functions err by a few ulps of 2^-64). The fp32
// result y must satisfy |y − f(x)| ≤ ulp32/2 + 2^-40·|f(x)|: the model's double evaluation errs by a few
// ulps of 2^-53 relative and one rounding to fp32 adds at most half an fp32 ulp; 2^-40 covers both oracle
// and model evaluation errors many times over. The bf16 write is then checked exactly against encode().
TEST(SimEngines, ActivationIsFOfTheAffineInputRoundedOnce) {
  const std::int64_t P = 8, F = 64;
  NeuronCore core;
  auto v = random_values(P * F, DType::fp32, 9, false);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] *= static_cast<float>(1 + i % 7);  // spread to ±20
  Tile in = load(core, "in", P, F, DType::fp32, v);
  Tile out = core.sbuf("out", P, F, DType::fp32), out16 = core.sbuf("out16", P, F, DType::bf16);
  const float scale = 0.75f, bias = -0.125f;
  WriteOptions sr;
  sr.rounding.mode = trncore::RoundingMode::stochastic;
  sr.seed = 3;
  for (Activation f : {Activation::identity, Activation::exp, Activation::log, Activation::sqrt, Activation::rsqrt,
                       Activation::square, Activation::reciprocal, Activation::sin, Activation::cos, Activation::tanh,
                       Activation::sigmoid, Activation::relu, Activation::gelu, Activation::silu}) {
    core.activation(out, in, f, scale, bias);
    core.activation(out16, in, f, scale, bias, sr);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const float x = fp32_op(AluOp::add, fp32_op(AluOp::multiply, v[i], scale), bias);
      const double want = activate_ld(f, static_cast<long double>(x));
      const float y = out.values()[i];
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(y)) << static_cast<int>(f) << " x = " << x;
      } else if (std::isinf(want) || std::abs(want) > 0x1.fffffep127) {
        ASSERT_EQ(y, static_cast<float>(want)) << static_cast<int>(f) << " x = " << x;
      } else {
        ASSERT_LE(std::abs(y - want), 0.5 * ulp32(want) + 0x1p-40 * std::abs(want))
            << static_cast<int>(f) << " x = " << x << " y = " << y << " want " << want;
      }
      ASSERT_TRUE(same_value(out16.values()[i], written(DType::bf16, y, sr, i))) << static_cast<int>(f) << " " << i;
    }
  }
}

// The activations the model defines as correctly rounded fp32 values, bit for bit: exp/log/sin/cos equal
// trncore's correctly rounded functions (themselves checked against MPFR in correctly_rounded_test.cpp);
// identity/square/sqrt/reciprocal equal the long double result rounded to float — correctly rounded, since
// long double's 64 bits ≥ 2·24 + 2 make the double rounding innocuous and those long double ops are IEEE.
TEST(SimEngines, CorrectlyRoundedActivationsBitForBit) {
  const std::int64_t P = 16, F = 256;
  NeuronCore core;
  auto v = random_values(P * F, DType::fp32, 21, true);
  for (std::size_t i = 0; i < v.size(); i += 3) v[i] = std::ldexp(v[i], static_cast<int>(i % 61) - 30);  // many binades
  Tile in = load(core, "in", P, F, DType::fp32, v);
  Tile out = core.sbuf("out", P, F, DType::fp32);
  const float scale = 1.5f, bias = 0.25f;
  for (Activation f : {Activation::exp, Activation::log, Activation::sin, Activation::cos, Activation::identity,
                       Activation::square, Activation::sqrt, Activation::reciprocal}) {
    core.activation(out, in, f, scale, bias);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const float x = fp32_op(AluOp::add, fp32_op(AluOp::multiply, v[i], scale), bias);
      const long double l = x;
      float want = 0;
      switch (f) {
        case Activation::exp: want = trncore::cr_exp(x); break;
        case Activation::log: want = trncore::cr_log(x); break;
        case Activation::sin: want = trncore::cr_sin(x); break;
        case Activation::cos: want = trncore::cr_cos(x); break;
        case Activation::identity: want = x; break;
        case Activation::square: want = static_cast<float>(l * l); break;
        case Activation::sqrt: want = static_cast<float>(std::sqrt(l)); break;
        default: want = static_cast<float>(1.0L / l); break;
      }
      ASSERT_TRUE(same_value(out.values()[i], want)) << static_cast<int>(f) << " x = " << std::hexfloat << x;
    }
  }
}

TEST(SimEngines, GpSimdIntegerOpsAndIota) {
  const std::int64_t P = 3, F = 40;
  NeuronCore core;
  Tile a = core.sbuf("a", P, F, DType::uint32), b = core.sbuf("b", P, F, DType::uint32),
       o = core.sbuf("o", P, F, DType::uint32);
  core.iota(a, 0xFFFFFFF0LL, 0x12345679, 0x9E3779B9LL);
  core.iota(b, 0, 1, 1);  // 0 … 41: shift counts past 32 included
  for (std::int64_t p = 0; p < P; ++p)
    for (std::int64_t f = 0; f < F; ++f) {
      ASSERT_EQ(a.word(p, f), static_cast<std::uint32_t>(0xFFFFFFF0ull + 0x12345679ull * static_cast<std::uint64_t>(p) +
                                                         0x9E3779B9ull * static_cast<std::uint64_t>(f)));
      ASSERT_EQ(b.word(p, f), static_cast<std::uint32_t>(p + f));
    }
  // Extreme steps: the result is the exact value mod 2^32, with no signed overflow on the way.
  Tile e = core.sbuf("e", P, F, DType::int32);
  core.iota(e, INT64_MIN, INT64_MAX, INT64_MIN + 3);
  for (std::int64_t p = 0; p < P; ++p)
    for (std::int64_t f = 0; f < F; ++f) {
      // Reduce each term mod 2^32 first (the library reduces last): the same residue, computed differently.
      const std::uint64_t lo_min = 0, lo_max = 0xFFFFFFFFu,
                          lo_step = 3;  // INT64_MIN, INT64_MAX, INT64_MIN + 3 mod 2^32
      const std::uint64_t exact =
          lo_min + static_cast<std::uint64_t>(p) * lo_max + static_cast<std::uint64_t>(f) * lo_step;
      ASSERT_EQ(e.word(p, f), static_cast<std::uint32_t>(exact));
    }
  auto check = [&](IntOp op, auto want) {
    core.integer_op(o, a, b, op);
    for (std::size_t i = 0; i < o.words().size(); ++i)
      ASSERT_EQ(o.words()[i],
                static_cast<std::uint32_t>(want(std::uint64_t{a.words()[i]}, std::uint64_t{b.words()[i]})))
          << static_cast<int>(op) << " " << i;
  };
  check(IntOp::add, [](std::uint64_t x, std::uint64_t y) { return x + y; });
  check(IntOp::subtract, [](std::uint64_t x, std::uint64_t y) { return x - y; });
  check(IntOp::multiply_low, [](std::uint64_t x, std::uint64_t y) { return x * y; });
  check(IntOp::multiply_high, [](std::uint64_t x, std::uint64_t y) { return (x * y) >> 32; });
  check(IntOp::bit_and, [](std::uint64_t x, std::uint64_t y) { return x & y; });
  check(IntOp::bit_or, [](std::uint64_t x, std::uint64_t y) { return x | y; });
  check(IntOp::bit_xor, [](std::uint64_t x, std::uint64_t y) { return x ^ y; });
  check(IntOp::shift_left, [](std::uint64_t x, std::uint64_t y) { return y >= 32 ? 0 : x << y; });
  check(IntOp::shift_right, [](std::uint64_t x, std::uint64_t y) { return y >= 32 ? 0 : x >> y; });
  check(IntOp::rotate_left, [](std::uint64_t x, std::uint64_t y) {
    const std::uint64_t r = y % 32;
    return r == 0 ? x : (x << r) | (x >> (32 - r));
  });
  Tile f = core.sbuf("f", P, F, DType::fp32);
  EXPECT_THROW(core.integer_op(o, a, f, IntOp::add), trncore::InvalidArgument);
  Tile ps = core.psum("ps", P, F);
  EXPECT_THROW(core.integer_op(o, a, ps, IntOp::add), trncore::NotSupported);  // GpSimd cannot access PSUM
  EXPECT_THROW(core.iota(ps, 0, 1, 1), trncore::NotSupported);
  EXPECT_THROW(core.iota(f, 0, 1, 1), trncore::InvalidArgument);
  Tile small = core.sbuf("small", P, F - 1, DType::uint32);
  EXPECT_THROW(core.integer_op(small, a, b, IntOp::add), trncore::DimensionMismatch);
}

TEST(SimEngines, DmaStridesBoundsTypesAndExactValues) {
  NeuronCore core;
  std::vector<float> v(100);
  for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  HbmBuffer h = hbm("h", DType::fp32, v);
  Tile t = core.sbuf("t", 3, 4, DType::fp32);
  core.dma_to_tile(t, h, 5, 20, 2);  // t(p, f) = h[5 + 20p + 2f]
  for (std::int64_t p = 0; p < 3; ++p)
    for (std::int64_t f = 0; f < 4; ++f) EXPECT_EQ(t.value(p, f), static_cast<float>(5 + 20 * p + 2 * f));
  core.dma_to_tile(t, h, 0, 0, 1);  // partition stride 0: every partition reads the same row
  EXPECT_EQ(t.value(2, 3), 3.0f);
  try {
    core.dma_to_tile(t, h, 60, 20, 2);
    FAIL() << "read past the end";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("reaches element 106 of HBM buffer 'h' of size 100"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(core.dma_to_tile(t, h, 0, INT64_MAX, 1), trncore::InvalidArgument);  // no overflow on the way
  EXPECT_THROW(core.dma_to_tile(t, h, -1, 4), trncore::InvalidArgument);
  EXPECT_THROW(core.dma_to_tile(t, h, 0, 4, 0), trncore::InvalidArgument);
  HbmBuffer out = hbm("out", DType::fp32, std::vector<float>(12));
  core.dma_to_hbm(out, t, 0, 4);
  EXPECT_EQ(out.values[11], t.value(2, 3));
  EXPECT_THROW(core.dma_to_hbm(out, t, 1, 4), trncore::InvalidArgument);
  HbmBuffer bf = hbm("bf", DType::bf16, std::vector<float>(12));
  EXPECT_THROW(core.dma_to_tile(t, bf, 0, 4), trncore::InvalidArgument);  // DMA does not convert
  Tile tb = core.sbuf("tb", 3, 4, DType::bf16);
  bf.values[7] = 1.0f + 0x1p-10f;  // not a bf16 value
  try {
    core.dma_to_tile(tb, bf, 0, 4);
    FAIL() << "a non-bf16 value was loaded into a bf16 tile";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("element 7 of HBM buffer 'bf'"), std::string::npos) << e.what();
  }
  bf.values[7] = std::numeric_limits<float>::quiet_NaN();
  core.dma_to_tile(tb, bf, 0, 4);  // NaN and −0 are bf16 values
  EXPECT_TRUE(std::isnan(tb.value(1, 3)));
  HbmBuffer e4 = hbm("e4", DType::fp8_e4m3, std::vector<float>(12, std::numeric_limits<float>::infinity()));
  Tile t8 = core.sbuf("t8", 3, 4, DType::fp8_e4m3);
  EXPECT_THROW(core.dma_to_tile(t8, e4, 0, 4), trncore::InvalidArgument);  // e4m3 has no infinity
  Tile ps = core.psum("ps", 3, 4);
  EXPECT_THROW(core.dma_to_tile(ps, h, 0, 4), trncore::NotSupported);
  HbmBuffer words;
  words.name = "words";
  words.type = DType::uint32;
  words.words = {1, 2, 3, 4, 5, 6};
  Tile tw = core.sbuf("tw", 2, 3, DType::uint32);
  core.dma_to_tile(tw, words, 0, 3);
  EXPECT_EQ(tw.word(1, 2), 6u);
  EXPECT_EQ(core.stats()[Engine::dma].bytes, 3 * 12 * 4 + 12 * 2 + 6 * 4);  // 2 fp32 loads + 1 store, bf16, uint32
}

}  // namespace

namespace {

TEST(SimEngines, CopyConvertsIntegersToFloatWithOneRounding) {
  // Oracle: the integer's exact value rounded by trncore's encoder (MPFR-checked in format_oracle_test):
  // first to fp32 with nearest-even (the engine's conversion), then to the out type.
  trncore::sim::NeuronCore core;
  const std::vector<std::uint32_t> words = {
      0u, 1u, 255u, (1u << 24), (1u << 24) + 1, (1u << 24) + 3, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 12345678u};
  const auto n = static_cast<std::int64_t>(words.size());
  for (const auto in_type : {trncore::sim::DType::uint32, trncore::sim::DType::int32}) {
    trncore::sim::Tile in = core.sbuf("in", 1, n, in_type);
    trncore::sim::HbmBuffer src{"src", in_type, {}, words};
    core.dma_to_tile(in, src, 0, 0, 1);
    for (const auto out_type : {trncore::sim::DType::fp32, trncore::sim::DType::bf16}) {
      trncore::sim::Tile out = core.sbuf("out", 1, n, out_type);
      core.copy(out, in);
      for (std::int64_t i = 0; i < n; ++i) {
        const std::uint32_t w = words[static_cast<std::size_t>(i)];
        const double exact = in_type == trncore::sim::DType::int32 ? static_cast<double>(static_cast<std::int32_t>(w))
                                                                   : static_cast<double>(w);
        const float fp32 = static_cast<float>(
            trncore::decode(trncore::formats::fp32, trncore::encode(trncore::formats::fp32, exact, {})));
        const float want = out_type == trncore::sim::DType::fp32
                               ? fp32
                               : static_cast<float>(trncore::decode(trncore::formats::bf16,
                                                                    trncore::encode(trncore::formats::bf16, fp32, {})));
        EXPECT_EQ(out.value(0, i), want) << i;
      }
    }
  }
  trncore::sim::Tile bad_out = core.sbuf("bad", 1, n, trncore::sim::DType::uint32);
  trncore::sim::Tile in = core.sbuf("in2", 1, n, trncore::sim::DType::uint32);
  EXPECT_THROW(core.copy(bad_out, in), trncore::InvalidArgument);
  trncore::sim::Tile short_out = core.sbuf("short", 1, n - 1, trncore::sim::DType::fp32);
  EXPECT_THROW(core.copy(short_out, in), trncore::DimensionMismatch);
}

}  // namespace
