// The exact Ozaki digit-product sum (sim/exact_digit_product) against the definition evaluated directly:
// Z_ij = Σ_{s+t ≤ S−1} Σ_q D^A_s(i,q)·D^B_t(q,j)·2^(bits·(S−1−s−t)) in 128-bit integers, one term at a
// time. The fast path groups digits into DGEMMs chosen by a cover planner; a rectangle that strays outside
// the pair triangle, misses a pair or overflows 2^53 changes Z, so equality here is the whole contract.
#include "sim/exact_digit_product.hpp"
#include "sim/slices.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <random>
#include <string>

namespace {

using trnblas::detail::Buffer;
using trnblas::detail::Int128;

std::vector<Buffer<float>> random_digits(int count, std::int64_t size, int bits, std::mt19937_64& rng) {
  // Digits of one element share its sign, as split_fixed's truncated digits do; the extremes ±(2^bits − 1)
  // are drawn often so the exactness budget is exercised at its edge.
  const int top = (1 << bits) - 1;
  std::uniform_int_distribution<int> digit(-top, top), coin(0, 3);
  std::vector<Buffer<float>> d(static_cast<std::size_t>(count), Buffer<float>(static_cast<std::size_t>(size), 0.0f));
  for (std::int64_t e = 0; e < size; ++e) {
    const int sign = coin(rng) < 2 ? 1 : -1;
    for (int s = 0; s < count; ++s) {
      const int v = coin(rng) == 0 ? top : std::abs(digit(rng));
      d[static_cast<std::size_t>(s)][static_cast<std::size_t>(e)] = static_cast<float>(sign * v);
    }
  }
  return d;
}

std::vector<Int128> by_definition(std::int64_t m, std::int64_t n, std::int64_t k, const std::vector<Buffer<float>>& a,
                                  const std::vector<Buffer<float>>& b, int bits) {
  const int count = static_cast<int>(a.size());
  std::vector<Int128> z(static_cast<std::size_t>(m * n), 0);
  for (int s = 0; s < count; ++s)
    for (int t = 0; s + t <= count - 1; ++t)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          Int128 sum = 0;
          for (std::int64_t q = 0; q < k; ++q)
            sum += static_cast<Int128>(a[static_cast<std::size_t>(s)][static_cast<std::size_t>(i * k + q)]) *
                   static_cast<Int128>(b[static_cast<std::size_t>(t)][static_cast<std::size_t>(q * n + j)]);
          z[static_cast<std::size_t>(i * n + j)] += sum << (bits * (count - 1 - s - t));
        }
  return z;
}

TEST(ExactDigitProduct, EqualsTheDefinitionForEverySliceCountAndWidth) {
  std::mt19937_64 rng(2026);
  struct Case {
    std::int64_t m, n, k;
  };
  // k crosses powers of two (the DGEMM budget is 53 − ceil(log2 k) bits); 1×1 and skewed shapes.
  for (const Case c : {Case{1, 1, 1}, Case{3, 5, 7}, Case{4, 3, 128}, Case{2, 3, 129}, Case{2, 2, 1025}})
    for (const int bits : {4, 8})
      for (const int count : {1, 2, 3, 7, 12, 15, 20, 25}) {
        if (bits == 8 && count > 12) continue;  // beyond max_ozaki_slices for 8-bit digits (128-bit headroom)
        const auto a = random_digits(count, c.m * c.k, bits, rng);
        const auto b = random_digits(count, c.k * c.n, bits, rng);
        for (const int threads : {1, 2}) {
          const auto z = trnblas::detail::exact_digit_product(c.m, c.n, c.k, a, b, bits, threads);
          const auto want = by_definition(c.m, c.n, c.k, a, b, bits);
          ASSERT_EQ(z.size(), want.size());
          for (std::size_t i = 0; i < z.size(); ++i)
            ASSERT_TRUE(z[i] == want[i]) << "m " << c.m << " n " << c.n << " k " << c.k << " bits " << bits
                                         << " slices " << count << " threads " << threads << " element " << i;
        }
      }
}

TEST(ExactDigitProduct, FromScaledOperandsEqualsTheDefinitionOnSplitFixedDigits) {
  // The production path reads each digit group off the line-scaled operand y = 2^-e x; the reference is
  // the definition summed over the digits split_fixed stores for the same x. Entries span many binades
  // (down to subnormal scaled values), with zeros, ±1-ulp-below-a-power-of-two values and a zero line.
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  std::uniform_int_distribution<int> expo(-80, 0), kind(0, 9);
  const auto operand = [&](std::int64_t size, std::int64_t zero_from, std::int64_t zero_to) {
    std::vector<double> x(static_cast<std::size_t>(size));
    for (std::int64_t e = 0; e < size; ++e) {
      const int what = kind(rng);
      double v = std::ldexp(mant(rng), expo(rng));
      if (what == 0) v = 0.0;
      if (what == 1) v = std::nextafter(1.0, 0.0) * (mant(rng) < 0 ? -1 : 1);
      if (what == 2) v = std::ldexp(mant(rng), -1060);  // subnormal
      if (e >= zero_from && e < zero_to) v = 0.0;
      x[static_cast<std::size_t>(e)] = std::ldexp(v, 300);
    }
    return x;
  };
  struct Case {
    std::int64_t m, n, k;
  };
  for (const Case c : {Case{1, 1, 1}, Case{3, 5, 7}, Case{4, 3, 128}, Case{2, 3, 129}})
    for (const int bits : {4, 8})
      for (const int count : {1, 2, 5, 12, 15, 25}) {
        if (bits == 8 && count > 12) continue;
        const auto x = operand(c.m * c.k, 0, c.k);  // row 0 of A is a zero line
        const auto y = operand(c.k * c.n, -1, -1);
        using trnblas::detail::Lines;
        const auto da = trnblas::detail::split_fixed(std::span<const double>(x), c.m, c.k, Lines::rows, count, bits, 1);
        const auto db = trnblas::detail::split_fixed(std::span<const double>(y), c.k, c.n, Lines::cols, count, bits, 1);
        const auto sa =
            trnblas::detail::scale_lines(std::span<const double>(x), c.m, c.k, Lines::rows, da.exponents, 2);
        const auto sb =
            trnblas::detail::scale_lines(std::span<const double>(y), c.k, c.n, Lines::cols, db.exponents, 2);
        const auto want = by_definition(c.m, c.n, c.k, da.parts, db.parts, bits);
        for (const int threads : {1, 2}) {
          const auto z =
              trnblas::detail::exact_digit_product(c.m, c.n, c.k, sa.values, sb.values, count, bits, threads);
          ASSERT_EQ(z.size(), want.size());
          for (std::size_t i = 0; i < z.size(); ++i)
            ASSERT_TRUE(z[i] == want[i]) << "m " << c.m << " n " << c.n << " k " << c.k << " bits " << bits
                                         << " slices " << count << " threads " << threads << " element " << i;
        }
      }
}

TEST(ExactDigitProduct, CoverNeedsFewerDgemmsThanBisection) {
  // Halving the longer side until a rectangle fits (the first implementation) issued 20 DGEMMs for the
  // bf16-product default (15 slices of 4 bits, k = 1024) and 14 for 8 slices of 8 bits; the optimal
  // guillotine cover needs 17 and 11 (exhaustive search over all cut sequences).
  EXPECT_LE(trnblas::detail::exact_digit_product_gemms(1024, 15, 4), 17);
  EXPECT_LE(trnblas::detail::exact_digit_product_gemms(1024, 8, 8), 11);
  EXPECT_EQ(trnblas::detail::exact_digit_product_gemms(1024, 1, 4), 1);
  EXPECT_EQ(trnblas::detail::exact_digit_product_gemms(1024, 0, 4), 0);
}

}  // namespace
