#pragma once
/// @file
/// Error-free transformations and compensated arithmetic: the building blocks of the suite's
/// accurate-from-inexact algorithms (compensated GEMM, Ozaki splits, iterative refinement).
///
/// All functions assume IEEE arithmetic in round-to-nearest with no contraction of a·b + c into an FMA
/// (trnsci builds with -std=c++20, where GCC does not contract); fl(·) below is one rounded operation and
/// u = 2^-p is the unit roundoff (2^-24 float, 2^-53 double).

#include <trncore/error.hpp>

#include <cmath>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>

namespace trncore {

/// A value and its rounding error: the exact result is value + error.
template <std::floating_point T>
struct ValueError {
  /// The rounded result fl(·).
  T value;
  /// Its rounding error: exact result − value (exact itself under each function's hypotheses).
  T error;
};

/// TwoSum (Knuth, TAOCP vol. 2, 4.2.2): s = fl(a + b) and e with a + b = s + e exactly, for any a, b whose
/// sum does not overflow (subnormals included: a sum's rounding error is always representable).
/// 6 flops, no branch, no precondition. If fl(a + b) overflows, s is ±inf and e is NaN or ∓inf.
template <std::floating_point T>
constexpr ValueError<T> two_sum(T a, T b) noexcept {
  const T s = a + b;
  const T bb = s - a;
  const T e = (a - (s - bb)) + (b - bb);
  return {s, e};
}

/// FastTwoSum (Dekker 1971): the same result as two_sum in 3 flops, provided |a| ≥ |b| or a = 0 (more
/// generally, exponent(a) ≥ exponent(b)). With the precondition violated e may be wrong.
template <std::floating_point T>
constexpr ValueError<T> fast_two_sum(T a, T b) noexcept {
  const T s = a + b;
  const T e = b - (s - a);
  return {s, e};
}

/// TwoProd with FMA: p = fl(a·b) and e = fma(a, b, −p), so a·b = p + e exactly unless the product
/// underflows — precisely, exact when e_a + e_b ≥ e_min + p − 1 for the exponents of a and b (then the
/// error term is representable); below that e is the rounded error and the identity holds to within
/// half a subnormal ulp. If fl(a·b) overflows, p is ±inf and e is ∓inf or NaN.
template <std::floating_point T>
inline ValueError<T> two_prod(T a, T b) noexcept {
  const T p = a * b;
  return {p, std::fma(a, b, -p)};
}

/// Kahan's compensated summation. After adding x_1 … x_n, |value() − Σx_i| ≤ (2u + O(n u²)) Σ|x_i|
/// (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., §4.3): the error no longer grows
/// with n at first order. Loses its advantage when a term is larger in magnitude than the running sum;
/// use NeumaierAccumulator then.
template <std::floating_point T>
class KahanAccumulator {
 public:
  /// Adds x to the running sum, carrying the low-order bits that the addition lost into the next one.
  constexpr void add(T x) noexcept {
    const T y = x - c_;
    const T t = sum_ + y;
    c_ = (t - sum_) - y;
    sum_ = t;
  }
  /// The compensated sum of the terms added so far (0 before the first add()), with the bound above.
  constexpr T value() const noexcept { return sum_; }

 private:
  T sum_ = 0;
  T c_ = 0;
};

/// Neumaier's variant (Kahan–Babuška–Neumaier, Z. angew. Math. Mech. 54, 1974): keeps each addition's
/// exact error with a magnitude test, so it stays accurate when terms exceed the running sum; the result
/// satisfies |value() − Σx_i| ≤ u|Σx_i| + O(n u²) Σ|x_i| (Sum2's bound, below, is the sharp form).
template <std::floating_point T>
class NeumaierAccumulator {
 public:
  /// Adds x to the running sum and the exact error of that addition to the separate correction term.
  constexpr void add(T x) noexcept {
    const T t = sum_ + x;
    if (std::abs(sum_) >= std::abs(x))
      c_ += (sum_ - t) + x;
    else
      c_ += (x - t) + sum_;
    sum_ = t;
  }
  /// The running sum plus its accumulated correction (0 before the first add()), with the bound above.
  constexpr T value() const noexcept { return sum_ + c_; }

 private:
  T sum_ = 0;
  T c_ = 0;
};

/// Sum2 (Ogita, Rump, Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005, Alg. 4.4):
/// the sum as if accumulated in twice the working precision and rounded once:
/// |sum2(x) − Σx_i| ≤ u|Σx_i| + γ_{n−1}² Σ|x_i|, with γ_k = k u / (1 − k u), for n u < 1.
/// n = 0 gives +0. Never throws.
template <std::floating_point T>
T sum2(std::span<const T> x) noexcept {
  if (x.empty()) return T(0);
  T p = x[0], s = 0;
  for (std::size_t i = 1; i < x.size(); ++i) {
    const auto [sum, err] = two_sum(p, x[i]);
    p = sum;
    s += err;
  }
  return p + s;
}

/// Dot2 (Ogita–Rump–Oishi 2005, Alg. 5.3): xᵀy as if computed in twice the working precision and rounded:
/// |dot2(x, y) − xᵀy| ≤ u|xᵀy| + γ_n² |x|ᵀ|y|, with γ_n = n u / (1 − n u), for n u < 1 and no underflow
/// (Prop. 5.5 of the paper). So the relative error is about u + n²u²·cond(xᵀy).
/// @throws trncore::DimensionMismatch if x and y differ in length (naming both).
template <std::floating_point T>
T dot2(std::span<const T> x, std::span<const T> y) {
  if (x.size() != y.size())
    throw DimensionMismatch("trncore::dot2",
                            "x has " + std::to_string(x.size()) + " elements but y has " + std::to_string(y.size()),
                            "pass vectors of equal length");
  if (x.empty()) return T(0);
  auto [p, s] = two_prod(x[0], y[0]);
  for (std::size_t i = 1; i < x.size(); ++i) {
    const auto [h, r] = two_prod(x[i], y[i]);
    const auto [sum, q] = two_sum(p, h);
    p = sum;
    s += q + r;
  }
  return p + s;
}

/// Dot2 on raw pointers with BLAS-style length: n ≥ 0 elements of x and y.
/// @throws trncore::InvalidArgument if n < 0 (naming n), or if x or y is null with n > 0.
template <std::floating_point T>
T dot2(const T* x, const T* y, std::int64_t n) {
  if (n < 0) throw InvalidArgument("trncore::dot2", "n = " + std::to_string(n) + " is negative", "pass n >= 0");
  if (n > 0 && (x == nullptr || y == nullptr))
    throw InvalidArgument("trncore::dot2", "null vector with n = " + std::to_string(n), "pass storage for n elements");
  if (n == 0) return T(0);
  return dot2(std::span<const T>(x, static_cast<std::size_t>(n)), std::span<const T>(y, static_cast<std::size_t>(n)));
}

}  // namespace trncore
