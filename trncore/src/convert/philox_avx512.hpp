#pragma once
// Sixteen Philox4x32-10 calls at once, one per 32-bit lane: the random words of 64 consecutive elements
// (kernels.hpp's random_block, same counters, same words, same order). Include only from code compiled
// for AVX-512 (a target("avx512f") function).

#include <trncore/philox.hpp>

#include <immintrin.h>

#include <cstdint>

namespace trncore::detail::convert_kernels {

// GCC 12 reports the intrinsics' internal _mm512_undefined_epi32() placeholders as uninitialized when
// they are inlined into a target("avx512f") function (GCC bug 105593); nothing here is uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// High 32 bits of the 32×32 → 64-bit products a[i]·m, lane by lane.
__attribute__((target("avx512f"), always_inline)) inline __m512i mulhi_epu32(__m512i a, __m512i m) {
  const __m512i even = _mm512_srli_epi64(_mm512_mul_epu32(a, m), 32);   // even lanes' high halves, moved down
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);    // odd lanes' high halves, in place
  return _mm512_mask_blend_epi32(0xAAAA, even, odd);
}

__attribute__((target("avx512f"), noinline)) inline void random_block_avx512(std::uint64_t seed, std::uint64_t stream, std::uint64_t t,
                                                       std::uint32_t* words) {
  const std::uint64_t first = t * 16;  // a multiple of 16: adding the lane index never carries into bit 32
  __m512i c0 = _mm512_or_si512(_mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(first))),
                               _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  __m512i c1 = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(first >> 32)));
  __m512i c2 = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(stream)));
  __m512i c3 = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(stream >> 32)));
  std::uint32_t k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(trncore::detail::kPhiloxM0));
  const __m512i m1 = _mm512_set1_epi32(static_cast<int>(trncore::detail::kPhiloxM1));
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += trncore::detail::kPhiloxW0;
      k1 += trncore::detail::kPhiloxW1;
    }
    const __m512i hi0 = mulhi_epu32(c0, m0), lo0 = _mm512_mullo_epi32(c0, m0);
    const __m512i hi1 = mulhi_epu32(c2, m1), lo1 = _mm512_mullo_epi32(c2, m1);
    c0 = _mm512_xor_si512(_mm512_xor_si512(hi1, c1), _mm512_set1_epi32(static_cast<int>(k0)));
    c1 = lo1;
    c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c3), _mm512_set1_epi32(static_cast<int>(k1)));
    c3 = lo0;
  }
  // Transpose 4 words × 16 calls into call-major order: element 4·call + word.
  const __m512i t0 = _mm512_unpacklo_epi32(c0, c1), t1 = _mm512_unpackhi_epi32(c0, c1);
  const __m512i t2 = _mm512_unpacklo_epi32(c2, c3), t3 = _mm512_unpackhi_epi32(c2, c3);
  // u_k's 128-bit chunk j holds the four words of call 4j + k.
  const __m512i u0 = _mm512_unpacklo_epi64(t0, t2), u1 = _mm512_unpackhi_epi64(t0, t2);
  const __m512i u2 = _mm512_unpacklo_epi64(t1, t3), u3 = _mm512_unpackhi_epi64(t1, t3);
  const __m512i even01 = _mm512_shuffle_i32x4(u0, u1, _MM_SHUFFLE(2, 0, 2, 0));  // u0.c0 u0.c2 u1.c0 u1.c2
  const __m512i even23 = _mm512_shuffle_i32x4(u2, u3, _MM_SHUFFLE(2, 0, 2, 0));
  const __m512i odd01 = _mm512_shuffle_i32x4(u0, u1, _MM_SHUFFLE(3, 1, 3, 1));   // u0.c1 u0.c3 u1.c1 u1.c3
  const __m512i odd23 = _mm512_shuffle_i32x4(u2, u3, _MM_SHUFFLE(3, 1, 3, 1));
  _mm512_storeu_si512(words + 0, _mm512_shuffle_i32x4(even01, even23, _MM_SHUFFLE(2, 0, 2, 0)));   // calls 0–3
  _mm512_storeu_si512(words + 16, _mm512_shuffle_i32x4(odd01, odd23, _MM_SHUFFLE(2, 0, 2, 0)));    // calls 4–7
  _mm512_storeu_si512(words + 32, _mm512_shuffle_i32x4(even01, even23, _MM_SHUFFLE(3, 1, 3, 1)));  // calls 8–11
  _mm512_storeu_si512(words + 48, _mm512_shuffle_i32x4(odd01, odd23, _MM_SHUFFLE(3, 1, 3, 1)));    // calls 12–15
}

#pragma GCC diagnostic pop

}  // namespace trncore::detail::convert_kernels
