#pragma once
/// @file
/// Double-double ("double-word") arithmetic: a value hi + lo with |lo| ≤ ulp(hi)/2, about 106
/// significant bits, on double hardware. Algorithms and their relative error bounds (u = 2^-53) from
/// Joldes, Muller, Popescu, "Tight and rigorous error bounds for basic building blocks of double-word
/// arithmetic", ACM TOMS 44(2), 2017 (JMP below). Bounds assume no underflow or overflow; special values
/// follow IEEE through the hi part (inf, NaN, division by zero), with no exceptions thrown.

#include <trncore/eft.hpp>

#include <cmath>
#include <compare>

namespace trncore {

/// A double-double number hi + lo, normalised so that hi = fl(hi + lo).
class dd {
 public:
  constexpr dd() noexcept = default;
  /// The double x exactly.
  constexpr dd(double x) noexcept : hi_(x) {}  // NOLINT: implicit, like a widening conversion
  /// a + b normalised (exact: no information is lost).
  static constexpr dd from_sum(double a, double b) noexcept {
    const auto [s, e] = two_sum(a, b);
    return dd(s, e, Normalised{});
  }
  /// The exact product a·b (see two_prod for the underflow caveat).
  static dd from_product(double a, double b) noexcept {
    const auto [p, e] = two_prod(a, b);
    return dd(p, e, Normalised{});
  }

  /// The leading part: the double nearest to hi + lo.
  constexpr double hi() const noexcept { return hi_; }
  /// The trailing part, |lo| ≤ ulp(hi)/2 (0 for a dd made from a single double).
  constexpr double lo() const noexcept { return lo_; }
  /// The nearest double to hi + lo (hi itself, by normalisation).
  constexpr double to_double() const noexcept { return hi_; }

  /// −x, exact (both parts negated).
  constexpr dd operator-() const noexcept { return dd(-hi_, -lo_, Normalised{}); }

  /// x + y, JMP Alg. 6 ("AccurateDWPlusDW"): relative error ≤ 3u² + 13u³.
  friend constexpr dd operator+(dd x, dd y) noexcept {
    const auto [sh, sl] = two_sum(x.hi_, y.hi_);
    if (!std::isfinite(sh)) return dd(sh);  // inf or NaN: the error terms would be NaN
    const auto [th, tl] = two_sum(x.lo_, y.lo_);
    const auto [vh, vl] = fast_two_sum(sh, sl + th);
    const auto [zh, zl] = fast_two_sum(vh, tl + vl);
    return dd(zh, zl, Normalised{});
  }
  /// x + y for a double y, JMP Alg. 4 ("DWPlusFP"): relative error ≤ 2u².
  friend constexpr dd operator+(dd x, double y) noexcept {
    const auto [sh, sl] = two_sum(x.hi_, y);
    if (!std::isfinite(sh)) return dd(sh);
    const auto [zh, zl] = fast_two_sum(sh, x.lo_ + sl);
    return dd(zh, zl, Normalised{});
  }
  /// x + y for a double x: operator+(dd, double), relative error ≤ 2u².
  friend constexpr dd operator+(double x, dd y) noexcept { return y + x; }
  /// x − y = x + (−y) (negation is exact): relative error ≤ 3u² + 13u³, as operator+(dd, dd).
  friend constexpr dd operator-(dd x, dd y) noexcept { return x + (-y); }
  /// x − y for a double y = x + (−y): relative error ≤ 2u², as operator+(dd, double).
  friend constexpr dd operator-(dd x, double y) noexcept { return x + (-y); }
  /// x − y for a double x = (−y) + x: relative error ≤ 2u², as operator+(dd, double).
  friend constexpr dd operator-(double x, dd y) noexcept { return (-y) + x; }

  /// x·y, JMP Alg. 12 ("DWTimesDW3", with FMA): relative error ≤ 5u² (JMP; later sharpened to 4u²).
  friend dd operator*(dd x, dd y) noexcept {
    const auto [ch, cl1] = two_prod(x.hi_, y.hi_);
    if (!std::isfinite(ch)) return dd(ch);
    const double tl0 = x.lo_ * y.lo_;
    const double tl1 = std::fma(x.hi_, y.lo_, tl0);
    const double cl2 = std::fma(x.lo_, y.hi_, tl1);
    const auto [zh, zl] = fast_two_sum(ch, cl1 + cl2);
    return dd(zh, zl, Normalised{});
  }
  /// x·y for a double y, JMP Alg. 9 ("DWTimesFP3", with FMA): relative error ≤ 2u².
  friend dd operator*(dd x, double y) noexcept {
    const auto [ch, cl1] = two_prod(x.hi_, y);
    if (!std::isfinite(ch)) return dd(ch);
    const double cl3 = std::fma(x.lo_, y, cl1);
    const auto [zh, zl] = fast_two_sum(ch, cl3);
    return dd(zh, zl, Normalised{});
  }
  /// x·y for a double x: operator*(dd, double), relative error ≤ 2u².
  friend dd operator*(double x, dd y) noexcept { return y * x; }

  /// x / y by long division: three quotient digits, each remainder computed with the products above.
  /// Relative error below 4u² in the tests against MPFR (a measured figure, not a published theorem).
  friend dd operator/(dd x, dd y) noexcept {
    const double q1 = x.hi_ / y.hi_;
    if (!std::isfinite(q1) || q1 == 0) return dd(q1);  // ±inf, NaN (0/0, inf/inf), or x = 0
    const dd r1 = x - y * q1;
    const double q2 = r1.hi_ / y.hi_;
    const dd r2 = r1 - y * q2;
    const double q3 = r2.hi_ / y.hi_;
    return from_sum(q1, q2) + q3;
  }
  /// x / y for a double y: operator/(dd, dd) with y exact as a dd.
  friend dd operator/(dd x, double y) noexcept { return x / dd(y); }
  /// x / y for a double x: operator/(dd, dd) with x exact as a dd.
  friend dd operator/(double x, dd y) noexcept { return dd(x) / y; }

  /// *this = *this + y, with the error bound of operator+(dd, dd).
  dd& operator+=(dd y) noexcept { return *this = *this + y; }
  /// *this = *this − y, with the error bound of operator+(dd, dd).
  dd& operator-=(dd y) noexcept { return *this = *this - y; }
  /// *this = *this · y, with the error bound of operator*(dd, dd).
  dd& operator*=(dd y) noexcept { return *this = *this * y; }
  /// *this = *this / y, with the accuracy of operator/(dd, dd).
  dd& operator/=(dd y) noexcept { return *this = *this / y; }

  /// Compares the exact values hi + lo (NaN unordered).
  friend constexpr std::partial_ordering operator<=>(dd x, dd y) noexcept {
    const auto c = x.hi_ <=> y.hi_;
    return c != 0 ? c : x.lo_ <=> y.lo_;
  }
  /// Whether both parts are equal: for normalised values, whether hi + lo are equal (false with a NaN;
  /// +0 == −0).
  friend constexpr bool operator==(dd x, dd y) noexcept { return x.hi_ == y.hi_ && x.lo_ == y.lo_; }

 private:
  struct Normalised {};
  constexpr dd(double hi, double lo, Normalised) noexcept : hi_(hi), lo_(lo) {}

  double hi_ = 0;
  double lo_ = 0;
};

/// √x: one Newton step on s = fl(√hi) with the exact residual x − s² (two_prod). Relative error below
/// 4u² in the tests against MPFR (measured, not a published theorem). sqrt(0) = 0 (sign kept), sqrt of
/// a negative number is NaN, sqrt(inf) = inf.
inline dd sqrt(dd x) noexcept {
  const double s = std::sqrt(x.hi());
  if (!(s > 0) || std::isinf(s)) return dd(s);  // 0, NaN, inf: nothing to refine
  const auto [p, e] = two_prod(s, s);
  const double r = (((x.hi() - p) - e) + x.lo()) / (2 * s);
  return dd::from_sum(s, r);
}

/// |x|.
constexpr dd abs(dd x) noexcept { return x.hi() < 0 || (x.hi() == 0 && x.lo() < 0) ? -x : x; }

}  // namespace trncore
