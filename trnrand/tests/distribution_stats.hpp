#pragma once
// What the distribution tests share: the decision rules (KS against the law of the rounded value, the
// chi-square test, CLT bounds on means) and CDF oracles written independently of the library — the
// regularized incomplete gamma P(a, x) (power series / Lentz continued fraction, DLMF 8.11.4 and 8.9.2),
// the regularized incomplete beta I_x(a, b) (continued fraction, DLMF 8.17.22) and erfc, in long double.
//
// Decision rules (fixed seeds, so every run is the same run):
// - Kolmogorov–Smirnov with n = 200000 at the DKW critical value √(ln(2/α)/(2n)) ≈ 0.0060 for
//   α = 1e-6: a correct sampler fails with probability below α (DKW: P(D > ε) ≤ 2e^{−2nε²}). A sampler
//   whose law G is off by 0.01 at some x is rejected unless |F_n(x) − G(x)| > 0.004, a deviation of
//   ≥ 3.5 standard deviations (sd ≤ 0.5/√n = 0.0011): power above 1 − 3e-4. (Checked when written: a 2%
//   change of a shape or scale in the oracle fails every case.)
//   Samples are rounded to float/double, so the statistic compares with the CDF of the *rounded* variable:
//   at a sample value v, F is evaluated at the midpoints to v's neighbours (exact in long double), which
//   makes atoms such as underflow to 0 (Gamma(1e-3)) or rounding to 1 (Beta(1e-3, 1e-3)) exact.
// - Chi-square at the 1e-6 upper quantile (Wilson–Hilferty), bins with expectation < 5 merged.
// - Means within 6 standard errors (σ/√n by the CLT; a correct sampler fails with probability ≈ 2e-9).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

namespace trnrand_test {

using ld = long double;

inline constexpr std::size_t kN = 200000;
inline const double kKsCritical = std::sqrt(std::log(2.0 / 1e-6) / (2.0 * kN));
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- oracles -------------------------------------------------------------------------------------

// P(a, x) = γ(a, x)/Γ(a): series x^a e^{-x}/Γ(a+1) Σ x^n/((a+1)…(a+n)) for x < a + 1, else 1 − Q with
// Q by the Lentz-evaluated continued fraction. Both converge to long double precision.
inline ld gamma_p(ld a, ld x) {
  if (!(x > 0)) return 0;
  if (x == std::numeric_limits<ld>::infinity()) return 1;
  const ld front = std::exp(a * std::log(x) - x - std::lgamma(a));
  if (x < a + 1) {
    ld term = 1 / a, sum = term;
    for (int n = 1; n < 1000000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (term < sum * 1e-20L) break;
    }
    return front * sum;
  }
  constexpr ld tiny = 1e-4000L;
  ld b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 1000000; ++i) {
    const ld an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const ld delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-19L) break;
  }
  return 1 - front * h;
}

// I_x(a, b) = x^a (1−x)^b / (a B(a, b)) · 1/(1 + d1/(1 + d2/(1 + …))), d_{2m+1} = −(a+m)(a+b+m)x /
// ((a+2m)(a+2m+1)), d_{2m} = m(b−m)x/((a+2m−1)(a+2m)); the symmetry I_x(a,b) = 1 − I_{1−x}(b,a) past the
// mean keeps the fraction fast.
inline ld beta_i(ld a, ld b, ld x) {
  if (!(x > 0)) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - beta_i(b, a, 1 - x);
  const ld front =
      std::exp(a * std::log(x) + b * std::log1p(-x) - std::lgamma(a) - std::lgamma(b) + std::lgamma(a + b)) / a;
  constexpr ld tiny = 1e-4000L;
  ld c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  ld h = d;
  for (int m = 1; m < 1000000; ++m) {
    for (int half = 0; half < 2; ++half) {
      const ld coef = half == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + coef * d;
      if (std::fabs(d) < tiny) d = tiny;
      c = 1 + coef / c;
      if (std::fabs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
      if (half == 1 && std::fabs(d * c - 1) < 1e-19L) return front * h;
    }
  }
  return front * h;
}

inline ld normal_cdf(ld z) { return 0.5L * std::erfc(-z / std::sqrt(2.0L)); }
inline ld normal_sf(ld z) { return 0.5L * std::erfc(z / std::sqrt(2.0L)); }

// Student t CDF: 1 − I_{ν/(ν+t²)}(ν/2, 1/2)/2 for t ≥ 0, by symmetry below.
inline ld student_cdf(ld nu, ld t) {
  const ld tail = beta_i(nu / 2, 0.5L, nu / (nu + t * t)) / 2;
  return t >= 0 ? 1 - tail : tail;
}

// ---- statistics ----------------------------------------------------------------------------------

// KS distance between the sample (of precision T) and the law F rounded to T. Each run of equal values
// v at sorted positions [i, j) is one jump of F_n from i/n to j/n; the rounded law jumps there from
// F(midpoint to the previous T) to F(midpoint to the next T). With stride > 1, F is evaluated only at
// runs at least `stride` positions apart (and the first and last): between two evaluated runs both
// F_n and F are monotone and F_n moves by at most stride/n, so D ≤ (evaluated sup) + stride/n, which is
// what is returned — an upper bound, so the test only gets stricter.
template <class T>
double ks(std::vector<T> x, const std::function<ld(ld)>& cdf, std::size_t stride = 1) {
  std::sort(x.begin(), x.end());
  const ld n = static_cast<ld>(x.size());
  ld d = 0;
  std::size_t next_eval = 0;
  for (std::size_t i = 0; i < x.size();) {
    std::size_t j = i + 1;
    while (j < x.size() && x[j] == x[i]) ++j;
    if (i >= next_eval || j == x.size() || j - i > 1) {
      const T v = x[i];
      const ld left = (static_cast<ld>(v) + std::nextafter(v, -std::numeric_limits<T>::infinity())) / 2;
      const ld right = (static_cast<ld>(v) + std::nextafter(v, std::numeric_limits<T>::infinity())) / 2;
      d = std::max({d, std::fabs(static_cast<ld>(j) / n - cdf(right)), std::fabs(cdf(left) - static_cast<ld>(i) / n)});
      next_eval = i + stride;
    }
    i = j;
  }
  return static_cast<double>(d) + (stride > 1 ? static_cast<double>(stride) / static_cast<double>(n) : 0.0);
}

inline double chi_square(const std::vector<double>& observed, const std::vector<double>& expected, int* dof) {
  double chi2 = 0, o = 0, e = 0;
  *dof = -1;
  for (std::size_t k = 0; k < observed.size(); ++k) {
    o += observed[k];
    e += expected[k];
    if (e >= 5 || k + 1 == observed.size()) {
      chi2 += (o - e) * (o - e) / e;
      ++*dof;
      o = e = 0;
    }
  }
  return chi2;
}

// Upper 1e-6 quantile of χ²(dof) by Wilson–Hilferty (within about 1% for dof ≥ 5; fewer degrees of
// freedom use the dof = 5 value, a higher threshold, i.e. an even smaller α). Every use here has dof ≥ 5.
inline double chi2_critical(int dof) {
  const double k = std::max(dof, 5), z = 4.753;
  const double t = 1 - 2 / (9 * k) + z * std::sqrt(2 / (9 * k));
  return k * t * t * t;
}

template <class T>
double mean_of(const std::vector<T>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0L, [](ld acc, T v) { return acc + static_cast<ld>(v); }) /
         static_cast<double>(x.size());
}

// 6 standard errors of a mean of n values with variance var (CLT).
inline double six_se(double var, std::size_t n) { return 6 * std::sqrt(var / static_cast<double>(n)); }

}  // namespace trnrand_test
