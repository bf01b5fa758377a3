// The modelled NeuronCore's TensorEngine and memories: tiled matmuls against the scalar TensorEngine
// reference (bit for bit, every input type, both product models, shapes at the engine's edges), PSUM
// accumulation, transpose, the TensorEngine limits, and capacity errors with their messages.
#include "sim_test_support.hpp"

#include <trncore/error.hpp>
#include <trncore/sim/matmul.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

namespace {

using namespace sim_test;

// stationaryᵀ (stored K×M, row-major) as the row-major M×K matrix matmul_psum_reference takes.
std::vector<float> transpose_of(const std::vector<float>& km, std::int64_t k, std::int64_t m) {
  std::vector<float> mk(km.size());
  for (std::int64_t p = 0; p < k; ++p)
    for (std::int64_t i = 0; i < m; ++i)
      mk[static_cast<std::size_t>(i * k + p)] = km[static_cast<std::size_t>(p * m + i)];
  return mk;
}

// C (M×N) = Aᵀ-stationary K-tiles of at most 128 partitions accumulated into one PSUM tile, against the
// scalar reference of DESIGN.md §4.3 over the whole K. Oracle: matmul_psum_reference, which rounds
// products with encode()/decode() rather than the fast path's bit trick. Both canonicalise NaN, so the
// comparison is on bits, NaN included. Inputs carry subnormals, ±0, inf and NaN.
TEST(SimCore, TiledMatmulAcrossKEqualsTheScalarReferenceBitwise) {
  const std::vector<std::array<std::int64_t, 3>> shapes = {// m, n, k
                                                           {1, 1, 1},       {1, 512, 128},   {128, 1, 127},
                                                           {127, 127, 127}, {128, 128, 128}, {128, 512, 300},
                                                           {127, 511, 129}, {5, 7, 257},     {128, 3, 1}};
  for (ProductModel model : {ProductModel::exact, ProductModel::bf16})
    for (DType t : {DType::bf16, DType::fp16, DType::fp8_e4m3, DType::fp8_e5m2, DType::tf32, DType::fp32})
      for (auto [m, n, k] : shapes) {
        NeuronCore core(Generation::trn2, model);
        const auto a = random_values(static_cast<std::size_t>(k * m), t, 1 + static_cast<std::uint64_t>(k), true);
        const auto b = random_values(static_cast<std::size_t>(k * n), t, 2 + static_cast<std::uint64_t>(k), true);
        const HbmBuffer ha = hbm("A", t, a), hb = hbm("B", t, b);
        Tile acc = core.psum("acc", m, n);
        for (std::int64_t k0 = 0; k0 < k; k0 += 128) {
          const std::int64_t kt = std::min<std::int64_t>(128, k - k0);
          Tile st = core.sbuf("st", kt, m, t), mv = core.sbuf("mv", kt, n, t);
          core.dma_to_tile(st, ha, k0 * m, m);
          core.dma_to_tile(mv, hb, k0 * n, n);
          core.matmul(acc, st, mv, /*accumulate=*/k0 > 0);
        }
        const auto at = transpose_of(a, k, m);
        std::vector<float> ref(static_cast<std::size_t>(m * n));
        MatmulOptions o;
        o.product = model;
        matmul_psum_reference(m, n, k, at.data(), k, b.data(), n, ref.data(), n, o);
        for (std::size_t i = 0; i < ref.size(); ++i)
          ASSERT_EQ(bits(acc.values()[i]), bits(ref[i]))
              << to_string(t) << " " << to_string(model) << " " << m << "x" << n << "x" << k << " element " << i;
      }
}

// accumulate = true continues the sequence already in PSUM, whatever put it there; accumulate = false
// starts again from +0. Oracle: the reference with options.accumulate on the same C.
TEST(SimCore, PsumAccumulationContinuesTheSequence) {
  const std::int64_t m = 9, n = 33, k = 17;
  NeuronCore core(Generation::trn1);  // bf16 products by default
  EXPECT_EQ(core.product_model(), ProductModel::bf16);
  const auto a1 = random_values(k * m, DType::bf16, 11, true), b1 = random_values(k * n, DType::bf16, 12, true);
  const auto a2 = random_values(k * m, DType::bf16, 13, true), b2 = random_values(k * n, DType::bf16, 14, true);
  Tile acc = core.psum("acc", m, n);
  Tile s1 = load(core, "s1", k, m, DType::bf16, a1), m1 = load(core, "m1", k, n, DType::bf16, b1);
  Tile s2 = load(core, "s2", k, m, DType::bf16, a2), m2 = load(core, "m2", k, n, DType::bf16, b2);
  core.matmul(acc, s1, m1, true);  // accumulate onto the zero-filled PSUM: same as starting from +0 …
  core.matmul(acc, s2, m2, true);  // … then continue
  std::vector<float> ref(m * n, 0.0f);
  MatmulOptions o;  // bf16 products, trn1's default
  o.accumulate = true;
  const auto t1 = transpose_of(a1, k, m), t2 = transpose_of(a2, k, m);
  matmul_psum_reference(m, n, k, t1.data(), k, b1.data(), n, ref.data(), n, o);
  matmul_psum_reference(m, n, k, t2.data(), k, b2.data(), n, ref.data(), n, o);
  for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(bits(acc.values()[i]), bits(ref[i])) << i;
  core.matmul(acc, s2, m2, false);  // restart
  o.accumulate = false;
  matmul_psum_reference(m, n, k, t2.data(), k, b2.data(), n, ref.data(), n, o);
  for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(bits(acc.values()[i]), bits(ref[i])) << i;
}

TEST(SimCore, TensorEngineLimitsAndShapesAreChecked) {
  NeuronCore core;
  Tile st = core.sbuf("st", 128, 128, DType::bf16), mv = core.sbuf("mv", 128, 513, DType::bf16);
  Tile out = core.psum("out", 128, 513);
  try {
    core.matmul(out, st, mv, false);
    FAIL() << "N = 513 accepted";
  } catch (const trncore::ResourceExhausted& e) {
    EXPECT_NE(std::string(e.what()).find("N = 513"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("N <= 512"), std::string::npos) << e.what();
  }
  Tile wide = core.sbuf("wide", 128, 129, DType::bf16), mv1 = core.sbuf("mv1", 128, 8, DType::bf16);
  Tile out129 = core.psum("out129", 128, 8);
  try {
    core.matmul(out129, wide, mv1, false);  // M = 129
    FAIL() << "M = 129 accepted";
  } catch (const trncore::ResourceExhausted& e) {
    EXPECT_NE(std::string(e.what()).find("M = 129"), std::string::npos) << e.what();
  }
  // K = 129 cannot even be allocated: the contraction dimension is the partition dimension.
  EXPECT_THROW((void)core.sbuf("k129", 129, 8, DType::bf16), trncore::ResourceExhausted);
  Tile mv2 = core.sbuf("mv2", 127, 16, DType::bf16), out2 = core.psum("out2", 128, 16);
  EXPECT_THROW(core.matmul(out2, st, mv2, false), trncore::DimensionMismatch);  // K differs
  Tile mv3 = core.sbuf("mv3", 128, 16, DType::bf16), out3 = core.psum("out3", 127, 16);
  EXPECT_THROW(core.matmul(out3, st, mv3, false), trncore::DimensionMismatch);  // output not M × N
  Tile mixed = core.sbuf("mixed", 128, 16, DType::fp16);
  EXPECT_THROW(core.matmul(out2, st, mixed, false), trncore::InvalidArgument);  // types differ
  Tile ints = core.sbuf("ints", 128, 16, DType::int32);
  EXPECT_THROW(core.matmul(out2, st, ints, false), trncore::InvalidArgument);  // integer input
  Tile not_psum = core.sbuf("not_psum", 128, 16, DType::fp32);
  EXPECT_THROW(core.matmul(not_psum, st, mv3, false), trncore::InvalidArgument);  // NKI: output in PSUM
  EXPECT_THROW(core.matmul(out2, st, out2, false), trncore::InvalidArgument);     // NKI: inputs in SBUF
  Tile empty;
  EXPECT_THROW(core.matmul(out2, empty, mv3, false), trncore::InvalidArgument);
  EXPECT_EQ(empty.partitions(), 0);                         // an empty tile's metadata is readable
  EXPECT_EQ(core.stats()[Engine::tensor].instructions, 0);  // nothing that threw was counted
}

// transpose is an exact copy of every value, −0, subnormals, inf and NaN payloads included (NKI documents
// the TensorEngine transpose as bit-accurate from NeuronCore-v3 on), under either product model.
TEST(SimCore, TransposeIsAnExactCopy) {
  for (ProductModel model : {ProductModel::exact, ProductModel::bf16})
    for (DType t : {DType::fp32, DType::bf16, DType::fp8_e4m3})
      for (auto [p, f] : std::vector<std::array<std::int64_t, 2>>{{1, 1}, {128, 128}, {3, 127}, {128, 1}}) {
        NeuronCore core(Generation::trn2, model);
        const auto v = random_values(static_cast<std::size_t>(p * f), t, 21, true);
        Tile in = load(core, "in", p, f, t, v);
        Tile out = core.psum("out", f, p);
        core.transpose(out, in);
        for (std::int64_t i = 0; i < p; ++i)
          for (std::int64_t j = 0; j < f; ++j)
            ASSERT_EQ(bits(out.value(j, i)), bits(v[static_cast<std::size_t>(i * f + j)])) << to_string(t);
      }
  NeuronCore core;
  Tile big = core.sbuf("big", 128, 129, DType::fp32), out = core.psum("o", 128, 128);
  EXPECT_THROW(core.transpose(out, big), trncore::ResourceExhausted);
  Tile in = core.sbuf("in", 4, 8, DType::fp32), wrong = core.psum("wrong", 4, 8);
  EXPECT_THROW(core.transpose(wrong, in), trncore::DimensionMismatch);
  Tile sbuf_out = core.sbuf("sbuf_out", 8, 4, DType::fp32);
  EXPECT_THROW(core.transpose(sbuf_out, in), trncore::InvalidArgument);
}

TEST(SimCore, CapacityIsEnforcedAndNamedAndFreedTilesGiveItBack) {
  NeuronCore core(Generation::trn1);
  const std::int64_t sbuf = core.spec().sbuf_bytes_per_partition;
  EXPECT_EQ(sbuf, 192 * 1024);
  {
    Tile a = core.sbuf("a", 128, sbuf / 4, DType::fp32);  // exactly full
    EXPECT_EQ(core.sbuf_bytes_in_use(), sbuf);
    try {
      (void)core.sbuf("b", 1, 1, DType::fp8_e4m3);
      FAIL() << "allocated past capacity";
    } catch (const trncore::ResourceExhausted& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("trncore::sim::NeuronCore::sbuf: ", 0), 0u) << m;
      EXPECT_NE(m.find("'b' needs 1 bytes per partition"), std::string::npos) << m;
      EXPECT_NE(m.find("has 0 of 196608 left on trn1"), std::string::npos) << m;
    }
  }
  EXPECT_EQ(core.sbuf_bytes_in_use(), 0);
  {
    Tile p = core.psum("p", 128, 4096);  // 16 KiB per partition of fp32: all 8 banks
    EXPECT_EQ(core.psum_bytes_in_use(), 16 * 1024);
  }
  try {
    (void)core.psum("q", 128, 4097);
    FAIL() << "PSUM over capacity accepted";
  } catch (const trncore::ResourceExhausted& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'q' needs 16388 bytes per partition"), std::string::npos) << m;
    EXPECT_NE(m.find("psum has 16384 of 16384 left"), std::string::npos) << m;
  }
  try {
    (void)core.sbuf("tall", 129, 4, DType::bf16);
    FAIL() << "129 partitions accepted";
  } catch (const trncore::ResourceExhausted& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'tall' has 129 partitions, more than the 128"), std::string::npos) << m;
  }
  // A free size so large that free_size · bytes would overflow is refused, not wrapped.
  EXPECT_THROW((void)core.sbuf("huge", 1, std::int64_t{1} << 62, DType::fp32), trncore::ResourceExhausted);
  EXPECT_THROW((void)core.sbuf("z", 0, 4, DType::bf16), trncore::InvalidArgument);
  EXPECT_THROW((void)core.sbuf("z", 4, -1, DType::bf16), trncore::InvalidArgument);
  // Moving a tile moves its bytes with it: they are freed once, by the tile that owns them last.
  {
    Tile a = core.sbuf("a", 2, 1000, DType::bf16);
    Tile b = std::move(a);
    EXPECT_EQ(core.sbuf_bytes_in_use(), 2000);
  }
  EXPECT_EQ(core.sbuf_bytes_in_use(), 0);
  // trn2 and trn3 capacities.
  EXPECT_EQ(NeuronCore(Generation::trn2).spec().sbuf_bytes_per_partition, 224 * 1024);
  EXPECT_EQ(NeuronCore(Generation::trn3).spec().sbuf_bytes_per_partition, 256 * 1024);
}

}  // namespace
