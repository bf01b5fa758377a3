// fp32 → bf16 on AVX-512: nearest-even 16 elements per step with masked tails, and SR(r) with Philox
// computed 16 calls per vector, two 64-element blocks at a time so that two independent multiply chains
// hide each other's latency. See simd_kernels.hpp for the contract and the carry formulation of SR(r).
#include "convert/simd_kernels.hpp"

#include <trncore/philox.hpp>

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace trncore::detail::convert_kernels {

#define TRNCORE_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define TRNCORE_AVX512_INLINE __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), always_inline)) inline

// GCC 12 reports the intrinsics' internal _mm512_undefined_epi32() placeholders as uninitialized when
// they are inlined into a target("avx512f") function (GCC bug 105593); nothing here is uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace {

TRNCORE_AVX512_INLINE __m512i splat(std::uint32_t v) { return _mm512_set1_epi32(static_cast<int>(v)); }

// Saturation and NaN, shared by both roundings. `rounded` is the bf16 result of a finite or infinite u in
// the low 16 bits of each lane. sat_target is 0x7F80 (an infinite result) under Overflow::saturate and
// an impossible value otherwise, so the policy costs no branch.
TRNCORE_AVX512_INLINE __m512i finish(__m512i u, __m512i rounded, __m512i sat_target) {
  const __mmask16 overflowed = _mm512_cmpeq_epi32_mask(_mm512_and_si512(rounded, splat(0x7FFFu)), sat_target);
  rounded = _mm512_mask_or_epi32(rounded, overflowed, _mm512_and_si512(rounded, splat(0x8000u)), splat(0x7F7Fu));
  // NaN keeps its sign and top payload bits and becomes quiet (the rounding bias could carry it to inf).
  const __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(u, splat(0x7FFFFFFFu)), splat(0x7F800000u));
  return _mm512_mask_or_epi32(rounded, nan, _mm512_srli_epi32(u, 16), splat(0x0040u));
}

// Two 16-lane results (values ≤ 0xFFFF) to 32 packed uint16 in lane order: packus interleaves the
// 128-bit chunks of its operands, and one qword permutation restores the order (cheaper than two
// vpmovdw narrowing stores).
TRNCORE_AVX512_INLINE void store32(std::uint16_t* out, __m512i lo, __m512i hi) {
  const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  _mm512_storeu_si512(out, _mm512_permutexvar_epi64(order, _mm512_packus_epi32(lo, hi)));
}

TRNCORE_AVX512_INLINE __m512i sat_target(const Bf16Params& p) { return splat(p.saturate ? 0x7F80u : 0xFFFFFFFFu); }

TRNCORE_AVX512_INLINE __m512i nearest16(__m512i u, __m512i sat) {
  // Add 0x7FFF plus the lowest kept bit, then truncate: ties go to the even neighbour.
  const __m512i bias = _mm512_add_epi32(splat(0x7FFFu), _mm512_and_si512(_mm512_srli_epi32(u, 16), splat(1u)));
  return finish(u, _mm512_srli_epi32(_mm512_add_epi32(u, bias), 16), sat);
}

TRNCORE_AVX512_INLINE __m512i stochastic16(__m512i u, __m512i random, __m512i mask, __m512i sat) {
  const __m512i a = _mm512_and_si512(_mm512_slli_epi32(u, 16), mask);
  const __m512i sum = _mm512_add_epi32(a, _mm512_and_si512(random, mask));
  const __mmask16 up = _mm512_cmplt_epu32_mask(sum, a);
  const __m512i truncated = _mm512_srli_epi32(u, 16);
  return finish(u, _mm512_mask_add_epi32(truncated, up, truncated, splat(1u)), sat);
}

// 32×32 → 64-bit products of every lane with m: high and low halves, lane by lane (AVX-512F multiplies
// only even lanes, so odd lanes are shifted down, multiplied and shifted back).
TRNCORE_AVX512_INLINE void mul_wide(__m512i a, __m512i m, __m512i& hi, __m512i& lo) {
  const __m512i even = _mm512_mul_epu32(a, m);
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), m);
  hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
  lo = _mm512_mullo_epi32(a, m);
}

// Philox4x32-10 for calls 16·t … 16·t + 15 (one per lane), words transposed into element order:
// w[j] holds the words of elements 64·t + 16·j … 64·t + 16·j + 15.
struct PhiloxLanes {
  __m512i c0, c1, c2, c3;
};

TRNCORE_AVX512_INLINE PhiloxLanes philox_start(std::uint64_t t, std::uint64_t stream) {
  const std::uint64_t first = t * 16;  // a multiple of 16: adding the lane index never carries into bit 32
  return {_mm512_or_si512(splat(static_cast<std::uint32_t>(first)),
                          _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
          splat(static_cast<std::uint32_t>(first >> 32)), splat(static_cast<std::uint32_t>(stream)),
          splat(static_cast<std::uint32_t>(stream >> 32))};
}

TRNCORE_AVX512_INLINE void philox_round(PhiloxLanes& c, __m512i k0, __m512i k1) {
  __m512i hi0, lo0, hi1, lo1;
  mul_wide(c.c0, splat(kPhiloxM0), hi0, lo0);
  mul_wide(c.c2, splat(kPhiloxM1), hi1, lo1);
  c.c0 = _mm512_xor_si512(_mm512_xor_si512(hi1, c.c1), k0);
  c.c1 = lo1;
  c.c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c.c3), k1);
  c.c3 = lo0;
}

TRNCORE_AVX512_INLINE void transpose(const PhiloxLanes& c, __m512i w[4]) {
  const __m512i t0 = _mm512_unpacklo_epi32(c.c0, c.c1), t1 = _mm512_unpackhi_epi32(c.c0, c.c1);
  const __m512i t2 = _mm512_unpacklo_epi32(c.c2, c.c3), t3 = _mm512_unpackhi_epi32(c.c2, c.c3);
  // u_k's 128-bit chunk j holds the four words of call 4j + k.
  const __m512i u0 = _mm512_unpacklo_epi64(t0, t2), u1 = _mm512_unpackhi_epi64(t0, t2);
  const __m512i u2 = _mm512_unpacklo_epi64(t1, t3), u3 = _mm512_unpackhi_epi64(t1, t3);
  const __m512i even01 = _mm512_shuffle_i32x4(u0, u1, _MM_SHUFFLE(2, 0, 2, 0));  // calls 0, 8, 1, 9
  const __m512i even23 = _mm512_shuffle_i32x4(u2, u3, _MM_SHUFFLE(2, 0, 2, 0));  // calls 2, 10, 3, 11
  const __m512i odd01 = _mm512_shuffle_i32x4(u0, u1, _MM_SHUFFLE(3, 1, 3, 1));   // calls 4, 12, 5, 13
  const __m512i odd23 = _mm512_shuffle_i32x4(u2, u3, _MM_SHUFFLE(3, 1, 3, 1));   // calls 6, 14, 7, 15
  w[0] = _mm512_shuffle_i32x4(even01, even23, _MM_SHUFFLE(2, 0, 2, 0));          // calls 0–3
  w[1] = _mm512_shuffle_i32x4(odd01, odd23, _MM_SHUFFLE(2, 0, 2, 0));            // calls 4–7
  w[2] = _mm512_shuffle_i32x4(even01, even23, _MM_SHUFFLE(3, 1, 3, 1));          // calls 8–11
  w[3] = _mm512_shuffle_i32x4(odd01, odd23, _MM_SHUFFLE(3, 1, 3, 1));            // calls 12–15
}

// Converts B consecutive 64-element blocks starting at global block t.
template <int B>
TRNCORE_AVX512_INLINE void stochastic_blocks(const float* in, std::uint16_t* out, std::uint64_t t, const Bf16Params& p,
                                             __m512i mask, __m512i sat) {
  PhiloxLanes c[B];
  for (int b = 0; b < B; ++b) c[b] = philox_start(t + static_cast<std::uint64_t>(b), p.stream);
  std::uint32_t k0 = static_cast<std::uint32_t>(p.seed), k1 = static_cast<std::uint32_t>(p.seed >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    for (int b = 0; b < B; ++b) philox_round(c[b], splat(k0), splat(k1));
  }
  for (int b = 0; b < B; ++b) {
    __m512i w[4];
    transpose(c[b], w);
    for (int j = 0; j < 4; j += 2) {
      const float* src = in + 64 * b + 16 * j;
      store32(out + 64 * b + 16 * j, stochastic16(_mm512_loadu_si512(src), w[j], mask, sat),
              stochastic16(_mm512_loadu_si512(src + 16), w[j + 1], mask, sat));
    }
  }
}

}  // namespace

TRNCORE_AVX512 void bf16_nearest_avx512(const float* in, std::uint16_t* out, std::int64_t n, const Bf16Params& p) {
  const __m512i sat = sat_target(p);
  std::int64_t i = 0;
  // A masked head brings the loads to a 64-byte boundary: unaligned 64-byte loads each touch two cache
  // lines, which costs more than the arithmetic here.
  if (const auto misaligned = reinterpret_cast<std::uintptr_t>(in) % 64; misaligned != 0 && misaligned % 4 == 0) {
    const std::int64_t head = std::min<std::int64_t>(n, static_cast<std::int64_t>(64 - misaligned) / 4);
    const __mmask16 live = static_cast<__mmask16>((1u << head) - 1u);
    _mm256_mask_storeu_epi16(out, live, _mm512_cvtepi32_epi16(nearest16(_mm512_maskz_loadu_epi32(live, in), sat)));
    i = head;
  }
  for (; i + 32 <= n; i += 32)
    store32(out + i, nearest16(_mm512_loadu_si512(in + i), sat), nearest16(_mm512_loadu_si512(in + i + 16), sat));
  for (; i < n; i += 16) {  // masked tail: lanes past n are neither read nor written
    const std::int64_t left = n - i < 16 ? n - i : 16;
    const __mmask16 live = static_cast<__mmask16>((1u << left) - 1u);
    const __m512i u = _mm512_maskz_loadu_epi32(live, in + i);
    _mm256_mask_storeu_epi16(out + i, live, _mm512_cvtepi32_epi16(nearest16(u, sat)));
  }
}

TRNCORE_AVX512 void bf16_stochastic_avx512(const float* in, std::uint16_t* out, std::int64_t blocks,
                                           std::uint64_t first_block, const Bf16Params& p) {
  const __m512i mask = splat(sr_mask(p.sr_bits)), sat = sat_target(p);
  std::int64_t b = 0;
  for (; b + 2 <= blocks; b += 2)
    stochastic_blocks<2>(in + 64 * b, out + 64 * b, first_block + static_cast<std::uint64_t>(b), p, mask, sat);
  if (b < blocks)
    stochastic_blocks<1>(in + 64 * b, out + 64 * b, first_block + static_cast<std::uint64_t>(b), p, mask, sat);
}

TRNCORE_AVX512 void random_blocks_avx512(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                                         std::int64_t blocks, std::uint32_t* words) {
  const std::uint32_t seed_lo = static_cast<std::uint32_t>(seed), seed_hi = static_cast<std::uint32_t>(seed >> 32);
  for (std::int64_t b = 0; b < blocks; ++b) {
    PhiloxLanes c = philox_start(first_block + static_cast<std::uint64_t>(b), stream);
    std::uint32_t k0 = seed_lo, k1 = seed_hi;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k0 += kPhiloxW0;
        k1 += kPhiloxW1;
      }
      philox_round(c, splat(k0), splat(k1));
    }
    __m512i w[4];
    transpose(c, w);
    for (int j = 0; j < 4; ++j) _mm512_storeu_si512(words + 64 * b + 16 * j, w[j]);
  }
}

#pragma GCC diagnostic pop

#undef TRNCORE_AVX512
#undef TRNCORE_AVX512_INLINE

}  // namespace trncore::detail::convert_kernels
