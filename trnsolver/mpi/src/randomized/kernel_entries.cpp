// Entries of the Gaussian kernel matrix (kernel_entries.hpp). Compiled with -fno-trapping-math (sources.cmake).
#include "kernel_entries.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace trnsolver::mpi::randomized_detail {

namespace {

/// e^x for x ≤ 0 in float: x < −87 gives 0 (e^x < 1.7e−38), else 2ⁿ·p(r) with n = round(x/ln 2),
/// r = x − n·ln2 (Cody–Waite, two constants) and p the Taylor polynomial of degree 7 (truncation
/// |r|⁸/8! ≤ 5.6e−9 < u/2 for |r| ≤ 0.347). exp_fixed(0) = 1 exactly.
inline __attribute__((always_inline)) float exp_fixed(float x) {
  const float xc = x < -87.0f ? -87.0f : x;
  const float nf = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  float r = xc - nf * 0.693145751953125f;
  r = r - nf * 1.428606765330187045e-06f;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(nf) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return x < -87.0f ? 0.0f : p * scale;
}

inline double exp_fixed(double x) { return std::exp(x); }

/// out(i, j) = K(r0 + i, c0 + j), column-major with ld; points row-major n×d in double (exact copies of T).
// One column j of a tile: dist(i) = Σ_t (x_r(t, i) − c_t)², out(i) = exp(−dist(i)·scale). Cloned for AVX-512,
// AVX2 and the baseline (chosen at load time): every clone performs the same IEEE operations per element (no
// contraction, -ffp-contract=off), so the bits never depend on the CPU's vector width.
template <class T>
inline __attribute__((always_inline)) void column(const T* xr, std::int64_t d, std::int64_t rows, const T* c, T scale,
                                                  T* dist, T* out) {
  std::fill(dist, dist + rows, T(0));
  for (std::int64_t t = 0; t < d; ++t) {
    const T ct = c[t];
    const T* x = xr + t * rows;
    for (std::int64_t i = 0; i < rows; ++i) {
      const T diff = x[i] - ct;
      dist[i] += diff * diff;
    }
  }
  for (std::int64_t i = 0; i < rows; ++i) out[i] = exp_fixed(-(dist[i] * scale));
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void column_float(const float* xr, std::int64_t d,
                                                                               std::int64_t rows, const float* c,
                                                                               float scale, float* dist, float* out) {
  column<float>(xr, d, rows, c, scale, dist, out);
}

void column_of(const float* xr, std::int64_t d, std::int64_t rows, const float* c, float scale, float* dist,
               float* out) {
  column_float(xr, d, rows, c, scale, dist, out);
}
void column_of(const double* xr, std::int64_t d, std::int64_t rows, const double* c, double scale, double* dist,
               double* out) {
  column<double>(xr, d, rows, c, scale, dist, out);
}

}  // namespace

template <class T>
void kernel_entries(const double* points, std::int64_t d, double h, std::int64_t r0, std::int64_t rows, std::int64_t c0,
                    std::int64_t cols, T* out, std::int64_t ld) {
  const T scale = static_cast<T>(1.0 / (2.0 * h * h));
  std::vector<T> xr(static_cast<std::size_t>(d * rows));  // the rows' coordinates, coordinate-major
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t t = 0; t < d; ++t)
      xr[static_cast<std::size_t>(t * rows + i)] = static_cast<T>(points[(r0 + i) * d + t]);
  std::vector<T> dist(static_cast<std::size_t>(rows)), c(static_cast<std::size_t>(d));
  for (std::int64_t j = 0; j < cols; ++j) {
    for (std::int64_t t = 0; t < d; ++t) c[static_cast<std::size_t>(t)] = static_cast<T>(points[(c0 + j) * d + t]);
    column_of(xr.data(), d, rows, c.data(), scale, dist.data(), out + j * ld);
  }
}

template void kernel_entries<float>(const double*, std::int64_t, double, std::int64_t, std::int64_t, std::int64_t,
                                    std::int64_t, float*, std::int64_t);
template void kernel_entries<double>(const double*, std::int64_t, double, std::int64_t, std::int64_t, std::int64_t,
                                     std::int64_t, double*, std::int64_t);

}  // namespace trnsolver::mpi::randomized_detail
