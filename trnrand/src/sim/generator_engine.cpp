// The counter-based generators as GpSimdEngine work: each lane of a 128 × 512 tile holds one counter,
// the rounds are integer ops on whole tiles, and the four result words of each counter are interleaved
// into HBM by strided DMA. Same bits as the host generators (stream.hpp's layout).
#include <trncore/error.hpp>
#include <trncore/philox.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/threefry.hpp>

#include "generators/arguments.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace trnrand::sim {

namespace {

using trncore::sim::DType;
using trncore::sim::IntOp;
using trncore::sim::NeuronCore;
using trncore::sim::Tile;

constexpr std::int64_t kPartitions = 128, kFree = 512, kBatch = kPartitions * kFree;

Tile tile(NeuronCore& core, const char* name) { return core.sbuf(name, kPartitions, kFree, DType::uint32); }

// Every element = value (iota with zero steps).
void fill(NeuronCore& core, Tile& t, std::uint32_t value) { core.iota(t, value, 0, 0); }

// Ten Philox rounds on x = (c0, c1, c2, c3) with key (k0, k1) given as tiles.
void philox_rounds(NeuronCore& core, std::array<Tile, 4>& x, const Stream& s) {
  Tile m0 = tile(core, "M0"), m1 = tile(core, "M1"), w0 = tile(core, "W0"), w1 = tile(core, "W1");
  Tile k0 = tile(core, "k0"), k1 = tile(core, "k1"), hi0 = tile(core, "hi0"), lo0 = tile(core, "lo0"),
       hi1 = tile(core, "hi1");
  fill(core, m0, trncore::detail::kPhiloxM0);
  fill(core, m1, trncore::detail::kPhiloxM1);
  fill(core, w0, trncore::detail::kPhiloxW0);
  fill(core, w1, trncore::detail::kPhiloxW1);
  fill(core, k0, static_cast<std::uint32_t>(s.seed));
  fill(core, k1, static_cast<std::uint32_t>(s.seed >> 32));
  auto& [c0, c1, c2, c3] = x;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      core.integer_op(k0, k0, w0, IntOp::add);
      core.integer_op(k1, k1, w1, IntOp::add);
    }
    // (c0, c1, c2, c3) ← (hi(M1·c2) ⊕ c1 ⊕ k0, lo(M1·c2), hi(M0·c0) ⊕ c3 ⊕ k1, lo(M0·c0))
    core.integer_op(hi0, c0, m0, IntOp::multiply_high);
    core.integer_op(lo0, c0, m0, IntOp::multiply_low);
    core.integer_op(hi1, c2, m1, IntOp::multiply_high);
    core.integer_op(c2, c2, m1, IntOp::multiply_low);  // lo(M1·c2), the new c1
    core.integer_op(c0, hi1, c1, IntOp::bit_xor);
    core.integer_op(c0, c0, k0, IntOp::bit_xor);
    core.integer_op(c1, hi0, c3, IntOp::bit_xor);  // the new c2, for now in c1
    core.integer_op(c1, c1, k1, IntOp::bit_xor);
    std::swap(c1, c2);  // renaming tiles costs no engine work
    std::swap(c3, lo0);
  }
}

// Twenty Threefry rounds with key schedule ks = (seed lo, seed hi, 0, 0, parity ⊕ …), Random123's
// rotation constants, key injection every fourth round.
void threefry_rounds(NeuronCore& core, std::array<Tile, 4>& x, const Stream& s) {
  const std::uint32_t key[4] = {static_cast<std::uint32_t>(s.seed), static_cast<std::uint32_t>(s.seed >> 32), 0, 0};
  const std::uint32_t ks[5] = {key[0], key[1], key[2], key[3],
                               trnrand::detail::kThreefryParity ^ key[0] ^ key[1] ^ key[2] ^ key[3]};
  Tile c = tile(core, "const"), t = tile(core, "t");
  auto add_constant = [&](Tile& v, std::uint32_t k) {
    fill(core, c, k);
    core.integer_op(v, v, c, IntOp::add);
  };
  auto mix = [&](Tile& a, Tile& b, int rotation) {  // a += b; b = rotl(b, rotation) ⊕ a
    core.integer_op(a, a, b, IntOp::add);
    fill(core, c, static_cast<std::uint32_t>(rotation));
    core.integer_op(t, b, c, IntOp::rotate_left);
    core.integer_op(b, t, a, IntOp::bit_xor);
  };
  for (int i = 0; i < 4; ++i) add_constant(x[static_cast<std::size_t>(i)], ks[i]);
  for (int r = 0; r < 20; ++r) {
    const int* rot = trnrand::detail::kThreefryRotations[r % 8];
    if (r % 2 == 0) {
      mix(x[0], x[1], rot[0]);
      mix(x[2], x[3], rot[1]);
    } else {
      mix(x[0], x[3], rot[0]);
      mix(x[2], x[1], rot[1]);
    }
    if (r % 4 == 3) {
      const std::uint32_t inj = static_cast<std::uint32_t>(r / 4 + 1);
      for (std::uint32_t i = 0; i < 4; ++i) add_constant(x[i], ks[(inj + i) % 5] + (i == 3 ? inj : 0u));
    }
  }
}

}  // namespace

Stream fill_uint32(Stream s, std::span<std::uint32_t> out, NeuronCore& core) {
  trnrand::detail::check_generator("trnrand::sim::fill_uint32", s);
  if (out.empty()) return s;
  const std::uint64_t first_block = s.offset / 4, end_block = (s.offset + out.size() + 3) / 4;
  trncore::sim::HbmBuffer words{"words", DType::uint32, {}, std::vector<std::uint32_t>(4 * kBatch)};
  for (std::uint64_t block = first_block; block < end_block;) {
    // A batch never crosses a multiple of 2^32 counters, so the counter's high word is constant in it.
    const std::uint64_t wrap = (block | 0xFFFFFFFFull) + 1;
    const std::uint64_t count = std::min<std::uint64_t>({kBatch, end_block - block, wrap - block});
    std::array<Tile, 4> x{tile(core, "x0"), tile(core, "x1"), tile(core, "x2"), tile(core, "x3")};
    core.iota(x[0], static_cast<std::int64_t>(block & 0xFFFFFFFFu), kFree, 1);  // lane (p, f) ↦ block + 512p + f
    fill(core, x[1], static_cast<std::uint32_t>(block >> 32));
    fill(core, x[2], static_cast<std::uint32_t>(s.subsequence));
    fill(core, x[3], static_cast<std::uint32_t>(s.subsequence >> 32));
    if (s.generator == Generator::philox4x32_10)
      philox_rounds(core, x, s);
    else
      threefry_rounds(core, x, s);
    for (std::int64_t j = 0; j < 4; ++j)  // word j of counter (512p + f) → HBM element 4·(512p + f) + j
      core.dma_to_hbm(words, x[static_cast<std::size_t>(j)], j, 4 * kFree, 4);
    // The requested words of this batch: [4·block, 4·(block + count)) ∩ [offset, offset + n).
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
