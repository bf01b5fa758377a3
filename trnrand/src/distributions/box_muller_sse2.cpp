// The normal kernel on SSE2: SLEEF's cinz functions for 2 doubles ("sse2": no fused
// multiply-add, so the same bits as every other variant). The x86-64 baseline: runs on every x86-64 CPU.
// No extra compiler flags.
#include "distributions/box_muller_kernel.hpp"

#include <immintrin.h>
#include <sleef.h>

namespace trnrand::detail {

namespace {

struct Sse2 {
  static constexpr std::size_t lanes = 2;
  static void normal(const double* u1, const double* t, double* z) {
    const __m128d a = Sleef_cinz_logd2_u10sse2(_mm_loadu_pd(u1));
    const __m128d r = _mm_sqrt_pd(_mm_mul_pd(_mm_set1_pd(-2.0), a));
    _mm_storeu_pd(z, _mm_mul_pd(r, Sleef_cinz_cospid2_u05sse2(_mm_loadu_pd(t))));
  }
  static void log(const double* x, double* y) { _mm_storeu_pd(y, Sleef_cinz_logd2_u10sse2(_mm_loadu_pd(x))); }
  static void cospi(const double* x, double* y) { _mm_storeu_pd(y, Sleef_cinz_cospid2_u05sse2(_mm_loadu_pd(x))); }
};

}  // namespace

TRNRAND_BOX_MULLER_DEFINE(sse2, Sse2)

}  // namespace trnrand::detail
