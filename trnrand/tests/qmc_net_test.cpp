// Sobol stratification: every block of 2^m points starting at a multiple of 2^m is a (t,m,s)-net, with
// scrambling preserving it, plus the statistical properties that distinguish the two scrambles.
//
// Why exact assertions are right here: the net property is combinatorial (integer counts per
// elementary interval), and a digit scramble that maps each elementary interval onto one of the same
// shape only permutes the counts, so the scrambled t-value must equal the unscrambled one exactly.
#include "qmc_test_support.hpp"

#include <trnrand/sobol.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using trnrand::Sobol;
using trnrand::SobolOptions;
using trnrand::SobolScramble;

constexpr SobolScramble kAll[] = {SobolScramble::none, SobolScramble::linear_matrix_digital_shift, SobolScramble::owen};

// Points first … first + count − 1 of the sequence, restricted to the 1-based dimensions `pick`.
std::vector<std::uint32_t> block(int dims, SobolOptions options, std::int64_t first, std::int64_t count,
                                 const std::vector<int>& pick) {
  options.skip = first;
  Sobol s(dims, options);
  std::vector<std::uint32_t> x(static_cast<std::size_t>(dims)), out;
  for (std::int64_t i = 0; i < count; ++i) {
    s.next(std::span<std::uint32_t>(x));
    for (int d : pick) out.push_back(x[static_cast<std::size_t>(d - 1)]);
  }
  return out;
}

// Sobol's bound for the t-value of the sequence in these dimensions: Σ (deg p_d − 1), where dimension 1
// counts as the degree-1 polynomial x (Sobol 1967; Niederreiter 1988). Holds for any odd initial m_i.
int sobol_t_bound(const std::vector<int>& pick) {
  int t = 0;
  for (int d : pick) t += trnrand_test::joe_kuo_reference().at(static_cast<std::size_t>(d - 1)).degree - 1;
  return t;
}

TEST(SobolNetTest, EveryDimensionIsA0m1NetOnFirstBlocks) {
  // Each coordinate alone is a (0,1)-sequence: 2^m consecutive aligned points hit each interval
  // [k/2^m, (k+1)/2^m) once. Checked for all 21201 dimensions on blocks of 1024.
  for (auto scramble : kAll) {
    // Owen costs ~24 Philox calls per coordinate: check it on the first 1000 dimensions to stay fast.
    Sobol s(scramble == SobolScramble::owen ? 1000 : trnrand::kSobolMaxDims,
            trnrand_test::sequence_options(scramble, 2024, 0));
    const auto dims = static_cast<std::size_t>(s.dims());
    std::vector<std::uint32_t> x(dims);
    for (int blk = 0; blk < (scramble == SobolScramble::owen ? 1 : 2); ++blk) {
      // Per dimension, a 1024-bit set of the intervals hit: the block is a net iff all bits are set.
      std::vector<std::uint64_t> seen(dims * 16, 0);
      for (int i = 0; i < 1024; ++i) {
        s.next(std::span<std::uint32_t>(x));
        for (std::size_t d = 0; d < dims; ++d) seen[d * 16 + (x[d] >> 28)] |= std::uint64_t{1} << ((x[d] >> 22) & 63u);
      }
      for (std::size_t d = 0; d < dims; ++d)
        for (std::size_t w = 0; w < 16; ++w)
          ASSERT_EQ(seen[d * 16 + w], ~std::uint64_t{0}) << to_string(scramble) << " dim " << d + 1;
    }
  }
}

TEST(SobolNetTest, FirstTwoDimensionsAre0m2NetsInEveryBlock) {
  // (van der Corput, x+1) is a (0,2)-sequence: every aligned block of 2^m points is a (0,m,2)-net.
  for (auto scramble : kAll) {
    for (int m = 1; m <= 12; ++m) {
      const std::int64_t size = std::int64_t{1} << m;
      for (std::int64_t first : {std::int64_t{0}, size, 3 * size, std::int64_t{7} << 20}) {
        if (first + size > trnrand::kSobolMaxPoints) continue;
        const auto pts = block(2, trnrand_test::sequence_options(scramble, 99, 0), first, size, {1, 2});
        ASSERT_TRUE(trnrand_test::is_net(pts, 2, m, 0)) << to_string(scramble) << " m=" << m << " first=" << first;
      }
    }
  }
}

TEST(SobolNetTest, LowDimensionalProjectionsMeetSobolsTBoundAndScramblingKeepsT) {
  const std::vector<std::vector<int>> projections = {{1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4},  {3, 5},
                                                     {4, 7},    {5, 6, 7, 8}, {100, 200}, {21200, 21201}};
  for (const auto& pick : projections) {
    const int dims = *std::max_element(pick.begin(), pick.end());
    const int s = static_cast<int>(pick.size());
    for (int m : {1, 4, 8, 10, 12}) {
      if (dims > 1000 && m > 8) continue;  // keeps the widest sequences cheap
      const std::int64_t size = std::int64_t{1} << m;
      for (std::int64_t first : {std::int64_t{0}, 5 * size}) {
        if (m == 12 && first > 0) continue;  // the largest nets once, to bound the counting cost
        const int t = trnrand_test::t_value(block(dims, {}, first, size, pick), s, m);
        EXPECT_LE(t, std::min(m, sobol_t_bound(pick))) << "dims " << pick.front() << ".. m=" << m;
        for (auto scramble : {SobolScramble::linear_matrix_digital_shift, SobolScramble::owen})
          for (std::uint64_t seed : {1u, 2u}) {
            // Owen-scrambling all 21201 coordinates of every point costs seconds; the widest
            // projection is checked with the linear scramble only.
            if (scramble == SobolScramble::owen && dims > 1000) continue;
            EXPECT_EQ(trnrand_test::t_value(
                          block(dims, trnrand_test::sequence_options(scramble, seed, 0), first, size, pick), s, m),
                      t)
                << to_string(scramble) << " seed " << seed << " m=" << m << " first=" << first;
          }
      }
    }
  }
}

TEST(SobolNetTest, BlockMeansAreWithinHalfAStratum) {
  // A (0,m,1)-net puts one point in each [k/2^m, (k+1)/2^m), so the mean of 2^m points lies in
  // [(1 − 2^-m)/2, (1 + 2^-m)/2): |mean − 1/2| ≤ 2^-(m+1). The sums are exact in double (≤ 2^12
  // multiples of 2^-32, well under 53 bits), so no rounding slack is needed.
  for (auto scramble : kAll) {
    constexpr int kM = 12, kDims = 64;
    Sobol s(kDims, trnrand_test::sequence_options(scramble, 8, 0));
    std::vector<double> pts(std::size_t{1} << kM << 6);
    s.fill(std::span<double>(pts));
    for (int d = 0; d < kDims; ++d) {
      double sum = 0;
      for (std::size_t i = 0; i < (std::size_t{1} << kM); ++i) sum += pts[i * kDims + static_cast<std::size_t>(d)];
      EXPECT_LE(std::fabs(sum / (1 << kM) - 0.5), std::ldexp(1.0, -(kM + 1))) << to_string(scramble) << " d=" << d;
    }
  }
}

TEST(SobolNetTest, ScramblingIsReproducibleAndSeedDependent) {
  for (auto scramble : {SobolScramble::linear_matrix_digital_shift, SobolScramble::owen}) {
    const auto a = block(30, trnrand_test::sequence_options(scramble, 12345, 0), 0, 256, {1, 2, 3, 10, 30});
    EXPECT_EQ(a, block(30, trnrand_test::sequence_options(scramble, 12345, 0), 0, 256, {1, 2, 3, 10, 30}));
    const auto b = block(30, trnrand_test::sequence_options(scramble, 12346, 0), 0, 256, {1, 2, 3, 10, 30});
    const auto plain = block(30, {}, 0, 256, {1, 2, 3, 10, 30});
    // Two independent scrambles agree on a 32-bit coordinate with probability 2^-32 (it is a random
    // value in both); allow a handful of matches rather than none.
    std::size_t same_seed = 0, same_plain = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      same_seed += a[i] == b[i];
      same_plain += a[i] == plain[i];
    }
    EXPECT_LE(same_seed, 2u) << to_string(scramble);
    EXPECT_LE(same_plain, 2u) << to_string(scramble);
  }
}

TEST(SobolNetTest, ScramblesAreNestedLeadingDigitsFirstDifference) {
  // Both scrambles are nested: output digit k depends only on input digits 1 … k and always flips with
  // digit k. So two points first differ at the same digit before and after scrambling.
  for (auto scramble : {SobolScramble::linear_matrix_digital_shift, SobolScramble::owen}) {
    // Within an aligned block of 2^m points the digits after m barely vary, so the points are spread
    // over the whole index range instead: then every digit varies and a scramble that peeked at later
    // digits would show.
    Sobol plain(33), scrambled(33, trnrand_test::sequence_options(scramble, 4, 0));
    std::vector<std::uint32_t> x, y, p(33);
    for (std::uint64_t i = 0; i < 512; ++i) {
      const auto n = static_cast<std::int64_t>((i * 0x9E3779B1u) & 0xFFFFFFFFu);
      plain.seek(n);
      scrambled.seek(n);
      plain.next(std::span<std::uint32_t>(p));
      x.insert(x.end(), p.begin(), p.end());
      scrambled.next(std::span<std::uint32_t>(p));
      y.insert(y.end(), p.begin(), p.end());
    }
    for (std::size_t i = 0; i < 512; i += 3)
      for (std::size_t j = i + 1; j < 512; j += 7)
        for (std::size_t c : {0, 1, 6, 32})
          ASSERT_EQ(std::countl_zero(x[i * 33 + c] ^ x[j * 33 + c]), std::countl_zero(y[i * 33 + c] ^ y[j * 33 + c]))
              << to_string(scramble);
  }
}

TEST(SobolNetTest, LinearScrambleIsAffineAndOwenIsNot) {
  // Points a, b, c and the point whose Gray code is gray(a) ⊕ gray(b) ⊕ gray(c) have unscrambled digits
  // with x_a ⊕ x_b ⊕ x_c ⊕ x_d = 0. An affine scramble y = Lx ⊕ e keeps that (e cancels four times);
  // Owen's scramble uses independent bits in different subtrees, so it breaks it in almost every case.
  const auto inverse_gray = [](std::uint64_t g) {
    std::uint64_t n = 0;
    for (; g; g >>= 1) n ^= g;
    return n;
  };
  const std::vector<int> pick = {1, 2, 3, 4, 5, 6, 7, 8};
  int owen_zero = 0, cases = 0;
  for (std::uint64_t a = 1; a < 40; a += 3) {
    const std::uint64_t b = a + 101, c = 3 * a + 555;
    const std::uint64_t d = inverse_gray((a ^ (a >> 1)) ^ (b ^ (b >> 1)) ^ (c ^ (c >> 1)));
    const auto point = [&](SobolScramble s, std::uint64_t n) {
      return block(8, trnrand_test::sequence_options(s, 31, 0), static_cast<std::int64_t>(n), 1, pick);
    };
    for (std::size_t k = 0; k < pick.size(); ++k) {
      const auto lms = SobolScramble::linear_matrix_digital_shift;
      ASSERT_EQ(point(SobolScramble::none, a)[k] ^ point(SobolScramble::none, b)[k] ^ point(SobolScramble::none, c)[k] ^
                    point(SobolScramble::none, d)[k],
                0u);
      ASSERT_EQ(point(lms, a)[k] ^ point(lms, b)[k] ^ point(lms, c)[k] ^ point(lms, d)[k], 0u);
      const auto o = SobolScramble::owen;
      owen_zero += (point(o, a)[k] ^ point(o, b)[k] ^ point(o, c)[k] ^ point(o, d)[k]) == 0;
      ++cases;
    }
  }
  // For Owen the XOR of the four is a nonzero random value except by chance (its low digits come from
  // independent subtrees, each zero with probability 1/2 per digit): zero in a fraction of cases ≪ 1/4.
  EXPECT_LT(owen_zero * 4, cases);
}

TEST(SobolNetTest, EachScrambledPointIsUniformAcrossSeeds) {
  // Both randomisations make every single point uniform on [0,1)^s. Over 4000 seeds the mean of one
  // coordinate has standard deviation sqrt(1/12/4000) ≈ 0.0046; 5σ ≈ 0.023 fails by chance with
  // probability < 1e-6 (and the seeds are fixed, so the outcome is deterministic).
  for (auto scramble : {SobolScramble::linear_matrix_digital_shift, SobolScramble::owen}) {
    for (std::int64_t index : {0, 1, 6}) {
      double sum[3] = {0, 0, 0};
      constexpr int kSeeds = 4000;
      for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
        Sobol s(3, trnrand_test::sequence_options(scramble, seed, index));
        double x[3];
        s.next(std::span<double>(x));
        for (int d = 0; d < 3; ++d) sum[d] += x[d];
      }
      for (double v : sum) EXPECT_NEAR(v / kSeeds, 0.5, 0.023) << to_string(scramble) << " index " << index;
    }
  }
}

}  // namespace
