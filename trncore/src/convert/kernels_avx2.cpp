// fp32 → bf16 on AVX2: nearest-even 16 elements per step, and SR(r) with Philox computed 8 calls per
// vector (AVX2 multiplies only even 32-bit lanes, so odd lanes are shifted down and multiplied
// separately). See simd_kernels.hpp for the contract and the carry formulation of SR(r).
#include "convert/kernels.hpp"
#include "convert/simd_kernels.hpp"

#include <trncore/philox.hpp>

#include <immintrin.h>

#include <bit>
#include <cstdint>

namespace trncore::detail::convert_kernels {

#define TRNCORE_AVX2 __attribute__((target("avx2,fma")))
#define TRNCORE_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline)) inline

namespace {

TRNCORE_AVX2_INLINE std::uint32_t bits_of(float x) { return std::bit_cast<std::uint32_t>(x); }

TRNCORE_AVX2_INLINE __m256i splat(std::uint32_t v) { return _mm256_set1_epi32(static_cast<int>(v)); }

// Saturation and NaN for 8 lanes (see kernels_avx512.cpp's finish); the result stays in 32-bit lanes.
TRNCORE_AVX2_INLINE __m256i finish(__m256i u, __m256i rounded, __m256i sat_target) {
  const __m256i overflowed = _mm256_cmpeq_epi32(_mm256_and_si256(rounded, splat(0x7FFFu)), sat_target);
  const __m256i saturated = _mm256_or_si256(_mm256_and_si256(rounded, splat(0x8000u)), splat(0x7F7Fu));
  rounded = _mm256_blendv_epi8(rounded, saturated, overflowed);
  // Signed compare is right here: both sides have a clear sign bit.
  const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, splat(0x7FFFFFFFu)), splat(0x7F800000u));
  return _mm256_blendv_epi8(rounded, _mm256_or_si256(_mm256_srli_epi32(u, 16), splat(0x0040u)), nan);
}

TRNCORE_AVX2_INLINE __m256i sat_target(const Bf16Params& p) { return splat(p.saturate ? 0x7F80u : 0xFFFFFFFFu); }

TRNCORE_AVX2_INLINE __m256i nearest8(__m256i u, __m256i sat) {
  const __m256i bias = _mm256_add_epi32(splat(0x7FFFu), _mm256_and_si256(_mm256_srli_epi32(u, 16), splat(1u)));
  return finish(u, _mm256_srli_epi32(_mm256_add_epi32(u, bias), 16), sat);
}

TRNCORE_AVX2_INLINE __m256i stochastic8(__m256i u, __m256i random, __m256i mask, __m256i sat) {
  const __m256i a = _mm256_and_si256(_mm256_slli_epi32(u, 16), mask);
  const __m256i sum = _mm256_add_epi32(a, _mm256_and_si256(random, mask));
  // Unsigned sum < a, via signed compare after flipping the sign bits: all ones where the sum wrapped.
  const __m256i sign = splat(0x80000000u);
  const __m256i up = _mm256_cmpgt_epi32(_mm256_xor_si256(a, sign), _mm256_xor_si256(sum, sign));
  return finish(u, _mm256_sub_epi32(_mm256_srli_epi32(u, 16), up), sat);  // minus all-ones adds one
}

// Two 8-lane results (values ≤ 0xFFFF) to 16 packed uint16 in lane order. packus works within 128-bit
// halves, so the 64-bit quarters are put back in order afterwards.
TRNCORE_AVX2_INLINE void store16(std::uint16_t* out, __m256i lo, __m256i hi) {
  const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), _MM_SHUFFLE(3, 1, 2, 0));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), packed);
}

TRNCORE_AVX2_INLINE void mul_wide(__m256i a, __m256i m, __m256i& hi, __m256i& lo) {
  const __m256i even = _mm256_mul_epu32(a, m);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), m);
  hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

struct PhiloxLanes {
  __m256i c0, c1, c2, c3;
};

// Philox calls 8·g … 8·g + 7, one per lane.
TRNCORE_AVX2_INLINE PhiloxLanes philox_start(std::uint64_t g, std::uint64_t stream) {
  const std::uint64_t first = g * 8;  // a multiple of 8: adding the lane index never carries into bit 32
  return {_mm256_or_si256(splat(static_cast<std::uint32_t>(first)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
          splat(static_cast<std::uint32_t>(first >> 32)), splat(static_cast<std::uint32_t>(stream)),
          splat(static_cast<std::uint32_t>(stream >> 32))};
}

TRNCORE_AVX2_INLINE void philox_round(PhiloxLanes& c, __m256i k0, __m256i k1) {
  __m256i hi0, lo0, hi1, lo1;
  mul_wide(c.c0, splat(kPhiloxM0), hi0, lo0);
  mul_wide(c.c2, splat(kPhiloxM1), hi1, lo1);
  c.c0 = _mm256_xor_si256(_mm256_xor_si256(hi1, c.c1), k0);
  c.c1 = lo1;
  c.c2 = _mm256_xor_si256(_mm256_xor_si256(hi0, c.c3), k1);
  c.c3 = lo0;
}

// 4 words × 8 calls into element order: w[j] holds the words of calls 2j and 2j + 1.
TRNCORE_AVX2_INLINE void transpose(const PhiloxLanes& c, __m256i w[4]) {
  const __m256i t0 = _mm256_unpacklo_epi32(c.c0, c.c1), t1 = _mm256_unpackhi_epi32(c.c0, c.c1);
  const __m256i t2 = _mm256_unpacklo_epi32(c.c2, c.c3), t3 = _mm256_unpackhi_epi32(c.c2, c.c3);
  const __m256i u0 = _mm256_unpacklo_epi64(t0, t2);  // calls 0 | 4
  const __m256i u1 = _mm256_unpackhi_epi64(t0, t2);  // calls 1 | 5
  const __m256i u2 = _mm256_unpacklo_epi64(t1, t3);  // calls 2 | 6
  const __m256i u3 = _mm256_unpackhi_epi64(t1, t3);  // calls 3 | 7
  w[0] = _mm256_permute2x128_si256(u0, u1, 0x20);
  w[1] = _mm256_permute2x128_si256(u2, u3, 0x20);
  w[2] = _mm256_permute2x128_si256(u0, u1, 0x31);
  w[3] = _mm256_permute2x128_si256(u2, u3, 0x31);
}

// One 64-element block (global block t) as two independent 8-call groups, interleaved for latency.
TRNCORE_AVX2_INLINE void stochastic_block(const float* in, std::uint16_t* out, std::uint64_t t, const Bf16Params& p,
                                          __m256i mask, __m256i sat) {
  PhiloxLanes c[2] = {philox_start(2 * t, p.stream), philox_start(2 * t + 1, p.stream)};
  std::uint32_t k0 = static_cast<std::uint32_t>(p.seed), k1 = static_cast<std::uint32_t>(p.seed >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    philox_round(c[0], splat(k0), splat(k1));
    philox_round(c[1], splat(k0), splat(k1));
  }
  for (int g = 0; g < 2; ++g) {
    __m256i w[4];
    transpose(c[g], w);
    for (int j = 0; j < 4; j += 2) {
      const float* src = in + 32 * g + 8 * j;
      const __m256i lo = stochastic8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src)), w[j], mask, sat);
      const __m256i hi =
          stochastic8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 8)), w[j + 1], mask, sat);
      store16(out + 32 * g + 8 * j, lo, hi);
    }
  }
}

}  // namespace

TRNCORE_AVX2 void bf16_nearest_avx2(const float* in, std::uint16_t* out, std::int64_t n, const Bf16Params& p) {
  const __m256i sat = sat_target(p);
  std::int64_t i = 0;
  // Scalar head up to a 32-byte boundary of the input: unaligned loads that straddle cache lines cost
  // more than the arithmetic here.
  for (; i < n && reinterpret_cast<std::uintptr_t>(in + i) % 32 != 0; ++i)
    out[i] = bf16_nearest(bits_of(in[i]), p.saturate);
  for (; i + 16 <= n; i += 16) {
    const __m256i lo = nearest8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i)), sat);
    const __m256i hi = nearest8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i + 8)), sat);
    store16(out + i, lo, hi);
  }
  for (; i < n; ++i) out[i] = bf16_nearest(bits_of(in[i]), p.saturate);  // the tail, same algorithm
}

TRNCORE_AVX2 void bf16_stochastic_avx2(const float* in, std::uint16_t* out, std::int64_t blocks,
                                       std::uint64_t first_block, const Bf16Params& p) {
  const __m256i mask = splat(sr_mask(p.sr_bits)), sat = sat_target(p);
  for (std::int64_t b = 0; b < blocks; ++b)
    stochastic_block(in + 64 * b, out + 64 * b, first_block + static_cast<std::uint64_t>(b), p, mask, sat);
}

#undef TRNCORE_AVX2
#undef TRNCORE_AVX2_INLINE

}  // namespace trncore::detail::convert_kernels
