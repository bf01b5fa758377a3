// Philox4x32-10 as GpSimdEngine work: each lane of a tile holds one counter, each round is six integer
// ops plus the key bump, and the four result words are interleaved into HBM by strided DMA.
#include <trncore/error.hpp>
#include <trncore/philox.hpp>
#include <trnrand/sim.hpp>

#include <algorithm>
#include <utility>

namespace trnrand::sim {

namespace {

using trncore::sim::DType;
using trncore::sim::IntOp;
using trncore::sim::NeuronCore;
using trncore::sim::Tile;

constexpr std::int64_t kPartitions = 128, kFree = 512, kBatch = kPartitions * kFree;

// A tile whose every element is `value` (iota with zero steps).
Tile constant(NeuronCore& core, const char* name, std::uint32_t value) {
  Tile t = core.sbuf(name, kPartitions, kFree, DType::uint32);
  core.iota(t, value, 0, 0);
  return t;
}

}  // namespace

Stream fill_uint32(Stream s, std::span<std::uint32_t> out, NeuronCore& core) {
  if (s.generator != Generator::philox4x32_10)
    throw trncore::NotSupported("trnrand::sim::fill_uint32", "the sim kernel implements Philox4x32-10 only",
                                "use the host fill for Threefry4x32-20");
  if (out.empty()) return s;
  const std::uint64_t first_block = s.offset / 4, end_block = (s.offset + out.size() + 3) / 4;
  const Tile m0 = constant(core, "M0", trncore::detail::kPhiloxM0), m1 = constant(core, "M1", trncore::detail::kPhiloxM1);
  const Tile w0 = constant(core, "W0", trncore::detail::kPhiloxW0), w1 = constant(core, "W1", trncore::detail::kPhiloxW1);
  Tile c0 = core.sbuf("c0", kPartitions, kFree, DType::uint32), c1 = core.sbuf("c1", kPartitions, kFree, DType::uint32);
  Tile c2 = core.sbuf("c2", kPartitions, kFree, DType::uint32), c3 = core.sbuf("c3", kPartitions, kFree, DType::uint32);
  Tile k0 = core.sbuf("k0", kPartitions, kFree, DType::uint32), k1 = core.sbuf("k1", kPartitions, kFree, DType::uint32);
  Tile hi0 = core.sbuf("hi0", kPartitions, kFree, DType::uint32), lo0 = core.sbuf("lo0", kPartitions, kFree, DType::uint32);
  Tile hi1 = core.sbuf("hi1", kPartitions, kFree, DType::uint32);
  trncore::sim::HbmBuffer words{"words", DType::uint32, {}, std::vector<std::uint32_t>(4 * kBatch)};
  for (std::uint64_t block = first_block; block < end_block;) {
    // A batch never crosses a multiple of 2^32 counters, so the counter's high word is constant in it.
    const std::uint64_t wrap = (block | 0xFFFFFFFFull) + 1;
    const std::uint64_t count = std::min<std::uint64_t>({kBatch, end_block - block, wrap - block});
    core.iota(c0, static_cast<std::int64_t>(block & 0xFFFFFFFFu), kFree, 1);  // lane (p, f) ↦ counter block + p·512 + f
    core.iota(c1, static_cast<std::int64_t>(block >> 32), 0, 0);
    core.iota(c2, static_cast<std::int64_t>(s.subsequence & 0xFFFFFFFFu), 0, 0);
    core.iota(c3, static_cast<std::int64_t>(s.subsequence >> 32), 0, 0);
    core.iota(k0, static_cast<std::int64_t>(s.seed & 0xFFFFFFFFu), 0, 0);
    core.iota(k1, static_cast<std::int64_t>(s.seed >> 32), 0, 0);
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        core.integer_op(k0, k0, w0, IntOp::add);
        core.integer_op(k1, k1, w1, IntOp::add);
      }
      // (c0, c1, c2, c3) ← (hi(M1·c2) ⊕ c1 ⊕ k0, lo(M1·c2), hi(M0·c0) ⊕ c3 ⊕ k1, lo(M0·c0))
      core.integer_op(hi0, c0, m0, IntOp::multiply_high);
      core.integer_op(lo0, c0, m0, IntOp::multiply_low);
      core.integer_op(hi1, c2, m1, IntOp::multiply_high);
      core.integer_op(c2, c2, m1, IntOp::multiply_low);  // c2 now holds lo(M1·c2), the new c1
      core.integer_op(c0, hi1, c1, IntOp::bit_xor);
      core.integer_op(c0, c0, k0, IntOp::bit_xor);
      core.integer_op(c1, hi0, c3, IntOp::bit_xor);      // c1 holds the new c2 for now
      core.integer_op(c1, c1, k1, IntOp::bit_xor);
      std::swap(c1, c2);                                 // c1 = lo(M1·c2), c2 = hi(M0·c0) ⊕ c3 ⊕ k1
      std::swap(c3, lo0);                                // c3 = lo(M0·c0); renaming tiles costs no engine work
    }
    // Word j of counter (p·512 + f) goes to HBM element 4·(p·512 + f) + j.
    core.dma_to_hbm(words, c0, 0, 4 * kFree, 4);
    core.dma_to_hbm(words, c1, 1, 4 * kFree, 4);
    core.dma_to_hbm(words, c2, 2, 4 * kFree, 4);
    core.dma_to_hbm(words, c3, 3, 4 * kFree, 4);
    // The requested words of this batch: global word indices [4·block, 4·(block + count)) ∩ [offset, offset + n).
    const std::uint64_t lo = std::max<std::uint64_t>(4 * block, s.offset);
    const std::uint64_t hi = std::min<std::uint64_t>(4 * (block + count), s.offset + out.size());
    std::copy(words.words.begin() + static_cast<std::ptrdiff_t>(lo - 4 * block),
              words.words.begin() + static_cast<std::ptrdiff_t>(hi - 4 * block),
              out.begin() + static_cast<std::ptrdiff_t>(lo - s.offset));
    block += count;
  }
  return skip_ahead(s, out.size());
}

}  // namespace trnrand::sim
