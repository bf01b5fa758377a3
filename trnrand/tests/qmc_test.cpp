// Sobol: values against the independent Joe–Kuo reference and the published first points, the Gray-code
// walk against direct construction, skip/seek, output formats, and bad input.
#include "qmc_test_support.hpp"

#include <trnrand/trnrand.hpp>

#include <trncore/error.hpp>
#include <trnsci_testing/errors.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace {

using trnrand::Sobol;
using trnrand::SobolOptions;
using trnrand::SobolScramble;
using trnrand_test::reference_sobol;

std::vector<std::uint32_t> digits(Sobol& s) {
  std::vector<std::uint32_t> x(static_cast<std::size_t>(s.dims()));
  s.next(std::span<std::uint32_t>(x));
  return x;
}

TEST(SobolTest, ReferenceParsedTheWholeFile) {
  // 1 (van der Corput) + 21200 records; anything else means the oracle is broken, not the library.
  ASSERT_EQ(trnrand_test::joe_kuo_reference().size(), 21201u);
}

// Published first points of the three-dimensional sequence (Joe & Kuo's sobol.cc output; Bratley & Fox 1988).
TEST(SobolTest, FirstPointsInThreeDimensionsArePublishedValues) {
  const double expected[8][3] = {{0, 0, 0},
                                 {0.5, 0.5, 0.5},
                                 {0.75, 0.25, 0.25},
                                 {0.25, 0.75, 0.75},
                                 {0.375, 0.375, 0.625},
                                 {0.875, 0.875, 0.125},
                                 {0.625, 0.125, 0.875},
                                 {0.125, 0.625, 0.375}};
  Sobol s(3);
  for (const auto& row : expected) {
    double x[3];
    s.next(std::span<double>(x));
    // Exact: the values are multiples of 2^-3 and the library returns digits · 2^-32 exactly.
    EXPECT_EQ(x[0], row[0]);
    EXPECT_EQ(x[1], row[1]);
    EXPECT_EQ(x[2], row[2]);
  }
}

TEST(SobolTest, First1024PointsInDimensions1To100MatchReference) {
  constexpr int kDims = 100;
  Sobol s(kDims);
  for (std::uint64_t n = 0; n < 1024; ++n) {
    const auto x = digits(s);
    for (int d = 1; d <= kDims; ++d)
      ASSERT_EQ(x[static_cast<std::size_t>(d - 1)], reference_sobol(n, d)) << "n=" << n << " d=" << d;
  }
}

TEST(SobolTest, HighDimensionsMatchReferenceIncludingTheLast) {
  // All 21201 dimensions at once: the last ones use degree-18 polynomials, the deepest table records.
  Sobol s(trnrand::kSobolMaxDims);
  std::vector<std::uint32_t> x(static_cast<std::size_t>(s.dims()));
  for (std::uint64_t n = 0; n < 1024; ++n) {
    s.next(std::span<std::uint32_t>(x));
    for (int d : {101, 1000, 1111, 5000, 10000, 15000, 20000, 21199, 21200, 21201})
      ASSERT_EQ(x[static_cast<std::size_t>(d - 1)], reference_sobol(n, d)) << "n=" << n << " d=" << d;
  }
}

TEST(SobolTest, EveryDimensionMatchesReferenceOnFirstPoints) {
  // Points 1 … 64 touch v_1 … v_7 of every dimension; points 2^k touch v_k ⊕ v_{k+1} up to k = 31.
  Sobol s(trnrand::kSobolMaxDims);
  std::vector<std::uint32_t> x(static_cast<std::size_t>(s.dims()));
  std::vector<std::int64_t> indices;
  for (std::int64_t n = 0; n < 64; ++n) indices.push_back(n);
  for (int k = 7; k < 32; ++k) indices.push_back(std::int64_t{1} << k);
  for (std::int64_t n : indices) {
    s.seek(n);
    s.next(std::span<std::uint32_t>(x));
    for (int d = 1; d <= trnrand::kSobolMaxDims; ++d)
      ASSERT_EQ(x[static_cast<std::size_t>(d - 1)], reference_sobol(static_cast<std::uint64_t>(n), d))
          << "n=" << n << " d=" << d;
  }
}

TEST(SobolTest, DoubleIsExactDigitsAndFloatIsTruncated) {
  Sobol a(7), b(7), c(7);
  std::vector<std::uint32_t> x(7);
  std::vector<double> y(7);
  std::vector<float> z(7);
  for (int n = 0; n < 5000; ++n) {
    a.next(std::span<std::uint32_t>(x));
    b.next(std::span<double>(y));
    c.next(std::span<float>(z));
    for (std::size_t d = 0; d < 7; ++d) {
      ASSERT_EQ(y[d], std::ldexp(static_cast<double>(x[d]), -32));      // exact k / 2^32
      ASSERT_EQ(z[d], std::ldexp(static_cast<float>(x[d] >> 8), -24));  // exact, 24 leading bits
      ASSERT_LT(z[d], 1.0f);
    }
  }
}

TEST(SobolTest, LastPointsAreBelowOneInFloat) {
  // Near the end of the sequence coordinates approach 1 − 2^-32; rounding to nearest float would give 1.
  for (auto scramble : {SobolScramble::none, SobolScramble::owen}) {
    Sobol s(50, trnrand_test::sequence_options(scramble, 3, trnrand::kSobolMaxPoints - 64));
    std::vector<float> z(64 * 50);
    s.fill(64, z.data(), 50);
    for (float v : z) {
      ASSERT_GE(v, 0.0f);
      ASSERT_LT(v, 1.0f);
    }
  }
}

TEST(SobolTest, FillEqualsNextAndRespectsLeadingDimension) {
  for (auto scramble : {SobolScramble::none, SobolScramble::linear_matrix_digital_shift, SobolScramble::owen}) {
    Sobol a(5, trnrand_test::sequence_options(scramble, 11, 0)), b(5, trnrand_test::sequence_options(scramble, 11, 0));
    constexpr std::int64_t kN = 300, kLd = 8;
    std::vector<double> out(kN * kLd, -1.0);
    a.fill(kN, out.data(), kLd);
    std::vector<double> row(5);
    for (std::int64_t i = 0; i < kN; ++i) {
      b.next(std::span<double>(row));
      for (std::int64_t d = 0; d < kLd; ++d)
        ASSERT_EQ(out[static_cast<std::size_t>(i * kLd + d)], d < 5 ? row[static_cast<std::size_t>(d)] : -1.0);
    }
    EXPECT_EQ(a.index(), kN);
    std::vector<double> contiguous(10 * 5);
    a.fill(std::span<double>(contiguous));
    EXPECT_EQ(a.index(), kN + 10);
  }
}

TEST(SobolTest, SkipAndSeekEqualStepping) {
  for (auto scramble : {SobolScramble::none, SobolScramble::linear_matrix_digital_shift, SobolScramble::owen}) {
    Sobol stepped(9, trnrand_test::sequence_options(scramble, 5, 0));
    std::vector<std::vector<std::uint32_t>> walk;
    for (int n = 0; n < 700; ++n) walk.push_back(digits(stepped));
    for (std::int64_t k : {0, 1, 2, 3, 63, 64, 65, 255, 256, 511, 512, 513, 699}) {
      Sobol skipped(9, trnrand_test::sequence_options(scramble, 5, k));
      EXPECT_EQ(digits(skipped), walk[static_cast<std::size_t>(k)]) << to_string(scramble) << " skip=" << k;
      Sobol moved(9, trnrand_test::sequence_options(scramble, 5, 0));
      moved.skip(k);
      EXPECT_EQ(digits(moved), walk[static_cast<std::size_t>(k)]);
      moved.seek(k / 2);  // rewinding works too
      EXPECT_EQ(digits(moved), walk[static_cast<std::size_t>(k / 2)]);
    }
  }
}

TEST(SobolTest, FarSkipMatchesReference) {
  for (std::int64_t k : {std::int64_t{1} << 20, (std::int64_t{1} << 31) + 12345, trnrand::kSobolMaxPoints - 3}) {
    Sobol s(40);
    s.skip(k);
    for (std::int64_t n = k; n < k + 3; ++n) {
      const auto x = digits(s);
      for (int d = 1; d <= 40; ++d)
        ASSERT_EQ(x[static_cast<std::size_t>(d - 1)], reference_sobol(static_cast<std::uint64_t>(n), d)) << n;
    }
  }
}

TEST(SobolTest, SequenceEndsAfter2To32Points) {
  Sobol s(2, trnrand_test::sequence_options(SobolScramble::none, 0, trnrand::kSobolMaxPoints - 1));
  double x[2];
  s.next(std::span<double>(x));  // the last point, 2^32 − 1
  EXPECT_EQ(s.index(), trnrand::kSobolMaxPoints);
  EXPECT_THROW(s.next(std::span<double>(x)), trncore::ResourceExhausted);
  s.seek(0);
  s.next(std::span<double>(x));
  EXPECT_EQ(x[0], 0.0);
  s.seek(trnrand::kSobolMaxPoints - 1);
  std::vector<double> out(4);
  EXPECT_THROW(s.fill(2, out.data(), 2), trncore::ResourceExhausted);
  EXPECT_EQ(s.index(), trnrand::kSobolMaxPoints - 1);  // nothing was produced
}

TEST(SobolTest, PrefixOfDimensionsDoesNotDependOnDims) {
  // Dimension d's scramble is keyed by d alone, so a wider sequence extends a narrower one.
  for (auto scramble : {SobolScramble::none, SobolScramble::linear_matrix_digital_shift, SobolScramble::owen}) {
    Sobol narrow(3, trnrand_test::sequence_options(scramble, 77, 10)),
        wide(12, trnrand_test::sequence_options(scramble, 77, 10));
    for (int n = 0; n < 50; ++n) {
      const auto a = digits(narrow);
      const auto b = digits(wide);
      ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
    }
  }
}

TEST(SobolTest, ScrambleNamesRoundTrip) {
  for (auto s : {SobolScramble::none, SobolScramble::linear_matrix_digital_shift, SobolScramble::owen})
    EXPECT_EQ(trnrand::parse_sobol_scramble(to_string(s)), s);
  EXPECT_EQ(trnrand::parse_sobol_scramble("lms"), SobolScramble::linear_matrix_digital_shift);
  EXPECT_EQ(to_string(static_cast<SobolScramble>(9)), "invalid");
  EXPECT_THROW((void)trnrand::parse_sobol_scramble("Owen "), trncore::ParseError);
}

TEST(SobolTest, NoticeCarriesTheJoeKuoLicence) {
  const std::string_view notice = trnrand::sobol_direction_numbers_notice();
  EXPECT_NE(notice.find("Copyright (c) 2008, Frances Y. Kuo and Stephen Joe"), std::string_view::npos);
  EXPECT_NE(notice.find("Redistributions in binary form"), std::string_view::npos);
}

TEST(SobolTest, BadInputThrows) {
  using trncore::DimensionMismatch;
  using trncore::InvalidArgument;
  trnsci_testing::expect_error<InvalidArgument>([] { Sobol s(0); }, "trnrand::Sobol", {"dims = 0"});
  trnsci_testing::expect_error<InvalidArgument>([] { Sobol s(-3); }, "trnrand::Sobol", {"dims = -3"});
  trnsci_testing::expect_error<InvalidArgument>([] { Sobol s(21202); }, "trnrand::Sobol", {"dims = 21202"});
  trnsci_testing::expect_error<InvalidArgument>(
      [] { Sobol s(2, trnrand_test::sequence_options(SobolScramble::none, 0, -1)); }, "trnrand::Sobol", {"skip = -1"});
  trnsci_testing::expect_error<InvalidArgument>(
      [] { Sobol s(2, trnrand_test::sequence_options(SobolScramble::none, 0, trnrand::kSobolMaxPoints + 1)); },
      "trnrand::Sobol", {"skip = 4294967297"});
  trnsci_testing::expect_error<InvalidArgument>(
      [] { Sobol s(2, trnrand_test::sequence_options(static_cast<SobolScramble>(3), 0, 0)); }, "trnrand::Sobol",
      {"scramble value 3"});
  Sobol s(4);
  std::vector<double> wrong(3);
  trnsci_testing::expect_error<DimensionMismatch>([&] { s.next(std::span<double>(wrong)); }, "trnrand::Sobol::next",
                                                  {"point.size() = 3 but dims() = 4"});
  trnsci_testing::expect_error<DimensionMismatch>([&] { s.fill(std::span<double>(wrong)); }, "trnrand::Sobol::fill",
                                                  {"3 elements"});
  trnsci_testing::expect_error<InvalidArgument>([&] { s.fill(-1, wrong.data(), 4); }, "trnrand::Sobol::fill",
                                                {"n = -1"});
  trnsci_testing::expect_error<DimensionMismatch>([&] { s.fill(1, wrong.data(), 3); }, "trnrand::Sobol::fill",
                                                  {"ld = 3"});
  trnsci_testing::expect_error<InvalidArgument>([&] { s.fill(1, static_cast<double*>(nullptr), 4); },
                                                "trnrand::Sobol::fill", {"null"});
  trnsci_testing::expect_error<InvalidArgument>([&] { s.fill(3, wrong.data(), std::int64_t{1} << 62); },
                                                "trnrand::Sobol::fill", {"overflow"});
  trnsci_testing::expect_error<InvalidArgument>([&] { s.skip(-2); }, "trnrand::Sobol::skip", {"n = -2"});
  trnsci_testing::expect_error<InvalidArgument>([&] { s.seek(trnrand::kSobolMaxPoints + 5); }, "trnrand::Sobol::seek",
                                                {"index = 4294967301"});
  s.fill(0, static_cast<double*>(nullptr), 4);  // nothing to write: a null pointer is fine
  EXPECT_EQ(s.index(), 0);
}

}  // namespace
