// Loop structure: virtual blocks (a, b) of ≤ 128 outermost, so the denominator tile e_a + e_b is built once
// per block; occupied pairs innermost, accumulating into per-block tiles that stay on the core; each
// block's accumulator is reduced to one value at the end. On hardware (ia|jb) would stay in PSUM; here it
// arrives by DMA from the product's result, so the DMA counters include it.
#include "dfmp2/energy_stage.hpp"

#include "dfmp2/float_float_tiles.hpp"

#include <trncore/sim/neuron_core.hpp>

#include <algorithm>
#include <bit>
#include <string>

namespace trnblas::detail {

namespace {

using trncore::sim::AluOp;
using trncore::sim::DType;
using trncore::sim::HbmBuffer;
using trncore::sim::NeuronCore;
using trncore::sim::ReduceOp;
using trncore::sim::Tile;

// x = hi + lo with hi = fl32(x), lo = fl32(x − hi): |x − hi − lo| ≤ 2^-48|x| (x − hi is exact in double).
struct Words {
  HbmBuffer hi, lo;
};
Words split_words(const std::string& name, const double* x, std::int64_t n) {
  Words w{{name + ".hi", DType::fp32, {}, {}}, {name + ".lo", DType::fp32, {}, {}}};
  w.hi.values.resize(static_cast<std::size_t>(n));
  w.lo.values.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const float h = static_cast<float>(x[i]);
    w.hi.values[static_cast<std::size_t>(i)] = h;
    w.lo.values[static_cast<std::size_t>(i)] = static_cast<float>(x[i] - static_cast<double>(h));
  }
  return w;
}

// One stage run: the core, the inputs in HBM, and the block loop.
class Stage {
 public:
  Stage(const PairProducts& k, const double* eps_occ, const double* eps_vir, bool ff,
        trncore::sim::Generation generation)
      : k_(k), eps_occ_(eps_occ), ff_(ff), core_(generation), evir_(split_words("eps_vir", eps_vir, k.nvir)) {
    for (std::int64_t i = 0; i < k.nocc; ++i)
      kbuf_.push_back(split_words("K", k.blocks[static_cast<std::size_t>(i)].data(),
                                  static_cast<std::int64_t>(k.blocks[static_cast<std::size_t>(i)].size())));
  }

  StageResult run() {
    const std::int64_t nblk = (k_.nvir + kStageTile - 1) / kStageTile;
    const std::int64_t npairs = k_.nocc * (k_.nocc + 1) / 2;
    Totals totals{FloatFloatTiles(core_, 1, 1).zero("E_os"), FloatFloatTiles(core_, 1, 1).zero("E_ss")};
    std::int64_t deepest = 0;
    for (std::int64_t a0 = 0; a0 < k_.nvir; a0 += kStageTile)
      for (std::int64_t b0 = 0; b0 < k_.nvir; b0 += kStageTile) {
        const std::int64_t as = std::min(kStageTile, k_.nvir - a0), bs = std::min(kStageTile, k_.nvir - b0);
        deepest = std::max(deepest, block(a0, as, b0, bs, totals));
      }
    StageResult r;
    // E = −Σ N/D' with D' = e_a + e_b − e_i − e_j > 0; hi + lo is exact in double.
    r.opposite_spin = -(static_cast<double>(totals.os.hi.value(0, 0)) + totals.os.lo.value(0, 0));
    r.same_spin = -(static_cast<double>(totals.ss.hi.value(0, 0)) + totals.ss.lo.value(0, 0));
    // fp32: (bs − 1) sequential adds in the free-axis reduce, npairs accumulations, (as − 1) in the
    // partition reduce, nblk² block totals. float-float: npairs + the two halving trees + block totals.
    const std::int64_t edge = std::min(kStageTile, k_.nvir);
    r.chain = ff_ ? npairs + deepest + nblk * nblk : 2 * (edge - 1) + npairs + nblk * nblk;
    r.stats = core_.stats();
    return r;
  }

 private:
  struct Totals {
    FfTile os, ss;  // 1×1; fp32 runs keep lo = 0
  };

  // tile(p, f) = M[row0 + p][col0 + f] of a row-major buffer with leading dimension ld, or with
  // `transposed`, M[row0 + f][col0 + p] (a strided DMA: partition stride 1, element stride ld).
  void load(Tile& t, const HbmBuffer& m, std::int64_t ld, std::int64_t row0, std::int64_t col0, bool transposed) {
    if (transposed)
      core_.dma_to_tile(t, m, row0 * ld + col0, 1, ld);
    else
      core_.dma_to_tile(t, m, row0 * ld + col0, ld, 1);
  }

  // e_a + e_b over the block: e_b by a partition-broadcast DMA, e_a by a TensorEngine transpose of the
  // broadcast along the other axis (DMA cannot broadcast along the free axis).
  FfTile pair_sums(const FloatFloatTiles& t, std::int64_t a0, std::int64_t as, std::int64_t b0, std::int64_t bs) {
    const auto broadcast = [&](const HbmBuffer& e, std::int64_t off, std::int64_t parts, std::int64_t len) {
      Tile out = core_.sbuf("e_row", parts, len, DType::fp32);
      core_.dma_to_tile(out, e, off, 0, 1);
      return out;
    };
    const auto transposed = [&](const HbmBuffer& e) {
      Tile rows = broadcast(e, a0, bs, as);
      Tile p = core_.psum("e_a.psum", as, bs);
      core_.transpose(p, rows);
      Tile out = t.tile("e_a");
      core_.copy(out, p);
      return out;
    };
    if (ff_) {
      const FfTile ea{transposed(evir_.hi), transposed(evir_.lo)};
      const FfTile eb{broadcast(evir_.hi, b0, as, bs), broadcast(evir_.lo, b0, as, bs)};
      return t.add(ea, eb);
    }
    Tile s = t.tile("e_ab");
    core_.tensor_tensor(s, transposed(evir_.hi), broadcast(evir_.hi, b0, as, bs), AluOp::add);
    return {std::move(s), t.tile("zero")};
  }

  // Returns the depth of the block's float-float reduction tree.
  std::int64_t block(std::int64_t a0, std::int64_t as, std::int64_t b0, std::int64_t bs, Totals& totals) {
    const FloatFloatTiles t(core_, as, bs);
    const FfTile eab = pair_sums(t, a0, as, b0, bs);
    FfTile acc_os = ff_ ? t.zero("acc_os") : FfTile{core_.sbuf("acc_os", as, 1, DType::fp32), t.tile("unused")};
    FfTile acc_ss = ff_ ? t.zero("acc_ss") : FfTile{core_.sbuf("acc_ss", as, 1, DType::fp32), t.tile("unused")};
    for (std::int64_t i = 0; i < k_.nocc; ++i)
      for (std::int64_t j = i; j < k_.nocc; ++j) {
        const std::int64_t ld = (k_.nocc - i) * k_.nvir, col = (j - i) * k_.nvir;
        const Words& kw = kbuf_[static_cast<std::size_t>(i)];
        FfTile kab = t.zero("K"), kba = t.zero("Kt");
        load(kab.hi, kw.hi, ld, a0, col + b0, false);
        load(kba.hi, kw.hi, ld, b0, col + a0, true);  // (ib|ja) = K[b][(j − i)·nvir + a]
        const float w = i == j ? 1.0f : 2.0f;
        const double eij = eps_occ_[i] + eps_occ_[j];
        if (ff_) {
          load(kab.lo, kw.lo, ld, a0, col + b0, false);
          load(kba.lo, kw.lo, ld, b0, col + a0, true);
          const float eh = static_cast<float>(eij);
          const FfTile d = t.sub(eab, t.constant(eh, static_cast<float>(eij - static_cast<double>(eh)), "e_ij"));
          const FfTile exchange = t.sub(kab, kba);
          acc_os = t.add(acc_os, t.scale_pow2(t.div(t.mul(kab, kab), d), w));
          acc_ss = t.add(acc_ss, t.scale_pow2(t.div(t.mul(kab, exchange), d), w));
        } else {
          // e_i + e_j as one fp32 scalar instruction would form it from the fp32 energies.
          const float eij32 = static_cast<float>(eps_occ_[i]) + static_cast<float>(eps_occ_[j]);
          Tile d = t.tile("D"), x = t.tile("x"), q = t.tile("q");
          core_.tensor_scalar(d, eab.hi, eij32, AluOp::subtract);
          const auto accumulate = [&](const Tile& numerator, Tile& acc) {
            core_.tensor_tensor(q, numerator, d, AluOp::divide);
            if (w != 1.0f) core_.tensor_scalar(q, q, w, AluOp::multiply);
            Tile r = core_.sbuf("row_sum", as, 1, DType::fp32);
            core_.reduce(r, q, ReduceOp::sum);
            core_.tensor_tensor(acc, acc, r, AluOp::add);
          };
          core_.tensor_tensor(x, kab.hi, kab.hi, AluOp::multiply);
          accumulate(x, acc_os.hi);
          core_.tensor_tensor(x, kab.hi, kba.hi, AluOp::subtract);
          core_.tensor_tensor(x, kab.hi, x, AluOp::multiply);
          accumulate(x, acc_ss.hi);
        }
      }
    const FloatFloatTiles one(core_, 1, 1);
    std::int64_t depth = 0;
    for (auto [acc, total] : {std::pair{&acc_os, &totals.os}, std::pair{&acc_ss, &totals.ss}}) {
      if (ff_) {
        FfTile s = reduce_ff(*acc, as, bs, depth);
        *total = one.add(*total, s);
      } else {
        Tile s = reduce_partitions_fp32(acc->hi, as);
        core_.tensor_tensor(total->hi, total->hi, s, AluOp::add);
      }
    }
    return depth;
  }

  // Σ over partitions of an (as × 1) fp32 tile: through HBM into one partition, then one sequential reduce.
  Tile reduce_partitions_fp32(const Tile& column, std::int64_t as) {
    HbmBuffer buf{"partials", DType::fp32, std::vector<float>(static_cast<std::size_t>(as)), {}};
    core_.dma_to_hbm(buf, column, 0, 1);
    Tile row = core_.sbuf("partials_row", 1, as, DType::fp32);
    core_.dma_to_tile(row, buf, 0, 0, 1);
    Tile s = core_.sbuf("block_sum", 1, 1, DType::fp32);
    core_.reduce(s, row, ReduceOp::sum);
    return s;
  }

  // Σ of every element of a float-float tile by pairwise halving: the free axis (padded with zeros to a
  // power of two), then the partitions the same way after moving them into one partition through HBM.
  FfTile reduce_ff(const FfTile& x, std::int64_t as, std::int64_t bs, std::int64_t& depth) {
    const auto halve = [&](Words& buf, std::int64_t parts, std::int64_t width, std::int64_t& levels) {
      while (width > 1) {
        const std::int64_t h = width / 2;
        const FloatFloatTiles t(core_, parts, h);
        FfTile l = t.zero("left"), r = t.zero("right");
        core_.dma_to_tile(l.hi, buf.hi, 0, width, 1);
        core_.dma_to_tile(l.lo, buf.lo, 0, width, 1);
        core_.dma_to_tile(r.hi, buf.hi, h, width, 1);
        core_.dma_to_tile(r.lo, buf.lo, h, width, 1);
        const FfTile s = t.add(l, r);
        core_.dma_to_hbm(buf.hi, s.hi, 0, h, 1);
        core_.dma_to_hbm(buf.lo, s.lo, 0, h, 1);
        width = h;
        ++levels;
      }
    };
    const auto padded = [](std::int64_t n) {
      return static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(n)));
    };
    const std::int64_t w = padded(bs), p = padded(as);
    std::int64_t levels = 0;
    Words buf{{"acc.hi", DType::fp32, std::vector<float>(static_cast<std::size_t>(as * w)), {}},
              {"acc.lo", DType::fp32, std::vector<float>(static_cast<std::size_t>(as * w)), {}}};
    core_.dma_to_hbm(buf.hi, x.hi, 0, w, 1);
    core_.dma_to_hbm(buf.lo, x.lo, 0, w, 1);
    halve(buf, as, w, levels);  // buf now holds the as row sums at 0 .. as − 1
    Words row{{"rows.hi", DType::fp32, std::vector<float>(static_cast<std::size_t>(p)), {}},
              {"rows.lo", DType::fp32, std::vector<float>(static_cast<std::size_t>(p)), {}}};
    for (auto [from, to] : {std::pair{&buf.hi, &row.hi}, std::pair{&buf.lo, &row.lo}}) {
      Tile line = core_.sbuf("rows", 1, as, DType::fp32);
      core_.dma_to_tile(line, *from, 0, 0, 1);
      core_.dma_to_hbm(*to, line, 0, 0, 1);
    }
    halve(row, 1, p, levels);
    FfTile s = FloatFloatTiles(core_, 1, 1).zero("block_sum");
    core_.dma_to_tile(s.hi, row.hi, 0, 0, 1);
    core_.dma_to_tile(s.lo, row.lo, 0, 0, 1);
    depth = std::max(depth, levels);
    return s;
  }

  const PairProducts& k_;
  const double* eps_occ_;
  bool ff_;
  NeuronCore core_;
  Words evir_;
  std::vector<Words> kbuf_;
};

}  // namespace

StageResult vector_engine_energy(const PairProducts& k, const double* eps_occ, const double* eps_vir, bool float_float,
                                 trncore::sim::Generation generation) {
  if (k.nocc == 0 || k.nvir == 0) return {};
  return Stage(k, eps_occ, eps_vir, float_float, generation).run();
}

}  // namespace trnblas::detail
