// Correctly rounded binary32 exp/log/sin/cos by two evaluations (double, then long double) with a
// rounding test against the float midpoints (correctly_rounded.hpp states the method and assumptions).
#include <trncore/correctly_rounded.hpp>

#include <cmath>
#include <limits>

namespace trncore {

namespace {

// Relative error bounds assumed for the libm evaluations (correctly_rounded.hpp).
constexpr double kDoubleBound = 0x1p-50;
constexpr long double kExtendedBound = 0x1p-60L;

// Values ≥ 2^128 − 2^103 (FLT_MAX plus half its ulp) round to +inf.
constexpr long double kOverflow = 0x1.ffffffp127L;

template <class T>
T evaluate(CrFunction f, T x) {
  switch (f) {
    case CrFunction::exp: return std::exp(x);
    case CrFunction::log: return std::log(x);
    case CrFunction::sin: return std::sin(x);
    case CrFunction::cos: return std::cos(x);
  }
  return std::numeric_limits<T>::quiet_NaN();
}

// y approximates a nonzero finite value v with |y − v| ≤ bound·|y|. Returns true and the float nearest v
// in `out` when every value within the bound rounds to the same float: the interval lies strictly
// between the midpoints that bracket fl(|y|).
template <class T>
bool decided(T y, T bound, float& out) {
  const T a = std::fabs(y), err = bound * a;
  const float r = static_cast<float>(a);  // one rounding, to nearest even
  T below, above;                         // the midpoints to r's neighbours (exact in T)
  if (std::isinf(r)) {
    below = static_cast<T>(kOverflow);
    above = std::numeric_limits<T>::infinity();
  } else {
    const float lower = std::nextafter(r, 0.0f), upper = std::nextafter(r, std::numeric_limits<float>::infinity());
    below = r == 0.0f ? T(0) : (static_cast<T>(r) + static_cast<T>(lower)) / 2;
    above = std::isinf(upper) ? static_cast<T>(kOverflow) : (static_cast<T>(r) + static_cast<T>(upper)) / 2;
  }
  if (!(a - err > below && a + err < above)) return false;
  out = std::copysign(r, static_cast<float>(y));
  return true;
}

}  // namespace

CrResult correctly_rounded(CrFunction f, float x) noexcept {
  if (f != CrFunction::exp && f != CrFunction::log && f != CrFunction::sin && f != CrFunction::cos)
    return {std::numeric_limits<float>::quiet_NaN(), CrPath::special};
  const double y = evaluate(f, static_cast<double>(x));
  // NaN, infinite or zero inputs and results are exact (log(1) = 0, sin(±0) = ±0, exp overflow past the
  // double range is +inf and underflow to 0 lies far below the smallest float subnormal).
  if (!std::isfinite(x) || !std::isfinite(y) || y == 0) return {static_cast<float>(y), CrPath::special};
  float out;
  if (decided(y, kDoubleBound, out)) return {out, CrPath::binary64};
  const long double z = evaluate(f, static_cast<long double>(x));
  if (decided(z, kExtendedBound, out)) return {out, CrPath::extended};
  return {static_cast<float>(z), CrPath::unresolved};
}

}  // namespace trncore
