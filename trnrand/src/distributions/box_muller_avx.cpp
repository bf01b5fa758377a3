// The normal kernel on AVX: SLEEF's cinz functions for 4 doubles ("avx": no fused
// multiply-add, so the same bits as every other variant). Compiled with -mavx (sources.cmake); runs
// only where normal_kernel_supported(NormalKernel::avx).
#include "distributions/box_muller_kernel.hpp"

#include <immintrin.h>
#include <sleef.h>

namespace trnrand::detail {

namespace {

struct Avx {
  static constexpr std::size_t lanes = 4;
  static void normal(const double* u1, const double* t, double* z) {
    const __m256d a = Sleef_cinz_logd4_u10avx(_mm256_loadu_pd(u1));
    const __m256d r = _mm256_sqrt_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), a));
    _mm256_storeu_pd(z, _mm256_mul_pd(r, Sleef_cinz_cospid4_u05avx(_mm256_loadu_pd(t))));
  }
  static void log(const double* x, double* y) { _mm256_storeu_pd(y, Sleef_cinz_logd4_u10avx(_mm256_loadu_pd(x))); }
  static void cospi(const double* x, double* y) { _mm256_storeu_pd(y, Sleef_cinz_cospid4_u05avx(_mm256_loadu_pd(x))); }
};

}  // namespace

TRNRAND_BOX_MULLER_DEFINE(avx, Avx)

}  // namespace trnrand::detail
