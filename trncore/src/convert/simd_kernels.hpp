#pragma once
// Hand-vectorised fp32 → bf16 kernels, one set per ISA (kernels_avx2.cpp, kernels_avx512.cpp). Each is
// compiled for its ISA with per-function target attributes only, so no inline function shared with other
// translation units is ever emitted with wider instructions than the baseline.
//
// Both sets compute exactly what kernels.hpp's bf16_nearest / bf16_stochastic compute (the tests compare
// every path with encode()). The stochastic kernels take whole 64-element blocks: `first_block` is the
// global index of the first element divided by 64, and block t uses RandomBits{seed, stream} words
// 64·t … 64·t + 63, i.e. Philox calls 16·t … 16·t + 15.

#include <cstdint>

namespace trncore::detail::convert_kernels {

/// Parameters every fast bf16 kernel takes.
struct Bf16Params {
  bool saturate = false;  // Overflow::saturate
  int sr_bits = 32;       // r of SR(r), 1..32 (stochastic kernels only)
  std::uint64_t seed = 0, stream = 0;
};

// n elements, any n ≥ 0.
void bf16_nearest_avx2(const float* in, std::uint16_t* out, std::int64_t n, const Bf16Params& p);
void bf16_nearest_avx512(const float* in, std::uint16_t* out, std::int64_t n, const Bf16Params& p);

// 64·blocks elements, starting at global block first_block.
void bf16_stochastic_avx2(const float* in, std::uint16_t* out, std::int64_t blocks, std::uint64_t first_block,
                          const Bf16Params& p);
void bf16_stochastic_avx512(const float* in, std::uint16_t* out, std::int64_t blocks, std::uint64_t first_block,
                            const Bf16Params& p);

// The RandomBits{seed, stream} words of 64·blocks elements starting at global block first_block, in
// element order (what kernels.hpp's random_block gives block by block).
void random_blocks_avx512(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, std::int64_t blocks,
                          std::uint32_t* words);

// The 32-bit masks of the stochastic kernels: SR(r) rounds away from zero iff the sum of the top r
// discarded bits and the top r random bits carries out of r bits. Aligning both r-bit numbers at the
// top of a 32-bit word turns that into a carry out of 32 bits, which SIMD can test with one compare:
//   a = (u << 16) & mask, b = random & mask, mask = the top r bits; round up iff a + b wraps (a + b < a).
// (For r ≥ 16 the top r bits of u << 16 are all 16 discarded bits followed by zeros, for r < 16 the
// top r discarded bits: exactly kernels.hpp's fraction_r, shifted up by 32 − r.)
constexpr std::uint32_t sr_mask(int r) { return r >= 32 ? 0xFFFFFFFFu : ~((std::uint32_t{1} << (32 - r)) - 1u); }

}  // namespace trncore::detail::convert_kernels
