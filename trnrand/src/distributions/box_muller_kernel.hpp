#pragma once
// The Box–Muller kernel of the normal fills, written once over a vector type and instantiated by one
// translation unit per instruction set (box_muller_<isa>.cpp, each compiled for its ISA). Private to trnrand.
//
// Only SLEEF's deterministic "cinz" functions (no fused multiply-add; SLEEF documents them as returning the
// same bits on every vector extension and in its scalar version) and IEEE operations (conversions of
// integers below 2^53, multiplications by powers of two, √, one product) are used, so every variant
// returns the same bits. The ISA translation units include nothing with inline functions of their own
// (no standard containers or algorithms), so no inline definition compiled for a wider ISA can be chosen by
// the linker for code that runs on a narrower one.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace trnrand::detail::box_muller_kernel {

// Values per block: the uniforms, the results and the tail's padding live on the stack (6 KiB).
inline constexpr std::size_t kBlock = 256;

// V provides: lanes; normal(u1, t, z) for `lanes` values: z = √(−2·ln u1)·cospi(t); log(x, y); cospi(x, y).
template <class V>
void normals(const std::uint32_t* w, std::size_t n, int words_per_uniform, double* z) {
  static_assert(kBlock % V::lanes == 0);
  alignas(64) double u1[kBlock], t[kBlock], out[kBlock];
  const std::size_t per = 2 * static_cast<std::size_t>(words_per_uniform);
  for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
    const std::size_t m = n - i0 < kBlock ? n - i0 : kBlock;
    const std::uint32_t* v = w + per * i0;
    // u1 ∈ (0, 1] and t = 2·u2 ∈ [0, 2), both exact (integers below 2^53 times powers of two).
    if (words_per_uniform == 1) {
      for (std::size_t j = 0; j < m; ++j) {
        u1[j] = static_cast<double>(static_cast<std::int32_t>((v[2 * j] >> 8) + 1)) * 0x1p-24;
        t[j] = static_cast<double>(static_cast<std::int32_t>(v[2 * j + 1] >> 8)) * 0x1p-23;
      }
    } else {
      for (std::size_t j = 0; j < m; ++j) {
        const std::uint64_t a = ((static_cast<std::uint64_t>(v[4 * j]) << 32) | v[4 * j + 1]) >> 11;
        const std::uint64_t b = ((static_cast<std::uint64_t>(v[4 * j + 2]) << 32) | v[4 * j + 3]) >> 11;
        u1[j] = static_cast<double>(static_cast<std::int64_t>(a + 1)) * 0x1p-53;
        t[j] = static_cast<double>(static_cast<std::int64_t>(b)) * 0x1p-52;
      }
    }
    const std::size_t padded = (m + V::lanes - 1) / V::lanes * V::lanes;
    for (std::size_t j = m; j < padded; ++j) {  // harmless lanes: ln 1 = 0, cospi(0) = 1
      u1[j] = 1.0;
      t[j] = 0.0;
    }
    for (std::size_t j = 0; j < padded; j += V::lanes) V::normal(u1 + j, t + j, out + j);
    std::memcpy(z + i0, out, m * sizeof(double));
  }
}

// y = f(x) elementwise by V's function `f` (V::log or V::cospi), the tail through a padded vector.
template <class V, class F>
void map(const double* x, std::size_t n, double* y, F f) {
  std::size_t i = 0;
  for (; i + V::lanes <= n; i += V::lanes) f(x + i, y + i);
  if (i < n) {
    alignas(64) double a[V::lanes] = {}, b[V::lanes];
    for (std::size_t j = 0; j < V::lanes; ++j) a[j] = i + j < n ? x[i + j] : 1.0;
    f(a, b);
    std::memcpy(y + i, b, (n - i) * sizeof(double));
  }
}

}  // namespace trnrand::detail::box_muller_kernel

namespace trnrand::detail {

/// The fills' kernel: box_muller_normals_<v> of the variant normal_kernel_detected() names (normal_kernel.cpp).
void box_muller_standard_normals(const std::uint32_t* words, std::size_t n, int words_per_uniform, double* z);

// One entry point set per variant (box_muller_<isa>.cpp); the vector ones exist on x86-64 only.
#define TRNRAND_BOX_MULLER_VARIANT(isa)                                                                   \
  void box_muller_normals_##isa(const std::uint32_t* w, std::size_t n, int words_per_uniform, double* z); \
  void box_muller_log_##isa(const double* x, std::size_t n, double* y);                                   \
  void box_muller_cospi_##isa(const double* x, std::size_t n, double* y);
TRNRAND_BOX_MULLER_VARIANT(scalar)
#if defined(__x86_64__)
TRNRAND_BOX_MULLER_VARIANT(sse2)
TRNRAND_BOX_MULLER_VARIANT(avx)
TRNRAND_BOX_MULLER_VARIANT(avx512)
#endif
#undef TRNRAND_BOX_MULLER_VARIANT

}  // namespace trnrand::detail

// Defines variant `isa`'s entry points from the vector type V (in the ISA's translation unit).
#define TRNRAND_BOX_MULLER_DEFINE(isa, V)                                                                              \
  void box_muller_normals_##isa(const std::uint32_t* w, std::size_t n, int words_per_uniform, double* z) {             \
    box_muller_kernel::normals<V>(w, n, words_per_uniform, z);                                                         \
  }                                                                                                                    \
  void box_muller_log_##isa(const double* x, std::size_t n, double* y) { box_muller_kernel::map<V>(x, n, y, V::log); } \
  void box_muller_cospi_##isa(const double* x, std::size_t n, double* y) {                                             \
    box_muller_kernel::map<V>(x, n, y, V::cospi);                                                                      \
  }
