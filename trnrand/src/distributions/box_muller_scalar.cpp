// The normal kernel one value at a time: SLEEF's cinz pure C scalar functions ("purec"), which SLEEF
// documents as returning the same results as its cinz vector functions. Runs everywhere; the fills use it
// only off x86-64.
#include "distributions/box_muller_kernel.hpp"

#include <sleef.h>

namespace trnrand::detail {

namespace {

struct Scalar {
  static constexpr std::size_t lanes = 1;
  static void normal(const double* u1, const double* t, double* z) {
    *z = __builtin_sqrt(-2.0 * Sleef_cinz_logd1_u10purec(*u1)) * Sleef_cinz_cospid1_u05purec(*t);
  }
  static void log(const double* x, double* y) { *y = Sleef_cinz_logd1_u10purec(*x); }
  static void cospi(const double* x, double* y) { *y = Sleef_cinz_cospid1_u05purec(*x); }
};

}  // namespace

TRNRAND_BOX_MULLER_DEFINE(scalar, Scalar)

}  // namespace trnrand::detail
