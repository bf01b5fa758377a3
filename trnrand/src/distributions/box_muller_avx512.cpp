// The normal kernel on AVX-512F: SLEEF's cinz functions for 8 doubles ("avx512fnofma": no fused
// multiply-add, so the same bits as every other variant). Compiled with -mavx512f (sources.cmake); runs
// only where normal_kernel_supported(NormalKernel::avx512).
#include "distributions/box_muller_kernel.hpp"

#include <immintrin.h>
#include <sleef.h>

namespace trnrand::detail {

// GCC 12 reports _mm512_sqrt_pd's internal _mm512_undefined_pd() placeholder as maybe uninitialized once
// inlined (GCC bug 105593, as in trncore's AVX-512 kernels); nothing here is uninitialized.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace {

struct Avx512 {
  static constexpr std::size_t lanes = 8;
  static void normal(const double* u1, const double* t, double* z) {
    const __m512d a = Sleef_cinz_logd8_u10avx512fnofma(_mm512_loadu_pd(u1));
    const __m512d r = _mm512_sqrt_pd(_mm512_mul_pd(_mm512_set1_pd(-2.0), a));
    _mm512_storeu_pd(z, _mm512_mul_pd(r, Sleef_cinz_cospid8_u05avx512fnofma(_mm512_loadu_pd(t))));
  }
  static void log(const double* x, double* y) {
    _mm512_storeu_pd(y, Sleef_cinz_logd8_u10avx512fnofma(_mm512_loadu_pd(x)));
  }
  static void cospi(const double* x, double* y) {
    _mm512_storeu_pd(y, Sleef_cinz_cospid8_u05avx512fnofma(_mm512_loadu_pd(x)));
  }
};

}  // namespace

TRNRAND_BOX_MULLER_DEFINE(avx512, Avx512)

#pragma GCC diagnostic pop

}  // namespace trnrand::detail
