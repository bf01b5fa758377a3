// Sketching operators (sketch.hpp): the documented entry formulas, the isotropy E[ΩΩᵀ] = l·I over seeds,
// the fast applications (sparse sign, SRHT) against the formed Ω multiplied in long double, thread-count
// independence, seeds, and bad input.
#include "randomized_test_support.hpp"

#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <set>
#include <span>
#include <vector>

namespace {

using namespace rnla_test;
using trnsolver::Sketch;
using trnsolver::SketchKind;

constexpr SketchKind kKinds[] = {SketchKind::gaussian, SketchKind::rademacher, SketchKind::sparse_sign,
                                 SketchKind::srht};

TEST(RandomizedSketch, NamesRoundTrip) {
  for (SketchKind k : kKinds) EXPECT_EQ(trnsolver::parse_sketch_kind(trnsolver::to_string(k)), k);
  EXPECT_THROW(trnsolver::parse_sketch_kind("countsketch"), trncore::ParseError);
}

// Rademacher entry (i, j) is bit 31 of stream word i + j·n (the documented position); trnrand::word is
// validated against Random123 in trnrand's own tests.
TEST(RandomizedSketch, RademacherEntriesAreTheDocumentedWords) {
  const Sketch s{SketchKind::rademacher, 77, 3};
  const std::int64_t n = 13, l = 5;
  const auto omega = trnsolver::sketch_matrix<double>(s, n, l);
  const auto stream = trnrand::make_stream(77, 3);
  for (std::int64_t j = 0; j < l; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      EXPECT_EQ(omega(i, j), (trnrand::word(stream, static_cast<std::uint64_t>(i + j * n)) >> 31) ? -1.0 : 1.0);
}

// Gaussian entry (i, j) is value i of trnrand::normal on the stream skipped to j·b·n words (b = 2 float,
// 4 double: normal()'s per-value budget, validated in trnrand's tests), so no two entries share words.
// Before the layout followed the budget, columns overlapped: for double, n = 16, 36 of the 48 entries of
// columns 1…3 repeated an entry of the previous column. Distinct words give distinct values except with
// probability ~ (nl)²·2^-24 for float (~1e-4 here), so all-distinct is a sharp check of disjointness.
template <class T>
void expect_gaussian_columns_are_disjoint(std::int64_t n, std::int64_t l) {
  const Sketch s{SketchKind::gaussian, 91, 2};
  const auto omega = trnsolver::sketch_matrix<T>(s, n, l);
  const std::uint64_t budget = sizeof(T) == 4 ? 2 : 4;
  std::set<T> seen;
  for (std::int64_t j = 0; j < l; ++j) {
    std::vector<T> col(static_cast<std::size_t>(n));
    trnrand::normal(trnrand::skip_ahead(trnrand::make_stream(91, 2), static_cast<std::uint64_t>(j * n) * budget),
                    std::span<T>(col));
    for (std::int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(omega(i, j), col[static_cast<std::size_t>(i)]) << "n " << n << " entry (" << i << ", " << j << ")";
      seen.insert(omega(i, j));
    }
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(n * l)) << "n " << n << ": entries repeat across columns";
}

TEST(RandomizedSketch, GaussianEntriesAreTheDocumentedWordsAndColumnsAreDisjoint) {
  for (std::int64_t n : {1, 13, 16}) {
    expect_gaussian_columns_are_disjoint<double>(n, 4);
    expect_gaussian_columns_are_disjoint<float>(n, 4);
  }
}

// Structure: sparse sign rows have exactly ζ nonzeros ±√(l/ζ) in distinct columns; an SRHT of a power-of-two
// n has ΩᵀΩ = n·I exactly (distinct Walsh columns are orthogonal, D is ±1) with ±1 entries.
TEST(RandomizedSketch, SparseSignAndSrhtStructure) {
  for (std::int64_t l : {1, 3, 8, 17}) {
    const Sketch s{SketchKind::sparse_sign, 5, 0, 8};
    const std::int64_t n = 29, zeta = std::min<std::int64_t>(8, l);
    const auto omega = trnsolver::sketch_matrix<double>(s, n, l);
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t nnz = 0;
      for (std::int64_t j = 0; j < l; ++j)
        if (omega(i, j) != 0.0) {
          ++nnz;
          EXPECT_DOUBLE_EQ(std::fabs(omega(i, j)), std::sqrt(static_cast<double>(l) / static_cast<double>(zeta)));
        }
      EXPECT_EQ(nnz, zeta) << "row " << i << " l " << l;
    }
  }
  const std::int64_t n = 128, l = 20;
  const auto omega = trnsolver::sketch_matrix<double>(Sketch{SketchKind::srht, 9}, n, l);
  for (std::int64_t a = 0; a < l; ++a)
    for (std::int64_t b = 0; b < l; ++b) {
      double d = 0.0;
      for (std::int64_t i = 0; i < n; ++i) d += omega(i, a) * omega(i, b);  // integers: exact
      EXPECT_EQ(d, a == b ? static_cast<double>(n) : 0.0);
    }
}

// E[Ω·Ωᵀ] = l·I for every kind (sketch.hpp's normalisation, which makes Hutchinson unbiased). Over S seeds
// the mean of (ΩΩᵀ)_{ii'}/l has standard deviation ≤ √(2/(S·l)) (Gaussian diagonal: Var χ²_l = 2l; every
// other entry and kind has variance ≤ l per seed, sparse-sign and ±1 diagonals are constant); 6 standard
// deviations bounds a false failure by ≈ 2e-9 per entry.
TEST(RandomizedSketch, ColumnsAreIsotropicOverSeeds) {
  const std::int64_t n = 7, l = 6, seeds = 600;
  for (SketchKind kind : kKinds) {
    std::vector<double> mean(static_cast<std::size_t>(n * n), 0.0);
    for (std::int64_t seed = 0; seed < seeds; ++seed) {
      const auto omega = trnsolver::sketch_matrix<double>(Sketch{kind, static_cast<std::uint64_t>(seed), 0, 2}, n, l);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t k = 0; k < n; ++k)
          for (std::int64_t j = 0; j < l; ++j)
            mean[static_cast<std::size_t>(i * n + k)] += omega(i, j) * omega(k, j) / static_cast<double>(l * seeds);
    }
    const double tol = 6.0 * std::sqrt(2.0 / static_cast<double>(seeds * l));
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t k = 0; k < n; ++k)
        EXPECT_NEAR(mean[static_cast<std::size_t>(i * n + k)], i == k ? 1.0 : 0.0, tol)
            << trnsolver::to_string(kind) << " (" << i << ", " << k << ")";
  }
}

// sketch_right(A) = A·Ω with Ω = sketch_matrix, Ω multiplied in long double. Every kind's computed entry is
// a sum of at most max(n, log₂N)… terms of A(r, i)·Ω(i, j) (gemm, the sparse row sums, the FWHT's butterfly
// tree of depth log₂N ≤ n + 1), so |Ŷ − AΩ| ≤ γ_{n+2}·(|A||Ω|) componentwise (Higham ASNA §3.5) —
// the test allows (n + 2)·u·(|A||Ω|)·1.01.
template <class T>
void check_sketch_right(std::int64_t m, std::int64_t n, std::int64_t l, Layout layout, SketchKind kind, int threads) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(m * 1000 + n * 10 + l));
  const auto a = dense_test::random_mat<T>(m, n, layout, rng);
  const Sketch s{kind, 11, 2, 3};
  trncore::Options o;
  o.threads = threads;
  const auto y = trnsolver::sketch_right<T>(a.view(), l, s, o);
  const auto omega = trnsolver::sketch_matrix<T>(s, n, l);
  ASSERT_EQ(y.rows, m);
  ASSERT_EQ(y.cols, l);
  const LD u = dense_test::unit<T>();
  for (std::int64_t r = 0; r < m; ++r)
    for (std::int64_t j = 0; j < l; ++j) {
      LD exact = 0, magnitude = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        exact += static_cast<LD>(a(r, i)) * omega(i, j);
        magnitude += std::fabs(static_cast<LD>(a(r, i)) * omega(i, j));
      }
      EXPECT_LE(std::fabs(y(r, j) - exact), (n + 2) * u * magnitude * 1.01L)
          << trnsolver::to_string(kind) << " " << m << "x" << n << " l " << l << " at " << r << "," << j;
    }
}

TEST(RandomizedSketch, SketchRightMatchesTheFormedMatrix) {
  for (SketchKind kind : kKinds)
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (auto [m, n, l] : {std::array<std::int64_t, 3>{0, 5, 3},
                             {4, 0, 0},
                             {1, 1, 1},
                             {7, 13, 5},
                             {127, 129, 11},
                             {129, 128, 40},
                             {3, 31, 2}}) {
        check_sketch_right<double>(m, n, l, layout, kind, 1);
        check_sketch_right<float>(m, n, l, layout, kind, 2);
      }
}

// sketch_left(A) = Ωᵀ·A, checked as the transpose of sketch_right of Aᵀ stored explicitly.
TEST(RandomizedSketch, SketchLeftIsTheTransposedRightSketch) {
  std::mt19937_64 rng(4);
  for (SketchKind kind : kKinds) {
    const auto a = dense_test::random_mat<double>(37, 9, Layout::row_major, rng);
    dense_test::Mat<double> at(9, 37, Layout::col_major);
    for (std::int64_t i = 0; i < 37; ++i)
      for (std::int64_t j = 0; j < 9; ++j) at(j, i) = a(i, j);
    const Sketch s{kind, 21};
    const auto left = trnsolver::sketch_left<double>(a.view(), 6, s);
    const auto right = trnsolver::sketch_right<double>(at.view(), 6, s);
    ASSERT_EQ(left.rows, 6);
    ASSERT_EQ(left.cols, 9);
    for (std::int64_t i = 0; i < 6; ++i)
      for (std::int64_t j = 0; j < 9; ++j) EXPECT_EQ(left(i, j), right(j, i));
  }
}

// Reproducibility contract: the same spec gives the same bits for 1 and 2 threads; another seed differs.
TEST(RandomizedSketch, BitwiseIdenticalForOneAndTwoThreadsAndSeedsDiffer) {
  std::mt19937_64 rng(8);
  const auto a = dense_test::random_mat<double>(300, 257, Layout::col_major, rng);
  for (SketchKind kind : kKinds) {
    const Sketch s{kind, 123};
    const auto m1 = trnsolver::sketch_matrix<double>(s, 257, 30, trncore::Options{}.with_threads(1)),
               m2 = trnsolver::sketch_matrix<double>(s, 257, 30, trncore::Options{}.with_threads(2));
    EXPECT_TRUE(bitwise_equal(m1.data, m2.data)) << trnsolver::to_string(kind);
    const auto other = trnsolver::sketch_matrix<double>(Sketch{kind, 124}, 257, 30, trncore::Options{}.with_threads(2));
    EXPECT_FALSE(bitwise_equal(m1.data, other.data)) << trnsolver::to_string(kind);
    trncore::Options one, two;
    one.threads = 1;
    two.threads = 2;
    const auto y1 = trnsolver::sketch_right<double>(a.view(), 30, s, one);
    const auto y2 = trnsolver::sketch_right<double>(a.view(), 30, s, two);
    EXPECT_TRUE(bitwise_equal(y1.data, y2.data)) << trnsolver::to_string(kind);
  }
}

TEST(RandomizedSketch, BadInputThrows) {
  double buf[16];
  EXPECT_THROW(trnsolver::sketch_matrix<double>(Sketch{}, -1, 2), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::sketch_matrix<double>(Sketch{}, 2, -1), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::sketch_matrix<double>(Sketch{}, 4, 2, buf, 3), trncore::DimensionMismatch);
  EXPECT_THROW(trnsolver::sketch_matrix<double>(Sketch{}, 4, 2, nullptr, 4), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::sketch_matrix<double>(Sketch{}, 4, 2, trncore::Options{}.with_threads(-1)),
               trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::sketch_matrix<double>(Sketch{SketchKind::sparse_sign, 0, 0, 0}, 4, 2),
               trncore::InvalidArgument);
  try {
    trnsolver::sketch_matrix<double>(Sketch{SketchKind::srht}, 5, 9);  // N = 8 columns only
    ADD_FAILURE() << "no throw";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("l = 9"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("trnsolver::sketch_matrix"), std::string::npos) << e.what();
  }
  dense_test::Mat<double> a(3, 3, Layout::row_major);
  EXPECT_THROW(trnsolver::sketch_right<double>(a.view(), -2, Sketch{}), trncore::InvalidArgument);
  trncore::Options target;
  target.target_forward_error = 1e-3;
  EXPECT_THROW(trnsolver::sketch_right<double>(a.view(), 2, Sketch{}, target), trncore::NotSupported);
}

}  // namespace
