// trnblas level 1 on the host for every type, size and increment (negative ones included) against a
// long-double oracle, with the documented standard bounds (see host_blas_test_support.hpp for the units).
#include "host_blas_test_support.hpp"

namespace {

using namespace trnblas_test;

template <class T>
class Level1 : public ::testing::Test {};
TYPED_TEST_SUITE(Level1, Types);

const std::int64_t kSizes[] = {0, 1, 2, 7, 127, 128, 129, 513};
const std::int64_t kIncs[][2] = {{1, 1}, {2, 3}, {-1, 1}, {3, -2}, {-2, -1}};

// axpy: fl(α·x_i + y_i) has at most two roundings (product, sum), so |err| ≤ γ₂(|α||x_i| + |y_i|).
TYPED_TEST(Level1, AxpyMeetsGamma2) {
  using T = TypeParam;
  std::mt19937_64 rng(11);
  for (std::int64_t n : kSizes)
    for (const auto& inc : kIncs) {
      const Vec<T> x(n, inc[0], rng);
      Vec<T> y(n, inc[1], rng);
      const auto y0 = y;
      const T alpha = draw<T>(rng);
      trnblas::axpy(n, alpha, x.data(), x.inc, y.data(), y.inc);
      for (std::int64_t i = 0; i < n; ++i) {
        const long double mag = std::abs(widen(alpha)) * std::abs(widen(x[i])) + std::abs(widen(y0[i]));
        ASSERT_TRUE(close(y[i], widen(alpha) * widen(x[i]) + widen(y0[i]), bound<T>(2) * mag))
            << "n=" << n << " incs " << inc[0] << "," << inc[1] << " i=" << i;
      }
      ASSERT_TRUE(y.gaps_unchanged(y0.buf));
    }
}

// scal: one rounding per element (a complex product: √2·γ₂ ≤ γ₁(4u)); |inc| < 0 scales the same elements.
TYPED_TEST(Level1, ScalMeetsGamma1) {
  using T = TypeParam;
  std::mt19937_64 rng(12);
  for (std::int64_t n : kSizes)
    for (std::int64_t inc : {1, 3, -2}) {
      Vec<T> x(n, inc, rng);
      const auto x0 = x;
      const T alpha = draw<T>(rng);
      trnblas::scal(n, alpha, x.data(), x.inc);
      for (std::int64_t i = 0; i < n; ++i)
        ASSERT_TRUE(close(x[i], widen(alpha) * widen(x0[i]), bound<T>(1) * std::abs(widen(alpha) * widen(x0[i]))))
            << n << " " << inc << " " << i;
      ASSERT_TRUE(x.gaps_unchanged(x0.buf));
    }
}

// copy and swap move values: exact.
TYPED_TEST(Level1, CopyAndSwapAreExact) {
  using T = TypeParam;
  std::mt19937_64 rng(13);
  for (std::int64_t n : kSizes)
    for (const auto& inc : kIncs) {
      Vec<T> x(n, inc[0], rng), y(n, inc[1], rng);
      const auto x0 = x, y0 = y;
      trnblas::copy(n, x.data(), x.inc, y.data(), y.inc);
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x0[i]) << n << " " << i;
      ASSERT_TRUE(y.gaps_unchanged(y0.buf));
      const auto y1 = y;
      Vec<T> z(n, inc[1], rng);
      const auto z0 = z;
      trnblas::swap(n, x.data(), x.inc, z.data(), z.inc);
      for (std::int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(x[i], z0[i]);
        ASSERT_EQ(z[i], y1[i]);
      }
      ASSERT_TRUE(x.gaps_unchanged(x0.buf));
      ASSERT_TRUE(z.gaps_unchanged(z0.buf));
    }
}

// Inner products: |err| ≤ γ_n·|x|ᵀ|y| for any summation order (Higham §3.1); dotc conjugates x.
TYPED_TEST(Level1, DotsMeetGammaN) {
  using T = TypeParam;
  std::mt19937_64 rng(14);
  for (std::int64_t n : kSizes)
    for (const auto& inc : kIncs) {
      const Vec<T> x(n, inc[0], rng), y(n, inc[1], rng);
      for (bool conjugate : {false, true}) {
        if (conjugate && !is_complex<T>) continue;
        Wide<T> want = 0;
        long double mag = 0;
        for (std::int64_t i = 0; i < n; ++i) {
          want += conj_if(widen(x[i]), conjugate) * widen(y[i]);
          mag += std::abs(widen(x[i])) * std::abs(widen(y[i]));
        }
        T got;
        if constexpr (is_complex<T>)
          got = conjugate ? trnblas::dotc(n, x.data(), x.inc, y.data(), y.inc)
                          : trnblas::dotu(n, x.data(), x.inc, y.data(), y.inc);
        else
          got = trnblas::dot(n, x.data(), x.inc, y.data(), y.inc);
        ASSERT_TRUE(close(got, want, bound<T>(n) * mag)) << n << " incs " << inc[0] << "," << inc[1];
      }
    }
}

// nrm2: a sum of squares (n terms; 2n real terms for complex, which γ_{n+1}(4u) covers) and a square root:
// relative error ≤ γ_n/2 + u + O(u²) ≤ γ_{n+1}. asum: a sum of n (complex: 2n) nonnegative terms, relative
// γ_{n−1} (γ_{2n−1} with the real u).
TYPED_TEST(Level1, Nrm2AndAsumMeetTheirBounds) {
  using T = TypeParam;
  std::mt19937_64 rng(15);
  const long double u = std::numeric_limits<Real<T>>::epsilon() / 2.0L;
  for (std::int64_t n : kSizes)
    for (std::int64_t inc : {1, 2, -3}) {
      const Vec<T> x(n, inc, rng);
      long double squares = 0, sum = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const Wide<T> v = widen(x[i]);
        squares += std::norm(v);
        if constexpr (is_complex<T>)
          sum += std::abs(v.real()) + std::abs(v.imag());
        else
          sum += std::abs(v);
      }
      const long double norm = std::sqrt(squares);
      const Real<T> got_norm = trnblas::nrm2(n, x.data(), x.inc);
      ASSERT_TRUE(close(got_norm, norm, bound<T>(n + 1) * norm)) << n << " " << inc;
      const std::int64_t terms = is_complex<T> ? 2 * n : n;
      const long double sum_bound = gamma(terms, u) + gamma(terms + 4, 4 * std::ldexp(1.0L, -64));
      ASSERT_TRUE(close(trnblas::asum(n, x.data(), x.inc), sum, sum_bound * sum)) << n << " " << inc;
      if (n > 0) {
        const trncore::VectorView<const T> view(x.data(), n, inc);
        EXPECT_EQ(trnblas::nrm2(view), got_norm);  // the view form is the same call
      }
    }
}

// iamax: the first index of the largest |x_i| (|Re| + |Im| for complex, one rounding in T, so an index whose
// value is within 2u of the maximum is accepted for complex data; real data must match exactly).
TYPED_TEST(Level1, IamaxFindsTheFirstLargest) {
  using T = TypeParam;
  std::mt19937_64 rng(16);
  const auto value = [](T v) -> long double {
    const Wide<T> w = widen(v);
    if constexpr (is_complex<T>)
      return std::abs(w.real()) + std::abs(w.imag());
    else
      return std::abs(w);
  };
  for (std::int64_t n : kSizes)
    for (std::int64_t inc : {1, 4}) {
      Vec<T> x(n, inc, rng);
      if (n >= 7) x[5] = x[3];  // a tie below the maximum must not matter
      std::int64_t want = -1;
      for (std::int64_t i = 0; i < n; ++i)
        if (want < 0 || value(x[i]) > value(x[want])) want = i;
      const std::int64_t got = trnblas::iamax(n, x.data(), x.inc);
      if (!is_complex<T> || n == 0) {
        ASSERT_EQ(got, want) << n;
      } else {
        ASSERT_GE(got, 0);
        ASSERT_LT(got, n);
        ASSERT_GE(value(x[got]), value(x[want]) * (1 - 2 * unit<T>())) << n;
      }
    }
  // A tie for the maximum: the first one, as BLAS.
  std::vector<T> t{T(1), T(-3), T(2), T(3), T(-3)};
  EXPECT_EQ(trnblas::iamax(5, t.data(), 1), 1);
}

// rot: x' = c·x + s·y and y' = c·y − s·x, two roundings each after the products: γ₂(|c||x| + |s||y|).
TYPED_TEST(Level1, RotMeetsGamma2) {
  using T = TypeParam;
  std::mt19937_64 rng(17);
  const Real<T> c = static_cast<Real<T>>(0.6), s = static_cast<Real<T>>(-0.8);
  for (std::int64_t n : kSizes)
    for (const auto& inc : kIncs) {
      Vec<T> x(n, inc[0], rng), y(n, inc[1], rng);
      const auto x0 = x, y0 = y;
      trnblas::rot(n, x.data(), x.inc, y.data(), y.inc, c, s);
      const long double lc = c, ls = s;
      for (std::int64_t i = 0; i < n; ++i) {
        const Wide<T> xi = widen(x0[i]), yi = widen(y0[i]);
        const long double mag = std::abs(lc) * std::abs(xi) + std::abs(ls) * std::abs(yi);
        const long double mag_y = std::abs(lc) * std::abs(yi) + std::abs(ls) * std::abs(xi);
        ASSERT_TRUE(close(x[i], lc * xi + ls * yi, bound<T>(2) * mag)) << n << " " << i;
        ASSERT_TRUE(close(y[i], lc * yi - ls * xi, bound<T>(2) * mag_y)) << n << " " << i;
      }
      ASSERT_TRUE(x.gaps_unchanged(x0.buf));
      ASSERT_TRUE(y.gaps_unchanged(y0.buf));
    }
}

// rotg: r = ±√(|a|² + |b|²), c = |a|/|r| (real data: a/r), s = b/r (complex: (a/|a|)·conj(b)/|r|). Each of
// c, s, r is a product/quotient of at most 10 correctly rounded operations on positive quantities (scale,
// squares, sum, square root, divisions) with no cancellation, so each has relative error ≤ γ₁₀; s, r
// compared relative to |r| resp. the rotation's unit scale.
TYPED_TEST(Level1, RotgBuildsTheRotation) {
  using T = TypeParam;
  std::mt19937_64 rng(18);
  std::vector<std::pair<T, T>> cases{{T(3), T(4)}, {T(-4), T(3)}, {T(0), T(2)}, {T(2), T(0)}, {T(0), T(0)}};
  for (int i = 0; i < 50; ++i) cases.push_back({draw<T>(rng), draw<T>(rng)});
  for (const auto& [a0, b0] : cases) {
    T a = a0, b = b0, s;
    Real<T> c;
    trnblas::rotg(&a, &b, &c, &s);
    const Wide<T> wa = widen(a0), wb = widen(b0);
    const long double norm = std::sqrt(std::norm(wa) + std::norm(wb));
    const long double tol = bound<T>(10);
    Wide<T> r, want_s;
    long double want_c;
    if constexpr (is_complex<T>) {
      if (std::abs(wa) == 0) {
        want_c = 0;
        want_s = 1;
        r = wb;
      } else {
        const Wide<T> phase = wa / std::abs(wa);
        want_c = std::abs(wa) / norm;
        want_s = phase * std::conj(wb) / norm;
        r = phase * norm;
      }
    } else {
      if (norm == 0) {
        want_c = 1;
        want_s = 0;
        r = 0;
      } else {
        const long double roe = std::abs(wa) > std::abs(wb) ? wa : wb;
        r = std::copysign(norm, roe);
        want_c = wa / r;
        want_s = wb / r;
      }
    }
    EXPECT_TRUE(close(c, want_c, tol)) << "c for a=" << wa << " b=" << wb;
    EXPECT_TRUE(close(s, want_s, tol)) << "s for a=" << wa << " b=" << wb;
    EXPECT_TRUE(close(a, r, tol * norm)) << "r for a=" << wa << " b=" << wb;
  }
}

// The view forms forward to the pointer forms (same results bit for bit) and check sizes.
TYPED_TEST(Level1, ViewFormsForward) {
  using T = TypeParam;
  std::mt19937_64 rng(19);
  Vec<T> x(9, -2, rng), y(9, 3, rng);
  auto y2 = y;
  const T alpha = draw<T>(rng);
  trnblas::axpy(alpha, trncore::VectorView<T>(x.data(), 9, -2), trncore::VectorView<T>(y.data(), 9, 3));
  trnblas::axpy(9, alpha, x.data(), -2, y2.data(), 3);
  EXPECT_EQ(y.buf, y2.buf);
  const trncore::VectorView<const T> vx(x.data(), 9, -2), vy(y.data(), 9, 3);
  T want;
  if constexpr (is_complex<T>)
    want = trnblas::dotc(9, x.data(), -2, y.data(), 3);
  else
    want = trnblas::dot(9, x.data(), -2, y.data(), 3);
  EXPECT_EQ(trnblas::dot(vx, vy), want);
  const trncore::VectorView<const T> short_y(y.data(), 8, 3);
  EXPECT_EQ(message_of([&] { trnblas::dot(vx, short_y); }),
            "trnblas::dot: x has 9 elements but y has 8: pass x and y of one size");
  EXPECT_THROW(trnblas::axpy(alpha, vx, trncore::VectorView<T>(y.data(), 8, 3)), trncore::DimensionMismatch);
}

}  // namespace
