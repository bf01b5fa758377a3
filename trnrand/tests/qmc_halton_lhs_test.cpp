// Halton (plain and randomly permuted) and Latin hypercube samples.
#include "qmc_test_support.hpp"

#include <trnrand/halton.hpp>
#include <trnrand/latin_hypercube.hpp>

#include <trncore/error.hpp>
#include <trnsci_testing/errors.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <vector>

namespace {

using trnrand::Halton;
using trnrand::HaltonOptions;
using trnrand::HaltonScramble;
using trnrand::LatinHypercubeOptions;

constexpr double kU = 0x1p-53;  // unit roundoff of double

std::vector<double> halton_points(std::int64_t n, std::int64_t dims, HaltonOptions options) {
  std::vector<double> out(static_cast<std::size_t>(n * dims));
  trnrand::halton(n, dims, out, options);
  return out;
}

TEST(HaltonTest, FirstPointsAreVanDerCorputInBases2_3_5) {
  // Expected value of index i in base b: the digit-reversed integer r over b^K, both exact in double
  // and divided once (correctly rounded). The library's Horner evaluation makes two roundings per digit,
  // so |error| ≤ 2K·u + u/2 with K ≤ 7 digits here; 16u covers it.
  const auto pts = halton_points(200, 3, {});
  const std::uint64_t bases[] = {2, 3, 5};
  for (std::uint64_t i = 0; i < 200; ++i) {
    for (std::size_t d = 0; d < 3; ++d) {
      const std::uint64_t b = bases[d];
      std::uint64_t r = 0, denominator = 1;
      for (std::uint64_t k = i; k > 0; k /= b) {
        r = r * b + k % b;
        denominator *= b;
      }
      const double expected = static_cast<double>(r) / static_cast<double>(denominator);
      EXPECT_NEAR(pts[i * 3 + d], expected, 16 * kU) << "i=" << i << " base " << b;
      if (b == 2) {
        EXPECT_EQ(pts[i * 3 + d], expected);  // dyadic, hence exact
      }
    }
  }
  // The textbook start of each sequence.
  EXPECT_EQ(pts[1 * 3 + 0], 0.5);
  EXPECT_EQ(pts[3 * 3 + 0], 0.75);
  EXPECT_NEAR(pts[1 * 3 + 1], 1.0 / 3, kU);
  EXPECT_NEAR(pts[4 * 3 + 1], 4.0 / 9, 4 * kU);
  EXPECT_NEAR(pts[6 * 3 + 2], 6.0 / 25, 4 * kU);
}

TEST(HaltonTest, BasesAreTheFirstPrimes) {
  Halton h(trnrand::kHaltonMaxDims);
  // An independent sieve of Eratosthenes.
  std::vector<bool> composite(300000, false);
  std::vector<std::int64_t> primes;
  for (std::int64_t c = 2; c < 300000 && primes.size() < 21201; ++c) {
    if (composite[static_cast<std::size_t>(c)]) continue;
    primes.push_back(c);
    for (std::int64_t k = c * c; k < 300000; k += c) composite[static_cast<std::size_t>(k)] = true;
  }
  ASSERT_EQ(primes.size(), 21201u);
  for (std::int64_t d = 0; d < h.dims(); ++d) ASSERT_EQ(h.base(d), primes[static_cast<std::size_t>(d)]);
}

TEST(HaltonTest, ScrambledDigitsArePermutationsPerPosition) {
  // Index i = a + b·c (a, c < b) has digits a then c. Digit k of the scrambled value is π_k(digit k), and
  // the permuted trailing zeros add a tail T/b² with T ∈ [0,1). So floor(x·b²) = π_1(a)·b + π_2(c):
  //  * over a, π_1(a) = floor(x·b) takes every value in [0,b) once;
  //  * π_2(c) = floor(x·b²) mod b does not depend on a (one permutation per position, not nested) and
  //    takes every value once over c.
  // floor() is safe: x·b² lies at T away from an integer, and T is within rounding of 0 or 1 only if
  // the random tail digits are all 0 or all b−1 for ~40 digits (probability ~b^-40; fixed seeds).
  const std::vector<std::int64_t> bases = {2, 3, 5, 7, 11, 13, 17};
  for (std::uint64_t seed : {0u, 1u, 99u}) {
    const auto dims = static_cast<std::int64_t>(bases.size());
    const std::int64_t n = 17 * 17;
    const auto pts =
        halton_points(n, dims, trnrand_test::sequence_options(HaltonScramble::random_permutation, seed, 0));
    for (std::size_t d = 0; d < bases.size(); ++d) {
      const std::int64_t b = bases[d];
      std::vector<std::int64_t> second(static_cast<std::size_t>(b), -1);
      std::set<std::int64_t> firsts, seconds;
      for (std::int64_t c = 0; c < b; ++c) {
        for (std::int64_t a = 0; a < b; ++a) {
          const double x = pts[static_cast<std::size_t>((a + b * c) * dims) + d];
          const auto cell = static_cast<std::int64_t>(std::floor(x * static_cast<double>(b * b)));
          if (c == 0) firsts.insert(cell / b);
          if (a == 0) {
            second[static_cast<std::size_t>(c)] = cell % b;
            seconds.insert(cell % b);
          }
          ASSERT_EQ(cell % b, second[static_cast<std::size_t>(c)]) << "b=" << b << " a=" << a << " c=" << c;
        }
      }
      EXPECT_EQ(firsts.size(), static_cast<std::size_t>(b));
      EXPECT_EQ(seconds.size(), static_cast<std::size_t>(b));
    }
  }
}

TEST(HaltonTest, ScrambleIsReproducibleSeedDependentAndUniform) {
  const HaltonOptions a = trnrand_test::sequence_options(HaltonScramble::random_permutation, 5, 0);
  EXPECT_EQ(halton_points(100, 6, a), halton_points(100, 6, a));
  const auto x = halton_points(100, 6, a);
  const auto y = halton_points(100, 6, trnrand_test::sequence_options(HaltonScramble::random_permutation, 6, 0));
  std::size_t same = 0;
  for (std::size_t i = 0; i < x.size(); ++i) same += x[i] == y[i];
  EXPECT_LE(same, 2u);  // independent continuous values coincide only by accident
  // Each point of a randomly permuted sequence is uniform on [0,1): over 4000 seeds the mean of one
  // coordinate has σ = sqrt(1/12/4000) ≈ 0.0046; 5σ = 0.023.
  for (std::int64_t index : {0, 7}) {
    double sum[4] = {0, 0, 0, 0};
    for (std::uint64_t seed = 0; seed < 4000; ++seed) {
      const auto p =
          halton_points(1, 4, trnrand_test::sequence_options(HaltonScramble::random_permutation, seed, index));
      for (int d = 0; d < 4; ++d) sum[d] += p[static_cast<std::size_t>(d)];
    }
    for (double s : sum) EXPECT_NEAR(s / 4000, 0.5, 0.023) << "index " << index;
  }
}

TEST(HaltonTest, SkipSeekAndFillEqualStepping) {
  for (auto scramble : {HaltonScramble::none, HaltonScramble::random_permutation}) {
    Halton stepped(5, trnrand_test::sequence_options(scramble, 3, 0));
    std::vector<std::vector<double>> walk(400, std::vector<double>(5));
    for (auto& p : walk) stepped.next(p);
    for (std::int64_t k : {0, 1, 31, 32, 242, 243, 399}) {
      Halton h(5, trnrand_test::sequence_options(scramble, 3, k));
      std::vector<double> p(5);
      h.next(p);
      EXPECT_EQ(p, walk[static_cast<std::size_t>(k)]);
      h.seek(0);
      h.skip(k);
      h.next(p);
      EXPECT_EQ(p, walk[static_cast<std::size_t>(k)]);
    }
    Halton f(5, trnrand_test::sequence_options(scramble, 3, 10));
    std::vector<double> rows(20 * 7, -1.0);
    f.fill(20, rows.data(), 7);
    for (std::size_t i = 0; i < 20; ++i)
      for (std::size_t d = 0; d < 7; ++d) ASSERT_EQ(rows[i * 7 + d], d < 5 ? walk[10 + i][d] : -1.0);
  }
}

TEST(HaltonTest, HugeIndicesStayBelowOne) {
  // Index 3^39 − 1 has 39 base-3 digits all equal to 2: its radical inverse 1 − 3^-39 rounds to 1.0 in
  // double, which the library must clamp to the largest double below 1. Index 2^63 − 2 is the last
  // producible one (63 base-2 digits, the longest Horner chain).
  std::int64_t all_twos = 1;
  for (int k = 0; k < 39; ++k) all_twos *= 3;
  for (auto scramble : {HaltonScramble::none, HaltonScramble::random_permutation}) {
    for (std::int64_t index : {all_twos - 1, std::numeric_limits<std::int64_t>::max() - 1}) {
      Halton h(30, trnrand_test::sequence_options(scramble, 8, index));
      std::vector<double> p(30);
      h.next(p);
      for (double v : p) {
        EXPECT_GE(v, 0.0);
        EXPECT_LT(v, 1.0);
      }
      if (scramble == HaltonScramble::none && index == all_twos - 1) {
        EXPECT_EQ(p[1], 0x1.fffffffffffffp-1);
      }
    }
    Halton last(3, trnrand_test::sequence_options(scramble, 8, std::numeric_limits<std::int64_t>::max() - 1));
    std::vector<double> p(3);
    last.next(p);
    EXPECT_THROW(last.next(p), trncore::ResourceExhausted);
  }
}

TEST(HaltonTest, BadInputThrows) {
  EXPECT_THROW(Halton(0), trncore::InvalidArgument);
  EXPECT_THROW(Halton(21202), trncore::InvalidArgument);
  EXPECT_THROW(Halton(2, trnrand_test::sequence_options(HaltonScramble::none, 0, -1)), trncore::InvalidArgument);
  EXPECT_THROW(Halton(2, trnrand_test::sequence_options(static_cast<HaltonScramble>(5), 0, 0)),
               trncore::InvalidArgument);
  Halton h(3);
  std::vector<double> wrong(2);
  EXPECT_THROW(h.next(wrong), trncore::DimensionMismatch);
  EXPECT_THROW(h.fill(wrong), trncore::DimensionMismatch);
  EXPECT_THROW(h.fill(-1, wrong.data(), 3), trncore::InvalidArgument);
  EXPECT_THROW(h.fill(1, wrong.data(), 2), trncore::DimensionMismatch);
  EXPECT_THROW(h.fill(1, nullptr, 3), trncore::InvalidArgument);
  EXPECT_THROW(h.skip(-1), trncore::InvalidArgument);
  EXPECT_THROW(h.seek(-1), trncore::InvalidArgument);
  EXPECT_THROW((void)h.base(3), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::halton(2, 3, wrong, {}), trncore::DimensionMismatch);
  EXPECT_THROW(trnrand::halton(-1, 3, wrong, {}), trncore::InvalidArgument);
  // The shared QMC checks (src/qmc/checks.cpp) name the public function and the values.
  trnsci_testing::expect_error<trncore::DimensionMismatch>([&] { trnrand::halton(2, 3, wrong, {}); }, "trnrand::halton",
                                                           {"out.size() = 2", "n * dims = 6"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>([&] { h.fill(1, wrong.data(), 2); }, "trnrand::Halton::fill",
                                                           {"ld = 2 is less than dims() = 3"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>([&] { h.next(wrong); }, "trnrand::Halton::next",
                                                           {"point.size() = 2 but dims() = 3"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [] { Halton bad(2, trnrand_test::sequence_options(HaltonScramble::none, 0, -1)); }, "trnrand::Halton",
      {"skip = -1"});
  trnsci_testing::expect_error<trncore::InvalidArgument>([] { Halton bad(21202); }, "trnrand::Halton",
                                                         {"dims = 21202 is outside [1, 21201]"});
  try {
    Halton bad(-4);
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("trnrand::Halton: dims = -4"));
  }
  EXPECT_EQ(trnrand::parse_halton_scramble("random_permutation"), HaltonScramble::random_permutation);
  EXPECT_EQ(trnrand::parse_halton_scramble(to_string(HaltonScramble::none)), HaltonScramble::none);
  EXPECT_THROW((void)trnrand::parse_halton_scramble("owen"), trncore::ParseError);
}

// Stratum p of x among n strata, checked exactly: fma(x, n, −c) has the sign of x·n − c.
std::int64_t stratum(double x, std::int64_t n) {
  const auto p = static_cast<std::int64_t>(std::floor(x * static_cast<double>(n)));
  for (std::int64_t q : {p - 1, p, p + 1})
    if (std::fma(x, static_cast<double>(n), -static_cast<double>(q)) >= 0 &&
        std::fma(x, static_cast<double>(n), -static_cast<double>(q + 1)) < 0)
      return q;
  return -1;
}

TEST(LatinHypercubeTest, OnePointPerStratumInEveryDimension) {
  for (bool centered : {false, true}) {
    for (std::int64_t n : {1, 2, 7, 127, 128, 129, 1000}) {
      for (std::int64_t dims : {1, 3, 17}) {
        const auto x = trnrand::latin_hypercube(n, dims, trnrand_test::lhs_options(42, centered));
        ASSERT_EQ(x.size(), static_cast<std::size_t>(n * dims));
        for (std::int64_t d = 0; d < dims; ++d) {
          std::vector<int> hits(static_cast<std::size_t>(n), 0);
          for (std::int64_t i = 0; i < n; ++i) {
            const double v = x[static_cast<std::size_t>(i * dims + d)];
            const std::int64_t p = stratum(v, n);
            ASSERT_GE(p, 0) << v;
            ASSERT_LT(p, n);
            ++hits[static_cast<std::size_t>(p)];
            if (centered) {
              // (p + 1/2)/n correctly rounded: |x − (p + 1/2)/n| ≤ u·x < u, so |x·n − (p + 1/2)| < n·u.
              EXPECT_LE(std::fabs(std::fma(v, static_cast<double>(n), -(static_cast<double>(p) + 0.5))),
                        static_cast<double>(n) * kU);
            }
          }
          EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }))
              << "n=" << n << " dims=" << dims << " d=" << d;
        }
      }
    }
  }
}

TEST(LatinHypercubeTest, MeansAndJitterAreUniform) {
  // One point per stratum bounds the mean of each column: |mean − 1/2| ≤ 1/(2n) (plus summation
  // rounding n·u, negligible). The offsets x·n − p inside the strata are uniform on [0,1): over
  // 1000 × 17 of them the mean has σ = sqrt(1/12/17000) ≈ 0.0022; 5σ = 0.011.
  const std::int64_t n = 1000, dims = 17;
  const auto x = trnrand::latin_hypercube(n, dims, trnrand_test::lhs_options(7, false));
  double offsets = 0;
  for (std::int64_t d = 0; d < dims; ++d) {
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double v = x[static_cast<std::size_t>(i * dims + d)];
      sum += v;
      offsets += v * n - static_cast<double>(stratum(v, n));
    }
    EXPECT_LE(std::fabs(sum / n - 0.5), 0.5 / n + 1e-12);
  }
  EXPECT_NEAR(offsets / (n * dims), 0.5, 0.011);
}

TEST(LatinHypercubeTest, ReproducibleSeedDependentAndIndependentOfDims) {
  const auto a = trnrand::latin_hypercube(50, 4, trnrand_test::lhs_options(9, false));
  EXPECT_EQ(a, trnrand::latin_hypercube(50, 4, trnrand_test::lhs_options(9, false)));
  const auto b = trnrand::latin_hypercube(50, 4, trnrand_test::lhs_options(10, false));
  std::size_t same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
  EXPECT_LE(same, 2u);
  // Column d is drawn from (seed, d) only: a wider sample extends a narrower one.
  const auto wide = trnrand::latin_hypercube(50, 9, trnrand_test::lhs_options(9, false));
  for (std::size_t i = 0; i < 50; ++i)
    for (std::size_t d = 0; d < 4; ++d) ASSERT_EQ(wide[i * 9 + d], a[i * 4 + d]);
  // The strided form writes the same values and leaves the padding alone.
  std::vector<double> strided(50 * 6, -1.0);
  trnrand::latin_hypercube(50, 4, strided.data(), 6, trnrand_test::lhs_options(9, false));
  for (std::size_t i = 0; i < 50; ++i)
    for (std::size_t d = 0; d < 6; ++d) ASSERT_EQ(strided[i * 6 + d], d < 4 ? a[i * 4 + d] : -1.0);
}

TEST(LatinHypercubeTest, EmptyAndBadInput) {
  EXPECT_TRUE(trnrand::latin_hypercube(0, 3).empty());
  trnrand::latin_hypercube(0, 3, nullptr, 3);  // nothing to write
  std::vector<double> out(6);
  EXPECT_THROW(trnrand::latin_hypercube(-1, 3), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::latin_hypercube(2, 0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::latin_hypercube((std::int64_t{1} << 32) + 1, 1), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::latin_hypercube(2, std::int64_t{1} << 62), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::latin_hypercube(2, 3, nullptr, 3), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::latin_hypercube(2, 3, out.data(), 2), trncore::DimensionMismatch);
  EXPECT_THROW(trnrand::latin_hypercube(3, 3, std::span<double>(out)), trncore::DimensionMismatch);
  trnsci_testing::expect_error<trncore::DimensionMismatch>([&] { trnrand::latin_hypercube(2, 3, out.data(), 2); },
                                                           "trnrand::latin_hypercube",
                                                           {"ld = 2 is less than dims = 3"});
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnrand::latin_hypercube(2, 3, nullptr, 3); },
                                                         "trnrand::latin_hypercube", {"out is null"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnrand::latin_hypercube(3, 3, std::span<double>(out)); }, "trnrand::latin_hypercube",
      {"out.size() = 6", "n * dims = 9"});
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnrand::latin_hypercube(2, 0); },
                                                         "trnrand::latin_hypercube", {"dims = 0"});
  try {
    trnrand::latin_hypercube(-5, 3);
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("trnrand::latin_hypercube: n = -5"));
  }
}

}  // namespace
