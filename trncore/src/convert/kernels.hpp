#pragma once
// Element kernels of the bulk conversions, written as plain integer C++ on fixed-size blocks so that GCC
// vectorises them inside each target-specific wrapper (convert.cpp). Integer operations have one
// result on every ISA, so every path is bit-identical to the scalar one, which tests check against
// encode()/decode().

#include <trncore/format.hpp>
#include <trncore/philox.hpp>
#include <trncore/rounding.hpp>

#include <bit>
#include <cstdint>

namespace trncore::detail::convert_kernels {

// Elements per block: 16 Philox calls give exactly one random word per element.
inline constexpr std::int64_t kBlock = 64;

// The words of RandomBits{seed, stream} for global elements 64·t … 64·t + 63, in element order.
[[gnu::always_inline]] inline void random_block(std::uint64_t seed, std::uint64_t stream, std::uint64_t t,
                                                std::uint32_t* words) {
  constexpr int kCalls = kBlock / 4;
  std::uint32_t c0[kCalls], c1[kCalls], c2[kCalls], c3[kCalls];
  for (int b = 0; b < kCalls; ++b) {
    const std::uint64_t counter = t * kCalls + static_cast<std::uint64_t>(b);
    c0[b] = static_cast<std::uint32_t>(counter);
    c1[b] = static_cast<std::uint32_t>(counter >> 32);
    c2[b] = static_cast<std::uint32_t>(stream);
    c3[b] = static_cast<std::uint32_t>(stream >> 32);
  }
  std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += trncore::detail::kPhiloxW0;
      k1 += trncore::detail::kPhiloxW1;
    }
    for (int b = 0; b < kCalls; ++b) {
      const std::uint64_t p0 = std::uint64_t{trncore::detail::kPhiloxM0} * c0[b];
      const std::uint64_t p1 = std::uint64_t{trncore::detail::kPhiloxM1} * c2[b];
      const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1[b] ^ k0;
      const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3[b] ^ k1;
      c1[b] = static_cast<std::uint32_t>(p1);
      c3[b] = static_cast<std::uint32_t>(p0);
      c0[b] = n0;
      c2[b] = n2;
    }
  }
  for (int b = 0; b < kCalls; ++b) {
    words[4 * b + 0] = c0[b];
    words[4 * b + 1] = c1[b];
    words[4 * b + 2] = c2[b];
    words[4 * b + 3] = c3[b];
  }
}

// fp32 bits → bf16 bits, nearest-even. NaN: keep sign and top payload bits, set the quiet bit (the bias
// could otherwise carry a NaN into infinity). Overflow carries into the exponent and gives infinity;
// `saturate` turns that (and infinite inputs) into the largest finite value.
[[gnu::always_inline]] inline std::uint16_t bf16_nearest(std::uint32_t u, bool saturate) {
  const bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
  std::uint32_t r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
  if (saturate && (r & 0x7FFFu) == 0x7F80u) r = (r & 0x8000u) | 0x7F7Fu;
  return static_cast<std::uint16_t>(nan ? ((u >> 16) | 0x0040u) : r);
}

// fp32 bits → bf16 bits, SR(r): the 16 discarded bits are the fraction; a carry out of
// floor(fraction·2^r) + (random >> (32 − r)) rounds away from zero (format.hpp, round_up()).
[[gnu::always_inline]] inline std::uint16_t bf16_stochastic(std::uint32_t u, std::uint32_t random, int r,
                                                            bool saturate) {
  const bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
  const std::uint64_t discarded = u & 0xFFFFu;
  const std::uint64_t fraction_r = r >= 16 ? discarded << (r - 16) : discarded >> (16 - r);
  const std::uint32_t up = static_cast<std::uint32_t>((fraction_r + (std::uint64_t{random} >> (32 - r))) >> r);
  std::uint32_t result = (u >> 16) + up;
  if (saturate && (result & 0x7FFFu) == 0x7F80u) result = (result & 0x8000u) | 0x7F7Fu;
  return static_cast<std::uint16_t>(nan ? ((u >> 16) | 0x0040u) : result);
}

}  // namespace trncore::detail::convert_kernels
