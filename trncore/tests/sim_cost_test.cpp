// The NeuronCore model's engine counters and cost estimate against values computed by hand from the
// published figures, and the documented effect of the product model on a split-product correction,
// checked against error bounds evaluated on the test's own data.
#include "sim_test_support.hpp"

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace sim_test;

// A small kernel on trn2: one DMA, two bf16 128³ matmuls, one fp8 and one fp32 matmul, one VectorEngine
// copy out of PSUM. Hand computation from the published trn2 figures (docs/numerics.md):
//   clock = 79 TFLOP/s / (2 · 128 · 128) = 2.411 GHz, i.e. bf16 runs 16384 multiply-adds per cycle;
//   bf16 matmul: 128³ / 16384 = 128 cycles, + 64 overhead;   fp8 (158 TFLOP/s): 64 + 64 cycles;
//   fp32 (181/8 TFLOP/s): 128³ · 79 / 22.625 / 16384 cycles + 64;
//   copy: 16384 elements at 2.3 TFLOP/s / clock elements per cycle, + 64;
//   DMA: 128·128·2 bytes at 2.9 TB/s / 8 cores, + 64 cycles of issue.
// The fp32 and vector cycle counts are non-integers computed in a different order than the library does,
// so they are compared to 1e-12 relative (a few roundings of 2^-53 each).
TEST(SimCost, CountersMatchHandComputedValues) {
  NeuronCore core(Generation::trn2);
  const double clock = 79e12 / 32768;
  Tile st = core.sbuf("st", 128, 128, DType::bf16), mv = core.sbuf("mv", 128, 128, DType::bf16);
  Tile s8 = core.sbuf("s8", 128, 128, DType::fp8_e5m2), m8 = core.sbuf("m8", 128, 128, DType::fp8_e5m2);
  Tile s32 = core.sbuf("s32", 128, 128, DType::fp32), m32 = core.sbuf("m32", 128, 128, DType::fp32);
  Tile acc = core.psum("acc", 128, 128), out = core.sbuf("out", 128, 128, DType::bf16);
  core.dma_to_tile(st, hbm("a", DType::bf16, std::vector<float>(128 * 128)), 0, 128);
  core.matmul(acc, st, mv, false);
  core.matmul(acc, st, mv, true);
  const auto& te = core.stats()[Engine::tensor];
  EXPECT_EQ(te.instructions, 2);
  EXPECT_EQ(te.elements, 2 * 128 * 128 * 128);
  EXPECT_EQ(te.bytes, 2 * ((128 * 128 + 128 * 128) * 2 + 128 * 128 * 4));
  EXPECT_DOUBLE_EQ(te.cycles, 2 * (128.0 + 64.0));
  core.matmul(acc, s8, m8, true);
  EXPECT_DOUBLE_EQ(te.cycles, 2 * (128.0 + 64.0) + 64.0 + 64.0);
  core.matmul(acc, s32, m32, true);
  const double fp32_cycles = 128.0 * 128 * 128 * 79 / 22.625 / 16384 + 64.0;
  EXPECT_NEAR(te.cycles, 2 * (128.0 + 64.0) + 128.0 + fp32_cycles, 1e-12 * te.cycles);
  core.copy(out, acc);
  const auto& ve = core.stats()[Engine::vector];
  EXPECT_EQ(ve.instructions, 1);
  EXPECT_EQ(ve.elements, 128 * 128);
  EXPECT_EQ(ve.bytes, 128 * 128 * 4 + 128 * 128 * 2);
  EXPECT_NEAR(ve.cycles, 16384 / (2.3e12 / clock) + 64.0, 1e-12 * ve.cycles);
  const auto& dma = core.stats()[Engine::dma];
  EXPECT_EQ(dma.instructions, 1);
  EXPECT_EQ(dma.bytes, 128 * 128 * 2);
  EXPECT_EQ(core.stats()[Engine::scalar], EngineCounters{});
  EXPECT_EQ(core.stats()[Engine::gpsimd], EngineCounters{});

  const CostReport r = core.report();
  const double dma_s = 32768 / (2.9e12 / 8) + 64 / clock;
  EXPECT_NEAR(r.busy_seconds[0], te.cycles / clock, 1e-12 * r.busy_seconds[0]);
  EXPECT_NEAR(r.busy_seconds[1], ve.cycles / clock, 1e-12 * r.busy_seconds[1]);
  EXPECT_NEAR(r.busy_seconds[4], dma_s, 1e-12 * dma_s);
  EXPECT_DOUBLE_EQ(r.lower_bound_seconds, *std::max_element(r.busy_seconds.begin(), r.busy_seconds.end()));
  EXPECT_NEAR(r.upper_bound_seconds, r.busy_seconds[0] + r.busy_seconds[1] + r.busy_seconds[4], 1e-15);
  const std::string text = r.to_string();
  EXPECT_NE(text.find("first-order estimate"), std::string::npos) << text;
  EXPECT_NE(text.find("not a measurement"), std::string::npos) << text;
  core.reset_stats();
  EXPECT_EQ(core.stats(), EngineStats{});
}

// GpSimd and Scalar counters, and that the engines are told apart.
TEST(SimCost, EachEngineCountsItsOwnOps) {
  NeuronCore core(Generation::trn1);
  Tile u = core.sbuf("u", 2, 10, DType::uint32), f = core.sbuf("f", 2, 10, DType::fp32);
  core.iota(u, 0, 1, 1);
  core.integer_op(u, u, u, IntOp::bit_xor);
  core.activation(f, f, Activation::exp);
  EXPECT_EQ(core.stats()[Engine::gpsimd].instructions, 2);
  EXPECT_EQ(core.stats()[Engine::gpsimd].elements, 40);
  EXPECT_EQ(core.stats()[Engine::scalar].instructions, 1);
  const auto& s = core.spec();
  // trn1: ScalarEngine 2.9 TFLOP/s at clock 95 TFLOP/s / 32768 → 20 elements take 20 / (2.9e12 / clock) cycles.
  EXPECT_NEAR(core.stats()[Engine::scalar].cycles, 20 / (2.9e12 / (95e12 / 32768)) + 64, 1e-12 * 64);
  EXPECT_DOUBLE_EQ(s.clock_hz, 95e12 / 32768);
  EXPECT_EQ(core.stats()[Engine::tensor].instructions, 0);
  EXPECT_EQ(parse_engine(to_string(Engine::dma)), Engine::dma);
}

// A = A_hi + A_lo, B = B_hi + B_lo with bf16 parts; C ≈ A_hi·B_hi + A_hi·B_lo + A_lo·B_hi accumulated in
// one PSUM tile. Under exact products the correction recovers ~16 bits; under bf16-rounded products every
// A_hi·B_hi term is itself rounded to 8 bits, an error no correction term removes.
//
// Bounds, per element (i, j), with u = 2^-24 and γ_m = m·u/(1 − m·u) (Higham, Accuracy and Stability,
// Lemma 3.1/§4.2: recursive summation of m terms errs by at most γ_{m−1} times the sum of magnitudes):
// the computed PSUM value is fl-sum of the product terms p_t in a fixed order, so
//     | computed − Σ p_t | ≤ γ_T · Σ |p_t|   (T = number of terms: K for one pass, 3K for the split).
// Σ p_t is evaluated here in double: each p_t is exact in double (a bf16·bf16 product has ≤ 16 bits; a
// bf16 rounding of one too), so only the double summation errs, by ≤ γ^(53)_T Σ|p_t| ≈ 2^-46 Σ|p_t|, and
// the exact C = Σ a·b carries the same order of error; 2^-40 · Σ|p_t| covers both. With d = |Σ p_t − C|:
//     d − slack ≤ |computed − C| ≤ d + slack,  slack = (γ_T + 2^-40) · Σ|p_t|.
// The test asserts each measured error lies in its interval (so the engine used the stated product model),
// then that the intervals themselves imply the claims: under exact products the split's worst error is
// at least 32× below the single pass's; under bf16 products it is within a factor 2 of it.
TEST(SimCost, ProductModelDecidesWhetherASplitCorrectionHelps) {
  const std::int64_t n = 64;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> uniform(0.5, 1.0);  // positive: no cancellation, C ≥ n/4
  std::vector<double> a(n * n), b(n * n);                    // row-major A (n×n) and B (n×n)
  for (auto& x : a) x = uniform(rng);
  for (auto& x : b) x = uniform(rng);
  std::vector<float> ahi(a.size()), alo(a.size()), bhi(b.size()), blo(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ahi[i] = round_to(DType::bf16, a[i]);
    alo[i] = round_to(DType::bf16, a[i] - ahi[i]);
    bhi[i] = round_to(DType::bf16, b[i]);
    blo[i] = round_to(DType::bf16, b[i] - bhi[i]);
  }
  const auto at = [=](const std::vector<float>& v) {  // A (M×K) → stationary layout K×M
    std::vector<float> w(v.size());
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t k = 0; k < n; ++k)
        w[static_cast<std::size_t>(k * n + i)] = v[static_cast<std::size_t>(i * n + k)];
    return w;
  };
  const auto idx = [=](std::int64_t r, std::int64_t c) { return static_cast<std::size_t>(r * n + c); };

  struct Errors {
    double measured = 0, lower = 0, upper = 0;  // worst relative error over elements, and its bounds
  };
  auto run = [&](ProductModel model, bool split) {
    NeuronCore core(Generation::trn2, model);
    Tile acc = core.psum("acc", n, n);
    Tile Ah = load(core, "Ah", n, n, DType::bf16, at(ahi)), Al = load(core, "Al", n, n, DType::bf16, at(alo));
    Tile Bh = load(core, "Bh", n, n, DType::bf16, bhi), Bl = load(core, "Bl", n, n, DType::bf16, blo);
    core.matmul(acc, Ah, Bh, false);
    if (split) {
      core.matmul(acc, Ah, Bl, true);
      core.matmul(acc, Al, Bh, true);
    }
    const auto rp = [model](double p) {
      return model == ProductModel::exact ? p : static_cast<double>(round_to(DType::bf16, p));
    };
    const double T = split ? 3.0 * n : 1.0 * n;
    const double gamma = T * 0x1p-24 / (1 - T * 0x1p-24);
    Errors e;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double c = 0, sum = 0, mag = 0;
        for (std::int64_t k = 0; k < n; ++k) {
          c += a[idx(i, k)] * b[idx(k, j)];
          const double hh = rp(static_cast<double>(ahi[idx(i, k)]) * bhi[idx(k, j)]);
          const double hl = split ? rp(static_cast<double>(ahi[idx(i, k)]) * blo[idx(k, j)]) : 0.0;
          const double lh = split ? rp(static_cast<double>(alo[idx(i, k)]) * bhi[idx(k, j)]) : 0.0;
          sum += hh + hl + lh;
          mag += std::abs(hh) + std::abs(hl) + std::abs(lh);  // the lo parts carry either sign
        }
        const double d = std::abs(sum - c), slack = (gamma + 0x1p-40) * mag;
        const double measured = std::abs(static_cast<double>(acc.value(i, j)) - c);
        EXPECT_LE(measured, d + slack) << to_string(model) << " split " << split << " (" << i << "," << j << ")";
        EXPECT_GE(measured, d - slack) << to_string(model) << " split " << split << " (" << i << "," << j << ")";
        e.measured = std::max(e.measured, measured / c);
        e.lower = std::max(e.lower, (d - slack) / c);
        e.upper = std::max(e.upper, (d + slack) / c);
      }
    return e;
  };
  const Errors exact_plain = run(ProductModel::exact, false), exact_split = run(ProductModel::exact, true);
  const Errors bf16_plain = run(ProductModel::bf16, false), bf16_split = run(ProductModel::bf16, true);
  // What the bounds imply, whatever the engine returned inside them:
  EXPECT_GE(exact_plain.lower, 32 * exact_split.upper) << exact_plain.lower << " vs " << exact_split.upper;
  EXPECT_LE(bf16_plain.upper, 2 * bf16_split.lower) << bf16_plain.upper << " vs " << bf16_split.lower;
  // And the measured worst errors, for the record in the failure message.
  EXPECT_GT(exact_plain.measured, 32 * exact_split.measured) << exact_plain.measured << " " << exact_split.measured;
  EXPECT_LT(bf16_plain.measured, 2 * bf16_split.measured) << bf16_plain.measured << " " << bf16_split.measured;
}

}  // namespace
