// The modelled NeuronCore's engines against independent computations: tiled matmuls against the scalar
// TensorEngine reference (bit for bit), Vector/Scalar/GpSimd ops against the same arithmetic written
// directly with encode()/<cmath>, limits and messages, hand-computed engine counters, and the documented
// effect of the product model on a split-product correction.
#include <trncore/error.hpp>
#include <trncore/format.hpp>
#include <trncore/philox.hpp>
#include <trncore/sim/matmul.hpp>
#include <trncore/sim/neuron_core.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace trncore::sim;

float round_to(DType t, double x) {
  const auto& f = format_of(t);
  return static_cast<float>(trncore::decode(f, trncore::encode(f, x, trncore::Rounding{})));
}

// Values exact in `t`, with subnormals, zeros of both signs and, when asked, inf and NaN sprinkled in.
std::vector<float> random_values(std::size_t n, DType t, std::uint64_t seed, bool specials) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> pick(0, 99);
  const double tiny = std::ldexp(1.0, format_of(t).emin() - 2);  // a subnormal of the format
  std::vector<float> v(n);
  for (auto& x : v) {
    const int r = pick(rng);
    double y = normal(rng);
    if (r < 3) y = tiny * (r + 1);
    else if (r == 3) y = -0.0;
    else if (specials && r == 4) y = std::numeric_limits<double>::infinity();
    else if (specials && r == 5) y = std::numeric_limits<double>::quiet_NaN();
    x = round_to(t, y);
  }
  return v;
}

HbmBuffer hbm(std::string name, DType t, std::vector<float> values) {
  HbmBuffer b;
  b.name = std::move(name);
  b.type = t;
  b.values = std::move(values);
  return b;
}

bool same_bits(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;  // PSUM NaN payloads are canonical, see matmul.hpp
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

// C (M×N) = Aᵀ-stationary tiles over K in chunks of 128 partitions, accumulating in one PSUM tile.
TEST(SimCore, TiledMatmulAcrossKEqualsTheScalarReference) {
  for (ProductModel model : {ProductModel::exact, ProductModel::bf16})
    for (DType t : {DType::bf16, DType::fp16, DType::fp8_e4m3, DType::fp8_e5m2, DType::fp32})
      for (auto [m, n, k] : std::vector<std::array<std::int64_t, 3>>{{1, 1, 1}, {127, 129, 300}, {128, 512, 128}, {5, 7, 257}}) {
        NeuronCore core(Generation::trn2, model);
        const auto a = random_values(static_cast<std::size_t>(k * m), t, 1 + k, true);  // stored K×M (stationary)
        const auto b = random_values(static_cast<std::size_t>(k * n), t, 2 + k, true);  // K×N (moving)
        const HbmBuffer ha = hbm("A", t, a), hb = hbm("B", t, b);
        Tile acc = core.psum("acc", m, n);
        for (std::int64_t k0 = 0; k0 < k; k0 += 128) {
          const std::int64_t kt = std::min<std::int64_t>(128, k - k0);
          Tile st = core.sbuf("st", kt, m, t), mv = core.sbuf("mv", kt, n, t);
          core.dma_to_tile(st, ha, k0 * m, m);
          core.dma_to_tile(mv, hb, k0 * n, n);
          core.matmul(acc, st, mv, /*accumulate=*/k0 > 0);
        }
        // Reference: row-major A' = stationaryᵀ (M×K) against B (K×N).
        std::vector<float> at(static_cast<std::size_t>(m * k)), ref(static_cast<std::size_t>(m * n));
        for (std::int64_t p = 0; p < k; ++p)
          for (std::int64_t i = 0; i < m; ++i) at[static_cast<std::size_t>(i * k + p)] = a[static_cast<std::size_t>(p * m + i)];
        MatmulOptions o;
        o.product = model;
        matmul_psum_reference(m, n, k, at.data(), k, b.data(), n, ref.data(), n, o);
        for (std::size_t i = 0; i < ref.size(); ++i)
          ASSERT_TRUE(same_bits(acc.values()[i], ref[i])) << to_string(t) << " " << to_string(model) << " " << m
                                                           << "x" << n << "x" << k << " element " << i;
      }
}

TEST(SimCore, TensorEngineLimitsAndShapesAreChecked) {
  NeuronCore core;
  Tile st = core.sbuf("st", 128, 128, DType::bf16), mv = core.sbuf("mv", 128, 513, DType::bf16);
  Tile out = core.psum("out", 128, 513);
  EXPECT_THROW(core.matmul(out, st, mv, false), trncore::ResourceExhausted);  // N = 513 > 512
  Tile mv2 = core.sbuf("mv2", 127, 16, DType::bf16), out2 = core.psum("out2", 128, 16);
  EXPECT_THROW(core.matmul(out2, st, mv2, false), trncore::DimensionMismatch);  // K differs
  Tile mixed = core.sbuf("mixed", 128, 16, DType::fp16);
  EXPECT_THROW(core.matmul(out2, st, mixed, false), trncore::InvalidArgument);
  Tile not_psum = core.sbuf("not_psum", 128, 16, DType::fp32);
  Tile mv3 = core.sbuf("mv3", 128, 16, DType::bf16);
  EXPECT_THROW(core.matmul(not_psum, st, mv3, false), trncore::InvalidArgument);
  EXPECT_THROW(core.sbuf("big", 129, 4, DType::bf16), trncore::ResourceExhausted);
  Tile empty;
  EXPECT_THROW(core.matmul(out2, empty, mv3, false), trncore::InvalidArgument);
}

TEST(SimCore, CapacityIsEnforcedAndNamedAndFreedTilesGiveItBack) {
  NeuronCore core(Generation::trn1);
  const std::int64_t sbuf = core.spec().sbuf_bytes_per_partition;  // 192 KiB on trn1
  {
    Tile a = core.sbuf("a", 128, sbuf / 4, DType::fp32);  // exactly full
    EXPECT_EQ(core.sbuf_bytes_in_use(), sbuf);
    try {
      (void)core.sbuf("b", 1, 1, DType::fp8_e4m3);
      FAIL() << "allocated past capacity";
    } catch (const trncore::ResourceExhausted& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("'b' needs 1 bytes per partition"), std::string::npos) << m;
      EXPECT_NE(m.find("has 0 of " + std::to_string(sbuf) + " left on trn1"), std::string::npos) << m;
    }
  }
  EXPECT_EQ(core.sbuf_bytes_in_use(), 0);
  EXPECT_NO_THROW((void)core.psum("p", 128, 4096));  // 16 KiB per partition of fp32
  EXPECT_THROW((void)core.psum("q", 128, 4097), trncore::ResourceExhausted);
  EXPECT_THROW((void)core.sbuf("z", 0, 4, DType::bf16), trncore::InvalidArgument);
}

TEST(SimCore, VectorOpsRoundTheFp32ResultIntoTheOutputType) {
  NeuronCore core;
  const std::int64_t P = 4, F = 33;
  const auto av = random_values(P * F, DType::fp32, 5, false), bv = random_values(P * F, DType::fp32, 6, false);
  Tile a = core.sbuf("a", P, F, DType::fp32), b = core.sbuf("b", P, F, DType::fp32), out = core.sbuf("o", P, F, DType::bf16);
  core.dma_to_tile(a, hbm("a", DType::fp32, av), 0, F);
  core.dma_to_tile(b, hbm("b", DType::fp32, bv), 0, F);
  core.tensor_tensor(out, a, b, AluOp::multiply);
  for (std::size_t i = 0; i < av.size(); ++i) ASSERT_EQ(out.values()[i], round_to(DType::bf16, av[i] * bv[i]));
  core.tensor_scalar(out, a, 3.0f, AluOp::subtract);
  for (std::size_t i = 0; i < av.size(); ++i) ASSERT_EQ(out.values()[i], round_to(DType::bf16, av[i] - 3.0f));
  // Stochastic rounding: element i draws RandomBits{seed, stream}(i), so the output is the encode() of it.
  WriteOptions sr;
  sr.rounding.mode = trncore::RoundingMode::stochastic;
  sr.seed = 77;
  core.copy(out, a, sr);
  const trncore::RandomBits bits{77, 0};
  for (std::size_t i = 0; i < av.size(); ++i)
    ASSERT_EQ(out.values()[i], static_cast<float>(trncore::decode(
                                   trncore::formats::bf16, trncore::encode(trncore::formats::bf16, av[i], sr.rounding, bits(i)))));
  Tile sums = core.sbuf("s", P, 1, DType::fp32);
  core.reduce(sums, a, ReduceOp::sum);
  for (std::int64_t p = 0; p < P; ++p) {
    float acc = av[static_cast<std::size_t>(p * F)];
    for (std::int64_t f = 1; f < F; ++f) acc += av[static_cast<std::size_t>(p * F + f)];
    EXPECT_EQ(sums.value(p, 0), acc);  // sequential fp32, ascending free index
  }
  Tile psum = core.psum("ps", P, F);
  EXPECT_THROW(core.copy(psum, a), trncore::NotSupported);  // only the TensorEngine writes PSUM
  Tile wrong = core.sbuf("w", P, F + 1, DType::fp32);
  EXPECT_THROW(core.tensor_tensor(wrong, a, b, AluOp::add), trncore::DimensionMismatch);
}

TEST(SimCore, ActivationIsTheCorrectlyRoundedFunctionOfTheAffineInput) {
  NeuronCore core;
  const auto x = random_values(64, DType::fp32, 9, false);
  Tile in = core.sbuf("in", 2, 32, DType::fp32), out = core.sbuf("out", 2, 32, DType::fp32);
  core.dma_to_tile(in, hbm("x", DType::fp32, x), 0, 32);
  for (Activation f : {Activation::exp, Activation::tanh, Activation::gelu, Activation::sigmoid}) {
    core.activation(out, in, f, 0.5f, 0.25f);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double y = static_cast<double>(x[i] * 0.5f + 0.25f);
      const double want = f == Activation::exp    ? std::exp(y)
                          : f == Activation::tanh ? std::tanh(y)
                          : f == Activation::gelu ? 0.5 * y * (1 + std::erf(y / std::sqrt(2.0)))
                                                  : 1 / (1 + std::exp(-y));
      ASSERT_EQ(out.values()[i], static_cast<float>(want)) << i;
    }
  }
}

TEST(SimCore, GpSimdIntegerOpsAndIota) {
  NeuronCore core;
  Tile a = core.sbuf("a", 3, 5, DType::uint32), b = core.sbuf("b", 3, 5, DType::uint32), o = core.sbuf("o", 3, 5, DType::uint32);
  core.iota(a, 0xFFFFFFF0LL, 7, 3);
  core.iota(b, 1, 2, 1);
  for (std::int64_t p = 0; p < 3; ++p)
    for (std::int64_t f = 0; f < 5; ++f) EXPECT_EQ(a.word(p, f), static_cast<std::uint32_t>(0xFFFFFFF0u + 7 * p + 3 * f));
  core.integer_op(o, a, b, IntOp::multiply_low);
  for (std::size_t i = 0; i < o.words().size(); ++i) EXPECT_EQ(o.words()[i], a.words()[i] * b.words()[i]);
  core.integer_op(o, a, b, IntOp::multiply_high);
  for (std::size_t i = 0; i < o.words().size(); ++i)
    EXPECT_EQ(o.words()[i], static_cast<std::uint32_t>((std::uint64_t{a.words()[i]} * b.words()[i]) >> 32));
  core.integer_op(o, a, b, IntOp::rotate_left);
  for (std::size_t i = 0; i < o.words().size(); ++i) EXPECT_EQ(o.words()[i], std::rotl(a.words()[i], static_cast<int>(b.words()[i] % 32)));
  Tile f = core.sbuf("f", 3, 5, DType::fp32);
  EXPECT_THROW(core.integer_op(o, a, f, IntOp::add), trncore::InvalidArgument);
}

TEST(SimCore, DmaStridesAndBounds) {
  NeuronCore core;
  std::vector<float> v(100);
  for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i);
  HbmBuffer h = hbm("h", DType::fp32, v);
  Tile t = core.sbuf("t", 3, 4, DType::fp32);
  core.dma_to_tile(t, h, 5, 20, 2);  // t(p, f) = h[5 + 20p + 2f]
  for (std::int64_t p = 0; p < 3; ++p)
    for (std::int64_t f = 0; f < 4; ++f) EXPECT_EQ(t.value(p, f), static_cast<float>(5 + 20 * p + 2 * f));
  EXPECT_THROW(core.dma_to_tile(t, h, 60, 20, 2), trncore::InvalidArgument);  // reaches element 106
  HbmBuffer out = hbm("out", DType::fp32, std::vector<float>(12));
  core.dma_to_hbm(out, t, 0, 4);
  EXPECT_EQ(out.values[11], t.value(2, 3));
  HbmBuffer bf = hbm("bf", DType::bf16, std::vector<float>(12));
  EXPECT_THROW(core.dma_to_tile(t, bf, 0, 4), trncore::InvalidArgument);  // DMA does not convert
}

// Two matmuls of 128×128×128 bf16 and one DMA, counted by hand from the spec table.
TEST(SimCore, CountersMatchHandComputedValues) {
  NeuronCore core(Generation::trn2);
  const auto& s = core.spec();
  Tile st = core.sbuf("st", 128, 128, DType::bf16), mv = core.sbuf("mv", 128, 128, DType::bf16);
  Tile acc = core.psum("acc", 128, 128);
  core.dma_to_tile(st, hbm("a", DType::bf16, std::vector<float>(128 * 128)), 0, 128);
  core.matmul(acc, st, mv, false);
  core.matmul(acc, st, mv, true);
  const auto& te = core.stats()[Engine::tensor];
  EXPECT_EQ(te.instructions, 2);
  EXPECT_EQ(te.elements, 2 * 128 * 128 * 128);
  // 128³ multiply-adds at the bf16 rate: 2·128³ FLOP / (79 TFLOP/s / clock) = 128 cycles per matmul.
  EXPECT_DOUBLE_EQ(te.cycles, 2 * (128.0 + s.instruction_overhead_cycles));
  const auto& dma = core.stats()[Engine::dma];
  EXPECT_EQ(dma.instructions, 1);
  EXPECT_EQ(dma.bytes, 128 * 128 * 2);
  const CostReport r = core.report();
  EXPECT_DOUBLE_EQ(r.busy_seconds[0], te.cycles / s.clock_hz);
  EXPECT_DOUBLE_EQ(r.busy_seconds[4], 128.0 * 128 * 2 / s.hbm_bytes_per_s + s.instruction_overhead_cycles / s.clock_hz);
  core.reset_stats();
  EXPECT_EQ(core.stats()[Engine::tensor].instructions, 0);
}

// A = A_hi + A_lo, B = B_hi + B_lo with bf16 parts; A_hi·B_hi + A_hi·B_lo + A_lo·B_hi in one PSUM
// accumulation recovers ~16 bits under exact products but gains nothing under bf16-rounded products —
// the effect measured on trn1/trn2. Bounds: one bf16 pass errs ≈ 2^-8 relative per input; the split's
// dropped term A_lo·B_lo and residues are ≈ 2^-16; a bf16-rounded product errs 2^-8 relative again.
TEST(SimCore, ProductModelDecidesWhetherASplitCorrectionHelps) {
  const std::int64_t n = 64;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.5, 1.0);  // positive: no cancellation, relative errors are clean
  std::vector<double> a(n * n), b(n * n);
  for (auto& x : a) x = u(rng);
  for (auto& x : b) x = u(rng);
  auto split = [](const std::vector<double>& x, std::vector<float>& hi, std::vector<float>& lo) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      hi[i] = round_to(DType::bf16, x[i]);
      lo[i] = round_to(DType::bf16, x[i] - hi[i]);
    }
  };
  std::vector<float> ahi(a.size()), alo(a.size()), bhi(b.size()), blo(b.size());
  split(a, ahi, alo);
  split(b, bhi, blo);
  auto max_rel_error = [&](ProductModel model, bool corrected) {
    NeuronCore core(Generation::trn2, model);
    Tile acc = core.psum("acc", n, n);
    auto load = [&](const std::vector<float>& v, bool transpose_for_stationary) {
      Tile t = core.sbuf("t", n, n, DType::bf16);
      std::vector<float> w(v.size());
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j)
          w[static_cast<std::size_t>(i * n + j)] = transpose_for_stationary ? v[static_cast<std::size_t>(j * n + i)] : v[static_cast<std::size_t>(i * n + j)];
      core.dma_to_tile(t, hbm("v", DType::bf16, w), 0, n);
      return t;
    };
    Tile Ah = load(ahi, true), Al = load(alo, true), Bh = load(bhi, false), Bl = load(blo, false);
    core.matmul(acc, Ah, Bh, false);
    if (corrected) {
      core.matmul(acc, Ah, Bl, true);
      core.matmul(acc, Al, Bh, true);
    }
    double worst = 0;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double exact = 0;
        for (std::int64_t k = 0; k < n; ++k) exact += a[static_cast<std::size_t>(i * n + k)] * b[static_cast<std::size_t>(k * n + j)];
        worst = std::max(worst, std::abs(acc.value(i, j) - exact) / exact);
      }
    return worst;
  };
  const double exact_plain = max_rel_error(ProductModel::exact, false);
  const double exact_split = max_rel_error(ProductModel::exact, true);
  const double bf16_plain = max_rel_error(ProductModel::bf16, false);
  const double bf16_split = max_rel_error(ProductModel::bf16, true);
  // Exact products: the split is ≥ 50× better (≈ 2^-9 → fp32-level ≈ 2^-17, with fp32 PSUM rounding γ_192).
  EXPECT_GT(exact_plain, 50 * exact_split) << exact_plain << " vs " << exact_split;
  EXPECT_LT(exact_split, 192 * 0x1p-24 + 0x1p-15);
  // bf16 products: each hi·hi product is rounded to 8 bits, an error the correction terms cannot remove.
  EXPECT_GT(bf16_split, 0.5 * bf16_plain) << bf16_plain << " vs " << bf16_split;
  EXPECT_GT(bf16_split, 10 * exact_split);
}

}  // namespace
