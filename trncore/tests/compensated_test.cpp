// Error-free transformations and compensated sums/dots against MPFR at a precision where every sum of
// the inputs is exact (2200 bits span the whole double exponent range), so the oracle's answer is the
// exact value and each bound below is checked as stated in eft.hpp.
#include <trncore/eft.hpp>

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

namespace {

class Exact {
 public:
  Exact() { mpfr_init2(v_, 2200), mpfr_set_zero(v_, 1); }
  ~Exact() { mpfr_clear(v_); }
  Exact(const Exact&) = delete;
  Exact& operator=(const Exact&) = delete;
  void add(double x) { mpfr_add_d(v_, v_, x, MPFR_RNDN); }
  void add_product(double a, double b) {
    mpfr_t p;
    mpfr_init2(p, 2200);
    mpfr_set_d(p, a, MPFR_RNDN);
    mpfr_mul_d(p, p, b, MPFR_RNDN);
    mpfr_add(v_, v_, p, MPFR_RNDN);
    mpfr_clear(p);
  }
  // Is the exact value equal to x + y (both doubles)?
  bool equals_sum(double x, double y) {
    mpfr_t t;
    mpfr_init2(t, 2200);
    mpfr_set_d(t, x, MPFR_RNDN);
    mpfr_add_d(t, t, y, MPFR_RNDN);
    const bool eq = mpfr_equal_p(t, v_) != 0;
    mpfr_clear(t);
    return eq;
  }
  double error_of(double approx) {  // |approx − exact|, rounded up to a double
    mpfr_t t;
    mpfr_init2(t, 2200);
    mpfr_set_d(t, approx, MPFR_RNDN);
    mpfr_sub(t, t, v_, MPFR_RNDN);
    const double e = std::fabs(mpfr_get_d(t, MPFR_RNDU));
    mpfr_clear(t);
    return e;
  }
  double value() const { return mpfr_get_d(v_, MPFR_RNDN); }
  bool magnitude_at_most_pow2(long e) const {  // |exact| ≤ 2^e, decided exactly
    mpfr_t t;
    mpfr_init2(t, 8);
    mpfr_set_ui_2exp(t, 1, e, MPFR_RNDN);
    const bool le = mpfr_cmpabs(v_, t) <= 0;
    mpfr_clear(t);
    return le;
  }

 private:
  mpfr_t v_;
};

// Doubles with exponents spread over ±(range), random signs, plus adversarial specials.
double spread(std::mt19937_64& rng, int range) {
  const double m = 1.0 + static_cast<double>(rng() >> 11) * 0x1p-53;
  const int e = static_cast<int>(rng() % (2 * range + 1)) - range;
  return (rng() & 1) ? -std::ldexp(m, e) : std::ldexp(m, e);
}

TEST(ErrorFreeTransformations, TwoSumIsExactForDoublesAndFloats) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 200000; ++i) {
    const double a = spread(rng, 1000), b = (i % 3 == 0) ? -a * (1 + 0x1p-52) : spread(rng, 1000);
    const auto [s, e] = trncore::two_sum(a, b);
    Exact x;
    x.add(a);
    x.add(b);
    ASSERT_TRUE(x.equals_sum(s, e)) << std::hexfloat << a << " + " << b;
    ASSERT_EQ(s, a + b);
    if (std::fabs(a) >= std::fabs(b)) {
      const auto [fs, fe] = trncore::fast_two_sum(a, b);
      ASSERT_EQ(fs, s);
      ASSERT_EQ(fe, e);
    }
    const float af = static_cast<float>(a / std::ldexp(1.0, std::ilogb(a) - std::ilogb(a) % 60));
    const float bf = static_cast<float>(spread(rng, 60));
    const auto [sf, ef] = trncore::two_sum(af, bf);
    ASSERT_EQ(static_cast<double>(sf) + static_cast<double>(ef), static_cast<double>(af) + static_cast<double>(bf));
  }
  // Subnormal operands, exact cancellation, signed zeros.
  for (auto [a, b] : {std::pair{0x1p-1074, 0x1p-1073}, std::pair{1.0, -1.0}, std::pair{0x1p-1022, -0x1.8p-1074},
                      std::pair{-0.0, -0.0}, std::pair{1e308, 1e292}}) {
    const auto [s, e] = trncore::two_sum(a, b);
    Exact x;
    x.add(a);
    x.add(b);
    EXPECT_TRUE(x.equals_sum(s, e)) << a << " " << b;
  }
  // Overflow: documented, not exact.
  const auto [s, e] = trncore::two_sum(DBL_MAX, DBL_MAX);
  EXPECT_TRUE(std::isinf(s));
  EXPECT_FALSE(std::isfinite(e));
}

TEST(ErrorFreeTransformations, TwoProdIsExactWithoutUnderflow) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 200000; ++i) {
    const double a = spread(rng, 400), b = spread(rng, 400);  // e_a + e_b ≥ −800: far from underflow
    const auto [p, e] = trncore::two_prod(a, b);
    Exact x;
    x.add_product(a, b);
    ASSERT_TRUE(x.equals_sum(p, e)) << std::hexfloat << a << " * " << b;
    const float af = static_cast<float>(spread(rng, 40)), bf = static_cast<float>(spread(rng, 40));
    const auto [pf, ef] = trncore::two_prod(af, bf);
    ASSERT_EQ(static_cast<double>(pf) + static_cast<double>(ef), static_cast<double>(af) * static_cast<double>(bf));
  }
  // Underflowing product: the identity holds to within half the smallest subnormal, as documented.
  const auto [p, e] = trncore::two_prod(0x1.0000000000001p-540, 0x1.0000000000001p-540);
  Exact residual;  // a·b − p − e, exactly
  residual.add_product(0x1.0000000000001p-540, 0x1.0000000000001p-540);
  residual.add(-p);
  residual.add(-e);
  EXPECT_TRUE(residual.magnitude_at_most_pow2(-1075));
}

// An ill-conditioned sum: large terms that cancel exactly, plus small ones.
std::vector<double> cancelling_terms(std::mt19937_64& rng, int n) {
  std::vector<double> x;
  for (int i = 0; i < n / 2; ++i) {
    const double big = spread(rng, 30) * 1e10;
    x.push_back(big);
    x.push_back(spread(rng, 10));
    x.push_back(-big);
  }
  std::shuffle(x.begin(), x.end(), rng);
  return x;
}

TEST(CompensatedSummation, KahanNeumaierAndSum2MeetTheirBounds) {
  const double u = 0x1p-53;
  std::mt19937_64 rng(3);
  for (int n : {0, 1, 2, 10, 1000, 30000}) {
    const auto x = cancelling_terms(rng, n);
    Exact exact;
    double abs_sum = 0;
    trncore::KahanAccumulator<double> kahan;
    trncore::NeumaierAccumulator<double> neumaier;
    for (double v : x) {
      exact.add(v);
      abs_sum += std::fabs(v);
      kahan.add(v);
      neumaier.add(v);
    }
    const double m = static_cast<double>(x.size());
    const double gamma = m * u / (1 - m * u);
    const double s = std::fabs(exact.value());
    // Sum2 (ORO 2005, Prop. 4.5): u|s| + γ²_{n−1} Σ|x|.
    EXPECT_LE(exact.error_of(trncore::sum2(std::span<const double>(x))), u * s + gamma * gamma * abs_sum) << n;
    // Neumaier: the same first-order behaviour; its second-order constant is not sharper than Sum2's
    // 2·γ² (the extra factor covers its branchy error accumulation).
    EXPECT_LE(exact.error_of(neumaier.value()), u * s + 2 * gamma * gamma * abs_sum + DBL_TRUE_MIN) << n;
    // Kahan (Higham §4.3): (2u + O(n u²)) Σ|x|; with n u ≤ 1e-11 the O(n u²) term is below u.
    EXPECT_LE(exact.error_of(kahan.value()), 3 * u * abs_sum + DBL_TRUE_MIN) << n;
  }
}

// Ill-conditioned dot products: x·y = Σ big·big' with exact cancellation plus a small remainder gives
// condition numbers of 1e10 … 1e30; Dot2 must meet u|xᵀy| + γ_n² |x|ᵀ|y| (ORO 2005, Prop. 5.5).
TEST(CompensatedDot, Dot2MeetsItsBoundOnIllConditionedProducts) {
  const double u = 0x1p-53;
  std::mt19937_64 rng(4);
  for (int cond_exp : {10, 20, 30}) {
    for (int n : {1, 2, 3, 101, 1000}) {
      std::vector<double> x, y;
      for (int i = 0; i < n; ++i) {
        if (i + 1 < n && i % 3 == 0) {
          const double a = spread(rng, cond_exp), b = spread(rng, cond_exp);
          x.insert(x.end(), {a, a});
          y.insert(y.end(), {b, -b});
          ++i;
        } else {
          x.push_back(spread(rng, 2));
          y.push_back(spread(rng, 2));
        }
      }
      Exact exact;
      double abs_dot = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        exact.add_product(x[i], y[i]);
        abs_dot += std::fabs(x[i] * y[i]);
      }
      const double m = static_cast<double>(x.size());
      const double gamma = m * u / (1 - m * u);
      const double bound = u * std::fabs(exact.value()) + gamma * gamma * abs_dot * (1 + 2 * u);
      EXPECT_LE(exact.error_of(trncore::dot2(std::span<const double>(x), std::span<const double>(y))), bound)
          << "n=" << n << " cond~1e" << cond_exp;
      EXPECT_EQ(trncore::dot2(x.data(), y.data(), static_cast<std::int64_t>(x.size())),
                trncore::dot2(std::span<const double>(x), std::span<const double>(y)));
    }
  }
}

TEST(CompensatedDot, EmptyAndBadInput) {
  EXPECT_EQ(trncore::dot2<double>(nullptr, nullptr, 0), 0.0);
  EXPECT_EQ(trncore::sum2(std::span<const float>()), 0.0f);
  const double one = 1.0;
  try {
    trncore::dot2(&one, &one, -2);
    FAIL() << "negative n accepted";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "trncore::dot2: n = -2 is negative: pass n >= 0");
  }
  EXPECT_THROW(trncore::dot2<double>(nullptr, &one, 1), trncore::InvalidArgument);
  std::vector<double> a(3), b(4);
  EXPECT_THROW(trncore::dot2(std::span<const double>(a), std::span<const double>(b)), trncore::DimensionMismatch);
}

}  // namespace
