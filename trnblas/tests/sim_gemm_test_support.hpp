#pragma once
// Test problems and the MPFR oracle for the sim GEMM tests: random matrices with a chosen exponent spread
// per row of A and column of B, the exact α·A·B + β·C rounded once to double-double precision, and
// the componentwise error measure |computed − exact| / (|α||A||B| + |β||C|).
#include <trncore/view.hpp>
#include <trnblas/types.hpp>

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace trnblas_test {

template <class T>
struct Problem {
  std::int64_t m = 0, n = 0, k = 0;
  T alpha = 1, beta = 0;
  std::vector<T> a, b, c;  // row-major m×k, k×n, m×n
};

/// Entries uniform in ±[1, 2) times 2^e with e uniform in [−spread, spread], drawn per entry, so every row
/// and column spreads over up to 2^±spread; alpha = 1.5, beta = −0.75 (both exact in every format).
template <class T>
Problem<T> random_problem(std::int64_t m, std::int64_t n, std::int64_t k, int spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> expo(-spread, spread);
  std::bernoulli_distribution sign(0.5);
  const auto draw = [&](std::size_t count) {
    std::vector<T> v(count);
    for (T& x : v) {
      // Drawn in a fixed order (sign, exponent, mantissa: the order GCC happened to use) so the data, and so
      // the test, are the same with every compiler; function arguments are evaluated in unspecified order.
      const double sgn = sign(rng) ? -1.0 : 1.0;
      const int e = expo(rng);
      const double f = mant(rng);
      x = static_cast<T>(sgn * std::ldexp(f, e));
    }
    return v;
  };
  Problem<T> p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = T(1.5);
  p.beta = T(-0.75);
  p.a = draw(static_cast<std::size_t>(m * k));
  p.b = draw(static_cast<std::size_t>(k * n));
  p.c = draw(static_cast<std::size_t>(m * n));
  return p;
}

template <class T>
std::vector<double> to_double(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

/// The exact result (rounded to 2×53 bits, far below every bound tested) and the magnitude it is measured against.
struct Exact {
  std::vector<double> hi, lo, magnitude;
};

/// α·A·B + β·C with MPFR at 2048 bits — exact for these inputs (|exponents| ≪ 1000, k ≪ 2^20) — and
/// |α||A||B| + |β||C| in MPFR too.
template <class T>
Exact exact_gemm(const Problem<T>& p) {
  Exact e;
  const std::size_t mn = static_cast<std::size_t>(p.m * p.n);
  e.hi.resize(mn);
  e.lo.resize(mn);
  e.magnitude.resize(mn);
  mpfr_t sum, mag, term;
  mpfr_inits2(2048, sum, mag, term, static_cast<mpfr_ptr>(nullptr));
  for (std::int64_t i = 0; i < p.m; ++i)
    for (std::int64_t j = 0; j < p.n; ++j) {
      mpfr_set_zero(sum, 1);
      mpfr_set_zero(mag, 1);
      for (std::int64_t q = 0; q < p.k; ++q) {
        mpfr_set_d(term, static_cast<double>(p.a[static_cast<std::size_t>(i * p.k + q)]), MPFR_RNDN);
        mpfr_mul_d(term, term, static_cast<double>(p.b[static_cast<std::size_t>(q * p.n + j)]), MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
        mpfr_abs(term, term, MPFR_RNDN);
        mpfr_add(mag, mag, term, MPFR_RNDN);
      }
      mpfr_mul_d(sum, sum, static_cast<double>(p.alpha), MPFR_RNDN);
      mpfr_mul_d(mag, mag, std::abs(static_cast<double>(p.alpha)), MPFR_RNDN);
      const double c = static_cast<double>(p.c[static_cast<std::size_t>(i * p.n + j)]);
      if (p.beta != T(0)) {
        mpfr_set_d(term, c, MPFR_RNDN);
        mpfr_mul_d(term, term, static_cast<double>(p.beta), MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
        mpfr_abs(term, term, MPFR_RNDN);
        mpfr_add(mag, mag, term, MPFR_RNDN);
      }
      const std::size_t at = static_cast<std::size_t>(i * p.n + j);
      e.hi[at] = mpfr_get_d(sum, MPFR_RNDN);
      mpfr_sub_d(term, sum, e.hi[at], MPFR_RNDN);
      e.lo[at] = mpfr_get_d(term, MPFR_RNDN);
      e.magnitude[at] = mpfr_get_d(mag, MPFR_RNDN);
    }
  mpfr_clears(sum, mag, term, static_cast<mpfr_ptr>(nullptr));
  return e;
}

/// max over elements of |computed − exact| / magnitude (elements with magnitude 0 must be exactly 0).
template <class T>
double worst_relative_error(const Exact& e, const std::vector<T>& computed) {
  double worst = 0.0;
  for (std::size_t i = 0; i < e.hi.size(); ++i) {
    const double err = std::abs((static_cast<double>(computed[i]) - e.hi[i]) - e.lo[i]);
    if (e.magnitude[i] == 0.0)
      worst = std::max(worst, err == 0.0 ? 0.0 : HUGE_VAL);
    else
      worst = std::max(worst, err / e.magnitude[i]);
  }
  return worst;
}

/// Stores the row-major rows×cols matrix x so that op(stored) = x in `layout`, with ld padded by `pad`.
template <class T>
std::pair<std::vector<T>, std::int64_t> store(const std::vector<T>& x, std::int64_t rows, std::int64_t cols,
                                              trncore::Layout layout, trnblas::Op op, std::int64_t pad) {
  const bool transposed = op != trnblas::Op::no_trans;
  // The stored matrix is x (rows×cols) or xᵀ (cols×rows); element (r, c) of it lives at r·ld + c in
  // row-major storage and at r + c·ld in column-major storage.
  const std::int64_t sr = transposed ? cols : rows, sc = transposed ? rows : cols;
  const std::int64_t ld = (layout == trncore::Layout::row_major ? sc : sr) + pad;
  std::vector<T> out(static_cast<std::size_t>(ld * (layout == trncore::Layout::row_major ? sr : sc)), T(0));
  for (std::int64_t r = 0; r < sr; ++r)
    for (std::int64_t c = 0; c < sc; ++c) {
      const T v = transposed ? x[static_cast<std::size_t>(c * cols + r)] : x[static_cast<std::size_t>(r * cols + c)];
      out[static_cast<std::size_t>(layout == trncore::Layout::row_major ? r * ld + c : r + c * ld)] = v;
    }
  return {std::move(out), ld};
}

}  // namespace trnblas_test
