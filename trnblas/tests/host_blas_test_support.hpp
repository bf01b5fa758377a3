#pragma once
// Shared pieces of the host BLAS tests: random strided vectors and padded matrices in either layout, the
// long-double oracle's scalar types, and the error bounds the tests compare against.
//
// Every bound is the routine's documented standard bound, γ_K(u) = K·u/(1 − K·u) with u = 2^-24 or 2^-53
// (4u for complex data, which covers a complex product's √2·γ₂ and a complex sum's u: Higham, ASNA 2nd ed.,
// §3.6), plus the oracle's own error: the oracle evaluates the same formula in long double (64-bit
// significand), so its error is at most γ_{K+4}(4·2^-64) relative to the same magnitude — 2^-9 of even
// the float-complex bound's unit, but added rather than assumed away.
#include <trnblas/trnblas.hpp>
#include <trncore/error.hpp>

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace trnblas_test {

using trnblas::Diag;
using trnblas::Op;
using trnblas::Side;
using trnblas::Uplo;
using trncore::Layout;

template <class T>
constexpr bool is_complex = trnblas::is_complex_v<T>;
template <class T>
using Real = trnblas::real_type<T>;
/// The oracle's scalar: long double, or std::complex<long double>.
template <class T>
using Wide = std::conditional_t<is_complex<T>, std::complex<long double>, long double>;

template <class T>
Wide<T> widen(T x) {
  if constexpr (is_complex<T>)
    return {static_cast<long double>(x.real()), static_cast<long double>(x.imag())};
  else
    return static_cast<long double>(x);
}

template <class W>
W conj_if(W x, bool c) {
  if constexpr (std::is_floating_point_v<W>)
    return x;
  else
    return c ? std::conj(x) : x;
}

inline long double gamma(std::int64_t k, long double u) {
  const long double ku = static_cast<long double>(k) * u;
  return ku / (1 - ku);
}

/// u of T's arithmetic, 4u for complex data.
template <class T>
long double unit() {
  return std::numeric_limits<Real<T>>::epsilon() / 2.0L * (is_complex<T> ? 4 : 1);
}

/// The test bound: γ_k(u_T) + the oracle's γ_{k+4}(4·2^-64).
template <class T>
long double bound(std::int64_t k) {
  return gamma(k, unit<T>()) + gamma(k + 4, 4 * std::ldexp(1.0L, -64));
}

template <class T>
T draw(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (is_complex<T>)
    return T(static_cast<Real<T>>(u(rng)), static_cast<Real<T>>(u(rng)));
  else
    return static_cast<T>(u(rng));
}

template <class T>
T nan_value() {
  const Real<T> q = std::numeric_limits<Real<T>>::quiet_NaN();
  if constexpr (is_complex<T>)
    return T(q, q);
  else
    return q;
}

/// n elements with increment inc (negative: stored backwards from the lowest address, as BLAS) in a buffer
/// whose other elements are random too, so a test can see that the routine left them alone.
template <class T>
struct Vec {
  std::int64_t n, inc;
  std::vector<T> buf;
  Vec(std::int64_t n_, std::int64_t inc_, std::mt19937_64& rng) : n(n_), inc(inc_) {
    const std::int64_t step = inc < 0 ? -inc : inc;
    buf.resize(static_cast<std::size_t>(n > 0 ? (n - 1) * step + 1 : 1) + 1);  // +1: a guard past the end
    for (T& x : buf) x = draw<T>(rng);
  }
  std::size_t pos(std::int64_t i) const { return static_cast<std::size_t>(inc > 0 ? i * inc : (n - 1 - i) * -inc); }
  T& operator[](std::int64_t i) { return buf[pos(i)]; }
  const T& operator[](std::int64_t i) const { return buf[pos(i)]; }
  T* data() { return buf.data(); }
  const T* data() const { return buf.data(); }
  /// Whether buf differs from `before` only at the vector's elements.
  bool gaps_unchanged(const std::vector<T>& before) const {
    std::vector<bool> element(buf.size(), false);
    for (std::int64_t i = 0; i < n; ++i) element[pos(i)] = true;
    for (std::size_t p = 0; p < buf.size(); ++p)
      if (!element[p] && !(buf[p] == before[p])) return false;
    return true;
  }
};

/// A rows×cols matrix in `layout` with leading dimension padded by `pad` (random padding, checked after).
template <class T>
struct Mat {
  std::int64_t rows, cols, ld;
  Layout layout;
  std::vector<T> buf;
  Mat(std::int64_t r, std::int64_t c, Layout l, std::mt19937_64& rng, std::int64_t pad = 2)
      : rows(r), cols(c), ld((l == Layout::row_major ? c : r) + pad), layout(l) {
    const std::int64_t lines = l == Layout::row_major ? r : c;
    buf.resize(static_cast<std::size_t>(ld * (lines > 0 ? lines : 1)));
    for (T& x : buf) x = draw<T>(rng);
  }
  std::size_t pos(std::int64_t i, std::int64_t j) const {
    return static_cast<std::size_t>(layout == Layout::row_major ? i * ld + j : i + j * ld);
  }
  T& operator()(std::int64_t i, std::int64_t j) { return buf[pos(i, j)]; }
  const T& operator()(std::int64_t i, std::int64_t j) const { return buf[pos(i, j)]; }
  T* data() { return buf.data(); }
  const T* data() const { return buf.data(); }
  /// Whether buf differs from `before` only inside the rows×cols block.
  bool padding_unchanged(const std::vector<T>& before) const {
    for (std::size_t p = 0; p < buf.size(); ++p) {
      const std::int64_t a = static_cast<std::int64_t>(p) / ld, b = static_cast<std::int64_t>(p) % ld;
      const std::int64_t i = layout == Layout::row_major ? a : b, j = layout == Layout::row_major ? b : a;
      const bool inside = i < rows && j < cols;
      if (!inside && !(buf[p] == before[p])) return false;
    }
    return true;
  }
};

/// Element (i, j) of op(X), widened.
template <class T>
Wide<T> op_at(const Mat<T>& x, Op op, std::int64_t i, std::int64_t j) {
  return op == Op::no_trans ? widen(x(i, j)) : conj_if(widen(x(j, i)), op == Op::conj_trans);
}

/// Whether (i, j) lies in the `uplo` triangle (diagonal included).
inline bool in_triangle(Uplo uplo, std::int64_t i, std::int64_t j) { return uplo == Uplo::upper ? i <= j : i >= j; }

/// Fills the triangle opposite `uplo` (and the diagonal when `diagonal_too`) with NaN, so a routine that
/// reads what BLAS says it must not fails.
template <class T>
void poison(Mat<T>& a, Uplo uplo, bool diagonal_too) {
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < a.cols; ++j)
      if (!in_triangle(uplo, i, j) || (diagonal_too && i == j)) a(i, j) = nan_value<T>();
}

/// Element (i, j) of the symmetric (Hermitian) matrix whose `uplo` triangle is stored in a.
template <class T>
Wide<T> sym_at(const Mat<T>& a, Uplo uplo, bool hermitian, std::int64_t i, std::int64_t j) {
  if (i == j && hermitian) return std::real(widen(a(i, i)));  // BLAS takes the diagonal as real
  return in_triangle(uplo, i, j) ? widen(a(i, j)) : conj_if(widen(a(j, i)), hermitian);
}

/// Element (i, j) of op(T) for the triangular T stored in a.
template <class T>
Wide<T> tri_op_at(const Mat<T>& a, Uplo uplo, Op op, Diag diag, std::int64_t i, std::int64_t j) {
  const std::int64_t r = op == Op::no_trans ? i : j, c = op == Op::no_trans ? j : i;
  if (r == c && diag == Diag::unit) return 1;
  if (!in_triangle(uplo, r, c)) return 0;
  return conj_if(widen(a(r, c)), op == Op::conj_trans);
}

/// |got − want| ≤ tolerance, with the values in the failure message.
template <class T>
::testing::AssertionResult close(T got, Wide<T> want, long double tolerance) {
  const long double err = std::abs(widen(got) - want);
  if (err <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << widen(got) << ", want " << want << ", error " << err
                                       << " > allowed " << tolerance;
}

using trnsci_testing::message_of;

using Types = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;

inline const char* name(Layout l) { return l == Layout::row_major ? "row" : "col"; }

}  // namespace trnblas_test
