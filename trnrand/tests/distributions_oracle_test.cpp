// Every distribution against a CDF / pmf computed independently (distribution_stats.hpp: closed forms,
// incomplete gamma and beta, erfc, lgammal), the normal quantile against MPFR, the positional contract,
// and the error messages. Decision rules: see distribution_stats.hpp.
#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>
#include <trnsci_testing/errors.hpp>

#include "distribution_stats.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>
#include <string>
#include <vector>

namespace {

using trnrand::Stream;
using namespace trnrand_test;

// ---- uniform -------------------------------------------------------------------------------------

TEST(DistributionsOracle, UniformFillsAreUniformOnTheirDocumentedIntervals) {
  for (auto interval : {trnrand::Interval::open_closed, trnrand::Interval::closed_open}) {
    std::vector<float> f(kN);
    std::vector<double> d(kN);
    trnrand::fill_uniform(trnrand::make_stream(100), std::span<float>(f), interval);
    trnrand::fill_uniform(trnrand::make_stream(101), std::span<double>(d), interval);
    // The 24-bit grid is exact, so the rounded law is the grid's: F(x) = clamp(x) up to 2^-24 ≪ 0.0027.
    EXPECT_LT(ks(f, [](ld x) { return std::clamp(x, 0.0L, 1.0L); }), kKsCritical);
    EXPECT_LT(ks(d, [](ld x) { return std::clamp(x, 0.0L, 1.0L); }), kKsCritical);
    const bool open_at_zero = interval == trnrand::Interval::open_closed;
    for (float v : f) ASSERT_TRUE(open_at_zero ? (v > 0 && v <= 1) : (v >= 0 && v < 1)) << v;
    for (double v : d) ASSERT_TRUE(open_at_zero ? (v > 0 && v <= 1) : (v >= 0 && v < 1)) << v;
  }
}

// ---- gamma, chi-squared, beta, Student t ---------------------------------------------------------

TEST(DistributionsOracle, GammaFollowsTheIncompleteGammaFromTinyToHugeShape) {
  // Shape 1e-3: about half the mass lies below 2^-1075 and rounds to 0 (an atom the rounded-law KS handles).
  // Shape 1e6: the oracle's series needs ~10^4 terms per point, so it is evaluated every 40th order
  // statistic (adds 40/n = 2e-4 to the statistic, see ks()).
  struct Case {
    double shape, scale;
    std::size_t stride;
  };
  for (const Case& c :
       {Case{1e-3, 2.0, 1}, Case{0.3, 1.0, 1}, Case{1.0, 0.5, 1}, Case{2.5, 3.0, 1}, Case{1e6, 1e-6, 40}}) {
    std::vector<double> x(kN);
    const Stream after = trnrand::gamma(trnrand::make_stream(200), std::span<double>(x), c.shape, c.scale);
    EXPECT_EQ(after.offset, kN << 32);  // the window budget
    EXPECT_LT(ks(
                  x, [&](ld v) { return gamma_p(c.shape, v / c.scale); }, c.stride),
              kKsCritical)
        << c.shape;
    // Mean kθ, variance kθ².
    EXPECT_NEAR(mean_of(x), c.shape * c.scale, six_se(c.shape * c.scale * c.scale, kN)) << c.shape;
  }
  for (const Case& c : {Case{1e-3, 1.0, 1}, Case{0.7, 2.0, 1}, Case{7.5, 1.0, 1}}) {
    std::vector<float> x(kN);
    trnrand::gamma(trnrand::make_stream(201), std::span<float>(x), static_cast<float>(c.shape),
                   static_cast<float>(c.scale));
    EXPECT_LT(ks(x, [&](ld v) { return gamma_p(c.shape, v / c.scale); }), kKsCritical) << c.shape;
  }
}

TEST(DistributionsOracle, ChiSquaredIsTwiceGammaOfHalfTheDegrees) {
  for (double k : {0.5, 3.0, 17.3}) {
    std::vector<double> x(kN);
    trnrand::chi_squared(trnrand::make_stream(210), std::span<double>(x), k);
    EXPECT_LT(ks(x, [&](ld v) { return gamma_p(k / 2, v / 2); }), kKsCritical) << k;
    EXPECT_NEAR(mean_of(x), k, six_se(2 * k, kN)) << k;  // mean k, variance 2k
  }
  std::vector<float> xf(kN);
  trnrand::chi_squared(trnrand::make_stream(211), std::span<float>(xf), 4.0f);
  EXPECT_LT(ks(xf, [](ld v) { return gamma_p(2, v / 2); }), kKsCritical);
}

TEST(DistributionsOracle, BetaFollowsTheIncompleteBetaIncludingTinyShapes) {
  struct Case {
    double a, b;
  };
  // (1e-3, 1e-3): the gammas underflow, nearly all mass rounds to exactly 0 or 1 (the log route).
  for (const Case& c : {Case{0.2, 0.7}, Case{5, 1.5}, Case{1, 1}, Case{50, 80}, Case{1e-3, 1e-3}, Case{0.5, 3}}) {
    std::vector<double> x(kN);
    trnrand::beta(trnrand::make_stream(220), std::span<double>(x), c.a, c.b);
    for (double v : x) ASSERT_TRUE(v >= 0 && v <= 1) << c.a << " " << c.b << " " << v;
    EXPECT_LT(ks(x, [&](ld v) { return beta_i(c.a, c.b, v); }), kKsCritical) << c.a << " " << c.b;
    // Mean a/(a+b), variance ab/((a+b)²(a+b+1)).
    const double s = c.a + c.b;
    EXPECT_NEAR(mean_of(x), c.a / s, six_se(c.a * c.b / (s * s * (s + 1)), kN)) << c.a << " " << c.b;
  }
  std::vector<float> xf(kN);
  trnrand::beta(trnrand::make_stream(221), std::span<float>(xf), 0.5f, 2.0f);
  EXPECT_LT(ks(xf, [](ld v) { return beta_i(0.5L, 2.0L, v); }), kKsCritical);
}

TEST(DistributionsOracle, StudentTFollowsItsCdfForSmallAndLargeNu) {
  // ν < 2 takes the logarithmic route; ν = 0.3 has tails so heavy that V underflows now and then.
  for (double nu : {0.3, 1.5, 3.0, 50.0}) {
    std::vector<double> x(kN);
    trnrand::student_t(trnrand::make_stream(230), std::span<double>(x), nu);
    for (double v : x) ASSERT_TRUE(std::isfinite(v)) << nu;
    EXPECT_LT(ks(x, [&](ld t) { return student_cdf(nu, t); }), kKsCritical) << nu;
  }
  // ν = 50: mean 0, variance ν/(ν − 2).
  std::vector<double> x(kN);
  trnrand::student_t(trnrand::make_stream(231), std::span<double>(x), 50.0);
  EXPECT_NEAR(mean_of(x), 0.0, six_se(50.0 / 48, kN));
  std::vector<float> xf(kN);
  trnrand::student_t(trnrand::make_stream(232), std::span<float>(xf), 5.0f);
  EXPECT_LT(ks(xf, [](ld t) { return student_cdf(5, t); }), kKsCritical);
}

// ---- truncated and multivariate normal -----------------------------------------------------------

ld truncated_cdf(ld mean, ld sd, ld lo, ld hi, ld v) {
  const ld a = (lo - mean) / sd, b = (hi - mean) / sd, z = std::clamp((v - mean) / sd, a, b);
  if (a >= 0) return (normal_sf(a) - normal_sf(z)) / (normal_sf(a) - normal_sf(b));  // upper tail: no cancellation
  return (normal_cdf(z) - normal_cdf(a)) / (normal_cdf(b) - normal_cdf(a));
}

TEST(DistributionsOracle, TruncatedNormalFloatAndFarTails) {
  struct Case {
    float mean, sd, lo, hi;
  };
  for (const Case& c : {Case{0, 1, -1, 2}, Case{3, 2, 10, 12}, Case{0, 1, -std::numeric_limits<float>::infinity(), -4},
                        Case{1, 0.5f, 0.9f, 1.1f}}) {
    std::vector<float> x(kN);
    trnrand::truncated_normal(trnrand::make_stream(240), std::span<float>(x), c.mean, c.sd, c.lo, c.hi);
    for (float v : x) ASSERT_TRUE(v >= c.lo && v <= c.hi) << v;
    EXPECT_LT(ks(x, [&](ld v) { return truncated_cdf(c.mean, c.sd, c.lo, c.hi, v); }), kKsCritical)
        << c.lo << " " << c.hi;
  }
  // 30σ out, where Φ̄ ≈ 5e-198: Robert's sampler still exact (long double erfc keeps the oracle exact).
  std::vector<double> x(kN);
  trnrand::truncated_normal(trnrand::make_stream(241), std::span<double>(x), 0.0, 1.0, 30.0, kInf);
  EXPECT_LT(ks(x, [](ld v) { return truncated_cdf(0, 1, 30, std::numeric_limits<ld>::infinity(), v); }), kKsCritical);
  // Mean of the tail: φ(a)/Φ̄(a) (inverse Mills ratio); variance 1 + a·λ − λ² with λ that ratio.
  const ld a = 30, lambda = std::exp(-a * a / 2) / std::sqrt(2 * std::numbers::pi_v<ld>) / normal_sf(a);
  EXPECT_NEAR(mean_of(x), static_cast<double>(lambda),
              six_se(static_cast<double>(1 + a * lambda - lambda * lambda), kN));
  // Astronomically far tails terminate (the rate (lo + √(lo² + 4))/2 must not overflow) and stay inside.
  for (double lo : {1e10, 1e200}) {
    std::vector<double> far(1000);
    trnrand::truncated_normal(trnrand::make_stream(242), std::span<double>(far), 0.0, 1.0, lo, kInf);
    for (double v : far) ASSERT_TRUE(v >= lo && v <= lo * (1 + 1e-12)) << lo << " " << v;
    trnrand::truncated_normal(trnrand::make_stream(242), std::span<double>(far), 0.0, 1.0, -std::nextafter(lo, kInf),
                              -lo);
    for (double v : far) ASSERT_TRUE(v <= -lo && v >= -std::nextafter(lo, kInf)) << lo << " " << v;
  }
  // Degenerate and empty intervals.
  std::vector<float> one(3);
  trnrand::truncated_normal(trnrand::make_stream(1), std::span<float>(one), 0.f, 1.f, 1.5f, 1.5f);
  EXPECT_EQ(one, std::vector<float>(3, 1.5f));
  EXPECT_THROW(trnrand::truncated_normal(trnrand::make_stream(1), std::span<float>(one), 0.f, 1.f, 2.f, 1.f),
               trncore::InvalidArgument);
}

// Row r of a multivariate normal solves L·z = x − μ for the standard normals z it was built from, so
// |z|² ~ χ²(d): a KS test of the whole joint law, not just its second moments.
template <class T>
void check_multivariate(std::uint64_t seed) {
  constexpr std::size_t d = 4;
  const std::vector<T> mean{1, -2, 0.5, 10};
  const std::vector<T> L{1.5, 0, 0, 0, -0.5, 2, 0, 0, 0.25, 0.75, 0.5, 0, 3, -1, 0.125, 1};
  std::vector<T> x(kN * d);
  trnrand::multivariate_normal(trnrand::make_stream(seed), std::span<T>(x), std::span<const T>(mean),
                               std::span<const T>(L));
  std::vector<double> r2(kN), last(kN);
  for (std::size_t r = 0; r < kN; ++r) {
    ld z[d], sum = 0;
    for (std::size_t i = 0; i < d; ++i) {
      ld v = static_cast<ld>(x[r * d + i]) - mean[i];
      for (std::size_t j = 0; j < i; ++j) v -= static_cast<ld>(L[i * d + j]) * z[j];
      z[i] = v / L[i * d + i];
      sum += z[i] * z[i];
    }
    r2[r] = static_cast<double>(sum);
    last[r] = static_cast<double>(x[r * d + d - 1]);
  }
  // Float rounding of x perturbs |z|² by ~1e-6 relative — far below the KS resolution.
  EXPECT_LT(ks(r2, [](ld v) { return gamma_p(d / 2.0L, v / 2); }), kKsCritical);
  // The last coordinate is N(10, Σ_44), Σ_44 = 9 + 1 + 1/64 + 1.
  const ld var = 9 + 1 + 1.0L / 64 + 1;
  EXPECT_LT(ks(last, [&](ld v) { return normal_cdf((v - 10) / std::sqrt(var)); }), kKsCritical);
}

TEST(DistributionsOracle, MultivariateNormalJointLawFloatAndDouble) {
  check_multivariate<double>(250);
  check_multivariate<float>(251);
  // With L = I and mean 0 the rows are normal()'s values, bit for bit, in both precisions.
  const std::vector<double> zero{0, 0}, eye{1, 0, 0, 1};
  std::vector<double> a(10), b(10);
  const Stream sa = trnrand::multivariate_normal(trnrand::make_stream(9), std::span<double>(a), zero, eye);
  const Stream sb = trnrand::normal(trnrand::make_stream(9), std::span<double>(b));
  EXPECT_EQ(a, b);
  EXPECT_EQ(sa, sb);
  const std::vector<float> zerof{0, 0}, eyef{1, 0, 0, 1};
  std::vector<float> af(10), bf(10);
  trnrand::multivariate_normal(trnrand::make_stream(9), std::span<float>(af), std::span<const float>(zerof),
                               std::span<const float>(eyef));
  trnrand::normal(trnrand::make_stream(9), std::span<float>(bf));
  EXPECT_EQ(af, bf);
}

// ---- discrete ------------------------------------------------------------------------------------

// Counts of k in [first, first + expected.size()) against n·pmf; a value outside fails (its probability
// is below 1e-20 in every case used).
void check_pmf(const std::vector<std::int64_t>& k, std::int64_t first, const std::vector<double>& pmf,
               const std::string& what) {
  std::vector<double> observed(pmf.size()), expected(pmf.size());
  for (std::int64_t v : k) {
    ASSERT_TRUE(v >= first && v < first + static_cast<std::int64_t>(pmf.size())) << what << ": " << v;
    ++observed[static_cast<std::size_t>(v - first)];
  }
  for (std::size_t j = 0; j < pmf.size(); ++j) expected[j] = static_cast<double>(k.size()) * pmf[j];
  int dof = 0;
  const double chi2 = chi_square(observed, expected, &dof);
  EXPECT_LT(chi2, chi2_critical(dof)) << what << " dof " << dof;
}

TEST(DistributionsOracle, BinomialIsExactForHugeN) {
  // BTRS at n = 10^12 (the lgamma-based log-pmf would lose ~3e-3 there) and n = 10^9; ±9σ windows hold
  // all but 2e-19 of the mass. The oracle: the pmf at the window's start from lgammal (terms ≤ 3e13 carry
  // absolute error ~1e-6), then the ratio f(j+1)/f(j) = (n−j)p/((j+1)(1−p)) in long double across the
  // window (≤ 10^7 steps, relative drift ≤ 1e-12), summed into ~200 bins of equal width.
  for (auto [n, p] :
       std::vector<std::pair<std::int64_t, double>>{{1000000000000, 0.3}, {1000000000, 0.999}, {5000, 0.02}}) {
    std::vector<std::int64_t> k(kN);
    trnrand::binomial(trnrand::make_stream(260), std::span<std::int64_t>(k), n, p);
    const double nd = static_cast<double>(n), sd = std::sqrt(nd * p * (1 - p));
    const auto first = static_cast<std::int64_t>(std::max(0.0, std::floor(nd * p - 9 * sd)));
    const auto last = static_cast<std::int64_t>(std::min(nd, std::ceil(nd * p + 9 * sd)));
    const std::int64_t width = std::max<std::int64_t>(1, (last - first + 1) / 200);
    std::vector<double> pmf(static_cast<std::size_t>((last - first) / width + 1));
    const ld lp = p, ratio = lp / (1 - lp);
    ld f = std::exp(std::lgamma(static_cast<ld>(n) + 1) - std::lgamma(static_cast<ld>(first) + 1) -
                    std::lgamma(static_cast<ld>(n - first) + 1) + first * std::log(lp) + (n - first) * std::log1p(-lp));
    for (std::int64_t j = first; j <= last; ++j) {
      pmf[static_cast<std::size_t>((j - first) / width)] += static_cast<double>(f);
      f *= ratio * static_cast<ld>(n - j) / static_cast<ld>(j + 1);
    }
    std::vector<std::int64_t> binned(kN);
    for (std::size_t i = 0; i < kN; ++i) {
      ASSERT_TRUE(k[i] >= first && k[i] <= last) << n << ": " << k[i];
      binned[i] = (k[i] - first) / width;
    }
    check_pmf(binned, 0, pmf, "n " + std::to_string(n));
    EXPECT_NEAR(mean_of(k), nd * p, six_se(nd * p * (1 - p), kN)) << n;
  }
  // Inversion with p below 2^-54, where 1 − p rounds to 1: n = 10^17, p = 5e-17, mean 5. The oracle
  // forms C(n, j) as Π(n − i)/j! in long double (n is exact there).
  const std::int64_t n = 100000000000000000;
  const double p = 5e-17;
  std::vector<std::int64_t> k(kN);
  trnrand::binomial(trnrand::make_stream(261), std::span<std::int64_t>(k), n, p);
  std::vector<double> pmf(40);
  for (std::int64_t j = 0; j < 40; ++j) {
    ld log_choose = -std::lgamma(static_cast<ld>(j) + 1);
    for (std::int64_t i = 0; i < j; ++i) log_choose += std::log(static_cast<ld>(n - i));
    pmf[static_cast<std::size_t>(j)] = static_cast<double>(
        std::exp(log_choose + j * std::log(static_cast<ld>(p)) + (n - j) * std::log1p(-static_cast<ld>(p))));
  }
  check_pmf(k, 0, pmf, "n 1e17 p 5e-17");
  EXPECT_NEAR(mean_of(k), 5.0, six_se(5.0, kN));
  // p = 1 with the largest n; n = 0.
  std::vector<std::int64_t> few(4);
  trnrand::binomial(trnrand::make_stream(1), std::span<std::int64_t>(few), INT64_MAX, 1.0);
  EXPECT_EQ(few, std::vector<std::int64_t>(4, INT64_MAX));
  trnrand::binomial(trnrand::make_stream(1), std::span<std::int64_t>(few), 0, 0.3);
  EXPECT_EQ(few, std::vector<std::int64_t>(4, 0));
}

TEST(DistributionsOracle, GeometricOnOneTwoThreeMatchesNumpysConvention) {
  // P(X = k) = (1 − p)^(k−1) p for k ≥ 1 (numpy.random.Generator.geometric). For p = 1e-3 the values are
  // grouped in bins of 100 (P(a < X ≤ b) = q^a − q^b) up to 20000, beyond which q^20000 ≈ 2e-9.
  for (double p : {0.9, 0.3, 1e-3}) {
    std::vector<std::int64_t> k(kN);
    const Stream after = trnrand::geometric(trnrand::make_stream(270), std::span<std::int64_t>(k), p);
    EXPECT_EQ(after.offset, 2 * kN);  // two words per sample
    const std::int64_t width = p < 0.01 ? 100 : 1, bins = 200;
    const ld q = 1 - static_cast<ld>(p);
    std::vector<std::int64_t> binned(kN);
    for (std::size_t i = 0; i < kN; ++i) {
      ASSERT_GE(k[i], 1);
      binned[i] = std::min((k[i] - 1) / width, bins - 1);
    }
    std::vector<double> pmf(static_cast<std::size_t>(bins));
    for (std::int64_t b = 0; b < bins; ++b)
      pmf[static_cast<std::size_t>(b)] =
          static_cast<double>(std::pow(q, b * width) - (b + 1 == bins ? 0 : std::pow(q, (b + 1) * width)));
    check_pmf(binned, 0, pmf, "p " + std::to_string(p));
    EXPECT_NEAR(mean_of(k), 1 / p, six_se((1 - p) / (p * p), kN)) << p;  // mean 1/p, variance (1−p)/p²
  }
}

TEST(DistributionsOracle, CategoricalOverManyCategoriesWithZeros) {
  // 1000 weights spanning six orders of magnitude, every seventh zero.
  std::vector<double> w(1000);
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = i % 7 == 3 ? 0.0 : std::pow(10.0, static_cast<double>(i % 13) / 2) * (1 + i % 5);
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  const trnrand::AliasTable table(w);
  EXPECT_EQ(table.size(), 1000);
  std::vector<std::int64_t> k(kN);
  const Stream after = table.sample(trnrand::make_stream(280), std::span<std::int64_t>(k));
  EXPECT_EQ(after.offset, 2 * kN);
  std::vector<double> pmf(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) pmf[i] = w[i] / total;
  for (std::int64_t v : k) ASSERT_NE(static_cast<std::size_t>(v) % 7, 3u) << "a zero-weight category was drawn";
  check_pmf(k, 0, pmf, "1000 categories");
  // One category: always 0.
  std::vector<std::int64_t> single(5, -1);
  trnrand::categorical(trnrand::make_stream(1), std::span<std::int64_t>(single), std::vector<double>{3.5});
  EXPECT_EQ(single, std::vector<std::int64_t>(5, 0));
}

// ---- positional contract -------------------------------------------------------------------------

// Sample i of a fill of n equals the single sample of a fill started `budget`·i words later.
template <class T, class F>
void check_positions(const char* what, std::uint64_t budget, F&& fill) {
  const Stream s = trnrand::make_stream(290, 3, 12345);
  std::vector<T> all(37);
  const Stream after = fill(s, std::span<T>(all));
  EXPECT_EQ(after.offset - s.offset, budget * all.size()) << what;
  for (std::size_t i : {0u, 1u, 2u, 17u, 36u}) {
    std::vector<T> one(1);
    fill(trnrand::skip_ahead(s, budget * i), std::span<T>(one));
    EXPECT_EQ(one[0], all[i]) << what << " sample " << i;
  }
}

TEST(DistributionsOracle, EverySampleDependsOnlyOnItsPosition) {
  const std::uint64_t window = std::uint64_t{1} << 32;
  check_positions<double>("gamma", window,
                          [](Stream s, std::span<double> o) { return trnrand::gamma(s, o, 0.4, 2.0); });
  check_positions<float>("gamma float", window,
                         [](Stream s, std::span<float> o) { return trnrand::gamma(s, o, 3.0f); });
  check_positions<double>("beta", window, [](Stream s, std::span<double> o) { return trnrand::beta(s, o, 0.5, 0.5); });
  check_positions<float>("beta float", window,
                         [](Stream s, std::span<float> o) { return trnrand::beta(s, o, 2.f, 3.f); });
  check_positions<double>("chi_squared", window,
                          [](Stream s, std::span<double> o) { return trnrand::chi_squared(s, o, 3.0); });
  check_positions<float>("student_t float", window,
                         [](Stream s, std::span<float> o) { return trnrand::student_t(s, o, 1.0f); });
  check_positions<double>("student_t", window,
                          [](Stream s, std::span<double> o) { return trnrand::student_t(s, o, 7.0); });
  check_positions<double>("truncated_normal", window,
                          [](Stream s, std::span<double> o) { return trnrand::truncated_normal(s, o, 0, 1, 1, 3); });
  check_positions<float>("truncated_normal float", window, [](Stream s, std::span<float> o) {
    return trnrand::truncated_normal(s, o, 0.f, 1.f, -0.5f, 0.5f);
  });
  check_positions<std::int64_t>("binomial btrs", window,
                                [](Stream s, std::span<std::int64_t> o) { return trnrand::binomial(s, o, 1000, 0.3); });
  check_positions<std::int64_t>("binomial inversion", window,
                                [](Stream s, std::span<std::int64_t> o) { return trnrand::binomial(s, o, 20, 0.9); });
  check_positions<std::int64_t>("geometric", 2,
                                [](Stream s, std::span<std::int64_t> o) { return trnrand::geometric(s, o, 0.2); });
  const trnrand::AliasTable table(std::vector<double>{1, 2, 3, 0, 4});
  check_positions<std::int64_t>("alias", 2, [&](Stream s, std::span<std::int64_t> o) { return table.sample(s, o); });
  check_positions<double>("exponential", 2,
                          [](Stream s, std::span<double> o) { return trnrand::exponential(s, o, 2.0); });
  // Normals: each value owns the words of its two uniforms (2 for float, 4 for double), odd samples too.
  check_positions<float>("normal float", 2, [](Stream s, std::span<float> o) { return trnrand::normal(s, o); });
  check_positions<double>("normal", 4, [](Stream s, std::span<double> o) { return trnrand::normal(s, o, 1.0, 2.0); });
  check_positions<double>("lognormal", 4, [](Stream s, std::span<double> o) { return trnrand::lognormal(s, o); });
  check_positions<float>("exponential float", 1,
                         [](Stream s, std::span<float> o) { return trnrand::exponential(s, o, 2.0f); });
  // trnrand/tests/partition_test.cpp checks slices of every length and start for every sampler.
}

// ---- normal quantile -----------------------------------------------------------------------------

// MPFR oracle at 160 bits: Newton on Φ(x) = u from the value under test, then a self-check that
// |Φ(x) − u| ≤ 2^-100·u, so the oracle's answer is the quantile to ~2^-100 relative whatever the start.
double mpfr_quantile(double u, double start) {
  mpfr_t x, t, phi, dens, sqrt2;
  mpfr_inits2(160, x, t, phi, dens, sqrt2, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_ui(sqrt2, 2, MPFR_RNDN);
  mpfr_sqrt(sqrt2, sqrt2, MPFR_RNDN);
  mpfr_set_d(x, start, MPFR_RNDN);
  const auto eval = [&] {  // phi = Φ(x) = erfc(−x/√2)/2, dens = φ(x) = e^{−x²/2}/√(2π)
    mpfr_div(t, x, sqrt2, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_erfc(phi, t, MPFR_RNDN);
    mpfr_div_2ui(phi, phi, 1, MPFR_RNDN);
    mpfr_sqr(t, x, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_exp(dens, t, MPFR_RNDN);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_div(dens, dens, t, MPFR_RNDN);
  };
  for (int it = 0; it < 12; ++it) {
    eval();
    mpfr_sub_d(phi, phi, u, MPFR_RNDN);
    mpfr_div(phi, phi, dens, MPFR_RNDN);
    mpfr_sub(x, x, phi, MPFR_RNDN);
  }
  eval();
  mpfr_sub_d(phi, phi, u, MPFR_RNDN);
  const double residual = std::fabs(mpfr_get_d(phi, MPFR_RNDN));
  EXPECT_LE(residual, std::ldexp(u, -100)) << "oracle did not converge at u = " << u;
  const double result = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clears(x, t, phi, dens, sqrt2, static_cast<mpfr_ptr>(nullptr));
  return result;
}

TEST(DistributionsOracle, NormalQuantileToItsClaimedAccuracyEverywhere) {
  // 10^-e for e = 1 … 307 in steps of half a decade, their mirrors 1 − u (where representable), the smallest
  // normal and 1 − 2^-53, and a uniform grid through the centre. The claim is relative error < 2^-50;
  // near u = 1/2 the quantile is ~ (u − 1/2)√(2π) and is compared relatively too.
  std::vector<double> u{std::ldexp(1.0, -1022), 1e-300, 1e-10, 0.5, 1 - 1e-16, 1 - std::ldexp(1.0, -53), 0.5 + 0x1p-40};
  for (int q = 2; q <= 2 * 307; ++q) {
    const double v = std::pow(10.0, -q / 2.0);
    u.push_back(v);
    if (v > 1e-16) u.push_back(1 - v);
  }
  for (int i = 1; i < 200; ++i) u.push_back(i / 200.0 + 0.0013);
  std::vector<double> got(u.size());
  trnrand::normal_icdf(u, got);
  for (std::size_t i = 0; i < u.size(); ++i) {
    if (u[i] == 0.5) {
      EXPECT_EQ(got[i], 0.0);
      continue;
    }
    const double want = mpfr_quantile(u[i], got[i]);
    EXPECT_LE(std::fabs(got[i] - want), 0x1p-50 * std::fabs(want))
        << "u = " << u[i] << " got " << got[i] << " want " << want;
  }
  // Float: the double quantile rounded once, so within half an ulp of the true value plus 2^-50 relative.
  std::vector<float> uf;
  for (int q = 1; q <= 37; ++q) uf.push_back(std::pow(10.0f, static_cast<float>(-q)));
  for (int i = 1; i < 64; ++i) uf.push_back(static_cast<float>(i) / 64);
  std::vector<float> gf(uf.size());
  trnrand::normal_icdf(uf, gf);
  for (std::size_t i = 0; i < uf.size(); ++i) {
    if (uf[i] == 0.5f) continue;
    const double want = mpfr_quantile(uf[i], gf[i]);
    const double ulp = std::nextafter(static_cast<float>(std::fabs(want)), 1e30f) - static_cast<float>(std::fabs(want));
    EXPECT_LE(std::fabs(gf[i] - want), 0.5 * ulp + 0x1p-50 * std::fabs(want)) << "u = " << uf[i];
  }
  std::vector<float> short_out(2);
  EXPECT_THROW(trnrand::normal_icdf(uf, short_out), trncore::DimensionMismatch);
}

// ---- bad parameters ------------------------------------------------------------------------------

TEST(DistributionsOracle, BadParametersNameTheFunctionAndValue) {
  const Stream s = trnrand::make_stream(1);
  std::vector<double> d(2);
  std::vector<float> f(2);
  std::vector<std::int64_t> k(2);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::beta(s, std::span<double>(d), 1.0, -2.0); }, "trnrand::beta",
      {"trnrand::beta: b = -2 is not a finite value > 0: pass a finite b > 0"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::beta(s, std::span<float>(f), NAN, 1.0f); }, "trnrand::beta",
      {"trnrand::beta: a = nan is not a finite value > 0: pass a finite a > 0"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::chi_squared(s, std::span<double>(d), kInf); }, "trnrand::chi_squared",
      {"trnrand::chi_squared: k = inf is not a finite value > 0: pass a finite k > 0"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::student_t(s, std::span<float>(f), 0.0f); }, "trnrand::student_t",
      {"trnrand::student_t: nu = 0 is not a finite value > 0: pass a finite nu > 0"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::gamma(s, std::span<float>(f), -1.0f); }, "trnrand::gamma",
      {"trnrand::gamma: shape = -1 is not a finite value > 0: pass a finite shape > 0"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::binomial(s, std::span<std::int64_t>(k), 5, NAN); }, "trnrand::binomial",
      {"trnrand::binomial: p = nan is outside [0, 1]: pass 0 <= p <= 1"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::geometric(s, std::span<std::int64_t>(k), 1.5); }, "trnrand::geometric",
      {"trnrand::geometric: p = 1.5 is outside (0, 1]: pass 0 < p <= 1"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::truncated_normal(s, std::span<double>(d), 0, 1, 2, 1); }, "trnrand::truncated_normal",
      {"trnrand::truncated_normal: [low, high] = [2, 1] is not an interval with mass: pass low <= high with low < "
       "+inf and high > -inf"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::truncated_normal(s, std::span<float>(f), 0.f, 1.f, NAN, 1.f); }, "trnrand::truncated_normal",
      {"trnrand::truncated_normal: [low, high] = [nan, 1] is not an interval with mass: pass low <= high with low "
       "< +inf and high > -inf"});
  EXPECT_NE(trnsci_testing::message_of([&] {
              trnrand::truncated_normal(s, std::span<double>(d), 0, 1, kInf, kInf);
            }).find("[inf, inf]"),
            std::string::npos);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::truncated_normal(s, std::span<double>(d), kInf, 1, 0, 1); }, "trnrand::truncated_normal",
      {"trnrand::truncated_normal: mean = inf is not finite: pass a finite mean"});
  const std::vector<float> mean{0, 0}, L{1, 0, NAN, 1};
  std::vector<float> out(4);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnrand::multivariate_normal(s, std::span<float>(out), std::span<const float>(mean), std::span<const float>(L));
      },
      "trnrand::multivariate_normal",
      {"trnrand::multivariate_normal: L[1][0] = nan is not finite: pass a finite factor"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnrand::AliasTable(std::vector<double>{1.0, NAN});
      },
      "trnrand::AliasTable",
      {"trnrand::AliasTable: weights[1] = nan is not a finite value >= 0: pass finite non-negative weights"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnrand::categorical(s, std::span<std::int64_t>(k), std::vector<double>{0.0, 0.0});
      },
      "trnrand::AliasTable", {"trnrand::AliasTable: the weights sum to 0: pass weights with a positive finite sum"});
  EXPECT_NE(trnsci_testing::message_of([&] {
              trnrand::AliasTable(std::vector<double>{1e308, 1e308});
            }).find("sum to inf"),
            std::string::npos);
  std::vector<double> u{0.5, -0.1}, q(2);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::normal_icdf(u, q); }, "trnrand::normal_icdf",
      {"trnrand::normal_icdf: u[1] = -0.10000000000000001 is outside [0, 1]: pass probabilities in [0, 1]"});
  // Empty outputs are fine and still check parameters.
  EXPECT_NO_THROW(trnrand::beta(s, std::span<double>(), 1.0, 1.0));
  EXPECT_THROW(trnrand::beta(s, std::span<double>(), 1.0, 0.0), trncore::InvalidArgument);
}

}  // namespace
