// The second half of the distribution set against closed-form CDFs / pmfs, with the decision rules of
// distribution_stats.hpp (KS with n = 200000 at the 1e-6 DKW critical value against the law of the
// rounded value, chi-square at the 1e-6 quantile); the normal quantile against MPFR.
#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>

#include "distribution_stats.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <vector>

namespace {

using trnrand::Stream;
using namespace trnrand_test;

TEST(DistributionsMore, BetaChiSquaredAndStudentTFollowTheirCdfs) {
  std::vector<double> x(kN);
  // Beta(2, 3): I_x(2, 3) = Σ_{j=2}^{4} C(4, j) x^j (1−x)^{4−j}.
  trnrand::beta(trnrand::make_stream(1), std::span<double>(x), 2.0, 3.0);
  EXPECT_LT(ks(x, [](double t) { return 6 * t * t * (1 - t) * (1 - t) + 4 * t * t * t * (1 - t) + t * t * t * t; }),
            kKsCritical);
  std::vector<float> xf(kN);
  trnrand::beta(trnrand::make_stream(2), std::span<float>(xf), 0.5f, 0.5f);  // arcsine law: (2/π) asin √x
  EXPECT_LT(ks(xf, [](double t) { return 2 / std::numbers::pi * std::asin(std::sqrt(std::clamp(t, 0.0, 1.0))); }),
            kKsCritical);
  // χ²(4): 1 − e^{−x/2}(1 + x/2).
  trnrand::chi_squared(trnrand::make_stream(3), std::span<double>(x), 4.0);
  EXPECT_LT(ks(x, [](double t) { return t <= 0 ? 0.0 : 1 - std::exp(-t / 2) * (1 + t / 2); }), kKsCritical);
  // t(1) is Cauchy: 1/2 + atan(x)/π; t(2): 1/2 + x / (2√(2 + x²)).
  trnrand::student_t(trnrand::make_stream(4), std::span<double>(x), 1.0);
  EXPECT_LT(ks(x, [](double t) { return 0.5 + std::atan(t) / std::numbers::pi; }), kKsCritical);
  trnrand::student_t(trnrand::make_stream(5), std::span<float>(xf), 2.0f);
  EXPECT_LT(ks(xf, [](double t) { return 0.5 + t / (2 * std::sqrt(2 + t * t)); }), kKsCritical);
  // Gamma in float: Gamma(3) CDF 1 − e^{−x}(1 + x + x²/2).
  trnrand::gamma(trnrand::make_stream(6), std::span<float>(xf), 3.0f);
  EXPECT_LT(ks(xf, [](double t) { return t <= 0 ? 0.0 : 1 - std::exp(-t) * (1 + t + t * t / 2); }), kKsCritical);
}

TEST(DistributionsMore, TruncatedNormalInEveryRegime) {
  struct Case {
    double mean, sd, lo, hi;
  };
  // Straddling 0 (wide and narrow), far right tail, left tail, one-sided, narrow tail interval.
  for (const Case& c :
       {Case{0, 1, -1, 2}, Case{0, 1, -0.3, 0.4}, Case{1, 2, 11, 13},
        Case{0, 1, -std::numeric_limits<double>::infinity(), -6},
        Case{0, 1, 4, std::numeric_limits<double>::infinity()}, Case{0, 1, 3, 3.1}, Case{-5, 0.5, -5.2, 10}}) {
    std::vector<double> x(kN);
    trnrand::truncated_normal(trnrand::make_stream(7), std::span<double>(x), c.mean, c.sd, c.lo, c.hi);
    for (double v : x) ASSERT_TRUE(v >= c.lo && v <= c.hi) << v;
    // F(x) = (Φ(z) − Φ(a)) / (Φ(b) − Φ(a)), in the upper tail via Φ̄ to keep relative accuracy.
    const double a = (c.lo - c.mean) / c.sd, b = (c.hi - c.mean) / c.sd;
    const auto sf = [](double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); };
    EXPECT_LT(ks(x,
                 [&](double v) {
                   const double z = (v - c.mean) / c.sd;
                   return a >= 0 ? (sf(a) - sf(z)) / (sf(a) - sf(b))
                                 : (normal_cdf(z) - normal_cdf(a)) / (normal_cdf(b) - normal_cdf(a));
                 }),
              kKsCritical)
        << c.lo << " " << c.hi;
  }
  std::vector<double> x(3);
  trnrand::truncated_normal(trnrand::make_stream(1), std::span<double>(x), 0, 1, 2.5, 2.5);
  EXPECT_EQ(x, std::vector<double>(3, 2.5));
}

TEST(DistributionsMore, BinomialMatchesItsPmfOnBothMethodsAndEdges) {
  for (auto [n, p] : std::vector<std::pair<std::int64_t, double>>{
           {10, 0.3}, {19, 0.5}, {100, 0.05}, {100, 0.2}, {1000, 0.5}, {100000, 0.001}, {50, 0.9}, {100000, 0.7}}) {
    std::vector<std::int64_t> k(kN);
    trnrand::binomial(trnrand::make_stream(8), std::span<std::int64_t>(k), n, p);
    std::vector<double> observed(static_cast<std::size_t>(n + 1)), expected(observed.size());
    for (std::int64_t v : k) {
      ASSERT_TRUE(v >= 0 && v <= n);
      ++observed[static_cast<std::size_t>(v)];
    }
    for (std::int64_t j = 0; j <= n; ++j)
      expected[static_cast<std::size_t>(j)] =
          kN * std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) + j * std::log(p) +
                        (n - j) * std::log1p(-p));
    int dof = 0;
    const double chi2 = chi_square(observed, expected, &dof);  // sets dof: evaluate before the critical value
    EXPECT_LT(chi2, chi2_critical(dof)) << n << " " << p << " dof " << dof;
  }
  std::vector<std::int64_t> k(5);
  trnrand::binomial(trnrand::make_stream(1), std::span<std::int64_t>(k), 7, 0.0);
  EXPECT_EQ(k, std::vector<std::int64_t>(5, 0));
  trnrand::binomial(trnrand::make_stream(1), std::span<std::int64_t>(k), 7, 1.0);
  EXPECT_EQ(k, std::vector<std::int64_t>(5, 7));
  trnrand::binomial(trnrand::make_stream(1), std::span<std::int64_t>(k), 0, 0.5);
  EXPECT_EQ(k, std::vector<std::int64_t>(5, 0));
}

TEST(DistributionsMore, GeometricAndCategorical) {
  std::vector<std::int64_t> k(kN);
  trnrand::geometric(trnrand::make_stream(9), std::span<std::int64_t>(k), 0.3);
  std::vector<double> observed(60), expected(60);
  for (std::int64_t v : k) {
    ASSERT_GE(v, 1);
    ++observed[static_cast<std::size_t>(std::min<std::int64_t>(v, 59))];
  }
  for (int j = 1; j < 59; ++j) expected[static_cast<std::size_t>(j)] = kN * std::pow(0.7, j - 1) * 0.3;
  expected[59] = kN * std::pow(0.7, 58);  // P(X ≥ 59)
  int dof = 0;
  const double chi2 = chi_square(std::vector<double>(observed.begin() + 1, observed.end()),
                                 std::vector<double>(expected.begin() + 1, expected.end()), &dof);
  EXPECT_LT(chi2, chi2_critical(dof)) << "dof " << dof;
  trnrand::geometric(trnrand::make_stream(9), std::span<std::int64_t>(k).first(10), 1.0);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(k[static_cast<std::size_t>(i)], 1);

  const std::vector<double> w{0.0, 1.0, 2.5, 0.5, 6.0, 0.0, 3.0};
  trnrand::AliasTable table(w);
  trnrand::categorical(trnrand::make_stream(10), std::span<std::int64_t>(k), w);
  std::vector<std::int64_t> k2(kN);
  table.sample(trnrand::make_stream(10), std::span<std::int64_t>(k2));
  EXPECT_EQ(k, k2);  // the convenience function is the table
  std::vector<double> counts(w.size()), want(w.size());
  for (std::int64_t v : k) ++counts[static_cast<std::size_t>(v)];
  EXPECT_EQ(counts[0], 0);
  EXPECT_EQ(counts[5], 0);
  for (std::size_t i = 0; i < w.size(); ++i) want[i] = kN * w[i] / 13.0;
  std::vector<double> o, e;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w[i] > 0) {
      o.push_back(counts[i]);
      e.push_back(want[i]);
    }
  const double chi2_categorical = chi_square(o, e, &dof);
  EXPECT_LT(chi2_categorical, chi2_critical(dof));
}

TEST(DistributionsMore, MultivariateNormalHasTheCovarianceLLt) {
  const std::vector<double> mean{1.0, -2.0, 0.5};
  const std::vector<double> L{2.0, 0, 0, 0.5, 1.0, 0, -1.0, 0.25, 0.5};
  const std::size_t n = kN, d = 3;
  std::vector<double> x(n * d);
  trnrand::multivariate_normal(trnrand::make_stream(11), std::span<double>(x), mean, L);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      double cov = 0, want = 0, mi = 0, mj = 0;
      for (std::size_t r = 0; r < n; ++r) {
        mi += x[r * d + i];
        mj += x[r * d + j];
      }
      mi /= n;
      mj /= n;
      for (std::size_t r = 0; r < n; ++r) cov += (x[r * d + i] - mi) * (x[r * d + j] - mj);
      cov /= n - 1;
      for (std::size_t k = 0; k < d; ++k) want += L[i * d + k] * L[j * d + k];
      // The sample covariance's standard error is √((Σ_ii Σ_jj + Σ_ij²)/n) ≤ 4.1·√(2/n) ≈ 0.013 here; 6σ.
      EXPECT_NEAR(cov, want, 0.08) << i << "," << j;
      if (i == j) {
        EXPECT_NEAR(mi, mean[i], 6 * std::sqrt(want / n)) << i;
      }
    }
  std::vector<double> bad(6);
  EXPECT_THROW(
      trnrand::multivariate_normal(trnrand::make_stream(1), std::span<double>(bad), mean, std::vector<double>(8)),
      trncore::DimensionMismatch);
  EXPECT_THROW(trnrand::multivariate_normal(trnrand::make_stream(1), std::span<double>(bad), mean,
                                            std::vector<double>{-1, 0, 0, 0, 1, 0, 0, 0, 1}),
               trncore::InvalidArgument);
}

// Φ^{-1} against MPFR: bisection on MPFR's erfc at 200 bits gives the quantile to far beyond double; the
// implementation's result must be within 8 ulp (relative 2^-50) of it, from 2^-1022 to 1 − 2^-53.
TEST(DistributionsMore, NormalQuantileMatchesMpfr) {
  std::vector<double> u{std::ldexp(1.0, -1022),
                        1e-300,
                        1e-100,
                        1e-20,
                        1e-10,
                        1e-5,
                        0.001,
                        0.02425,
                        0.1,
                        0.3,
                        0.5,
                        0.5000001,
                        0.7,
                        0.97575,
                        0.999,
                        1 - 1e-10,
                        1 - std::ldexp(1.0, -53)};
  std::vector<double> q(u.size());
  trnrand::normal_icdf(u, q);
  mpfr_t lo, hi, mid, t;
  mpfr_inits2(200, lo, hi, mid, t, static_cast<mpfr_ptr>(nullptr));
  for (std::size_t i = 0; i < u.size(); ++i) {
    mpfr_set_d(lo, -40, MPFR_RNDN);
    mpfr_set_d(hi, 40, MPFR_RNDN);
    for (int it = 0; it < 190; ++it) {  // Φ(mid) = erfc(−mid/√2)/2 compared with u
      mpfr_add(mid, lo, hi, MPFR_RNDN);
      mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
      mpfr_set_ui(t, 2, MPFR_RNDN);
      mpfr_sqrt(t, t, MPFR_RNDN);
      mpfr_div(t, mid, t, MPFR_RNDN);
      mpfr_neg(t, t, MPFR_RNDN);
      mpfr_erfc(t, t, MPFR_RNDN);
      mpfr_div_2ui(t, t, 1, MPFR_RNDN);
      if (mpfr_cmp_d(t, u[i]) < 0)
        mpfr_set(lo, mid, MPFR_RNDN);
      else
        mpfr_set(hi, mid, MPFR_RNDN);
    }
    const double want = mpfr_get_d(mid, MPFR_RNDN);
    // + 80·2^-190: the bisection's own resolution (it decides the answer at u = 1/2, where Φ^{-1} = 0).
    EXPECT_LE(std::abs(q[i] - want), 0x1p-50 * std::abs(want) + 80 * 0x1p-190)
        << "u = " << u[i] << " got " << q[i] << " want " << want;
  }
  mpfr_clears(lo, hi, mid, t, static_cast<mpfr_ptr>(nullptr));
  std::vector<double> edge{0.0, 1.0}, e(2);
  trnrand::normal_icdf(edge, e);
  EXPECT_EQ(e[0], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(e[1], std::numeric_limits<double>::infinity());
  std::vector<double> badu{0.5, 1.5};
  EXPECT_THROW(trnrand::normal_icdf(badu, e), trncore::InvalidArgument);
  std::vector<double> nan{std::numeric_limits<double>::quiet_NaN()}, one(1);
  EXPECT_THROW(trnrand::normal_icdf(nan, one), trncore::InvalidArgument);
}

TEST(DistributionsMore, InvalidParametersThrowWithTheValue) {
  std::vector<double> x(4);
  std::vector<std::int64_t> k(4);
  const auto s = trnrand::make_stream(1);
  EXPECT_THROW(trnrand::beta(s, std::span<double>(x), 0.0, 1.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::chi_squared(s, std::span<double>(x), -1.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::student_t(s, std::span<double>(x), std::numeric_limits<double>::quiet_NaN()),
               trncore::InvalidArgument);
  EXPECT_THROW(trnrand::binomial(s, std::span<std::int64_t>(k), -1, 0.5), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::binomial(s, std::span<std::int64_t>(k), 3, 1.5), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::geometric(s, std::span<std::int64_t>(k), 0.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::truncated_normal(s, std::span<double>(x), 0, 1, 2, 1), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::truncated_normal(s, std::span<double>(x), 0, 0, 0, 1), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::AliasTable(std::vector<double>{}), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::AliasTable(std::vector<double>{1.0, -0.5}), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::AliasTable(std::vector<double>{0.0, 0.0}), trncore::InvalidArgument);
  try {
    trnrand::AliasTable(std::vector<double>{1.0, std::numeric_limits<double>::infinity()});
    FAIL();
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("weights[1] = inf"), std::string::npos) << e.what();
  }
}

}  // namespace
