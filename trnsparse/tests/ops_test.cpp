// Host SpMV, SpMM, add, scale and SpGEMM against a dense long-double oracle built from the COO triples.
// Tolerance: each output element is a sum of m + 1 rounded terms (m = products in its row, counting
// duplicates), so |ŷ − y| ≤ γ_{m+2}·(|α|·Σ|a||x| + |β||y|) with γ_k = k·u/(1 − k·u) (Higham, ASNA §3.1);
// the test uses the row's own m and the oracle's |·| sums, in long double. Duplicated entries are summed by
// the product as separate terms, which the bound covers since m counts them.
#include <trnsparse/ops.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using trnblas::Op;
using trnsparse_test::random_coo;

template <class T>
long double gamma(std::int64_t k) {
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  return k * u / (1 - k * u);
}

// Oracle y = alpha·op(A)·X + beta·Y for dense row-major X (k×n) and Y (m×n), with the per-element bound.
template <class T, class I>
void oracle_spmm(bool trans, T alpha, const trnsparse::Coo<T, I>& a, std::int64_t n, const std::vector<T>& x, T beta,
                 const std::vector<T>& y, std::vector<long double>& out, std::vector<long double>& bound) {
  const std::int64_t m = trans ? a.cols : a.rows;
  std::vector<long double> abs_sum(static_cast<std::size_t>(m * n), 0.0L);
  std::vector<std::int64_t> terms(static_cast<std::size_t>(m), 0);
  out.assign(static_cast<std::size_t>(m * n), 0.0L);
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    const std::int64_t i = trans ? a.col[k] : a.row[k], j = trans ? a.row[k] : a.col[k];
    ++terms[static_cast<std::size_t>(i)];
    for (std::int64_t c = 0; c < n; ++c) {
      const long double p = static_cast<long double>(a.values[k]) * x[static_cast<std::size_t>(j * n + c)];
      out[static_cast<std::size_t>(i * n + c)] += p;
      abs_sum[static_cast<std::size_t>(i * n + c)] += std::fabs(p);
    }
  }
  bound.resize(out.size());
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t c = 0; c < n; ++c) {
      const auto s = static_cast<std::size_t>(i * n + c);
      const long double yv = beta == T(0) ? 0.0L : static_cast<long double>(y[s]);
      out[s] = alpha * out[s] + beta * yv;
      // +3 covers the alpha and beta products and the final addition on top of the row's m terms.
      bound[s] =
          gamma<T>(terms[static_cast<std::size_t>(i)] + 3) * (std::fabs(alpha) * abs_sum[s] + std::fabs(beta * yv));
    }
}

template <class P>
class Ops : public ::testing::Test {};
TYPED_TEST_SUITE(Ops, trnsparse_test::AllTypes);

using trnsparse_test::random_vector;

TYPED_TEST(Ops, SpmvAndSpmmMeetTheirBoundsForEveryShapeOpAlphaBeta) {
  using T = typename TypeParam::T;
  using I = typename TypeParam::I;
  std::uint64_t seed = 100;
  for (auto [rows, cols] : trnsparse_test::awkward_shapes()) {
    const auto coo = random_coo<T, I>(rows, cols, 0.2, seed++);
    const auto csr = trnsparse::to_csr(coo, trnsparse::SumDuplicates::no);  // duplicates kept on purpose
    const auto bsr = trnsparse::to_bsr(csr, 3, 5);
    for (bool trans : {false, true}) {
      const Op op = trans ? Op::trans : Op::no_trans;
      const std::int64_t m = trans ? cols : rows, k = trans ? rows : cols;
      for (auto [alpha, beta] : {std::pair<T, T>{1, 0}, {T(-0.5), T(2)}, {0, T(0.5)}}) {
        // SpMV on CSR and BSR; y starts as NaN when beta = 0 to prove it is not read.
        const auto x = random_vector<T>(k, seed++);
        auto y0 = random_vector<T>(m, seed++);
        if (beta == T(0)) std::fill(y0.begin(), y0.end(), std::numeric_limits<T>::quiet_NaN());
        std::vector<long double> want, bound;
        oracle_spmm<T, I>(trans, alpha, coo, 1, x, beta, y0, want, bound);
        for (int format = 0; format < 2; ++format) {
          auto y = y0;
          if (format == 0)
            trnsparse::spmv<T, I>(op, alpha, csr, x, beta, y);
          else
            trnsparse::spmv<T, I>(op, alpha, bsr, x, beta, y);
          for (std::int64_t i = 0; i < m; ++i)
            ASSERT_LE(std::fabs(y[static_cast<std::size_t>(i)] - want[static_cast<std::size_t>(i)]),
                      bound[static_cast<std::size_t>(i)])
                << rows << "x" << cols << " trans " << trans << " format " << format << " row " << i;
        }
        // SpMM with n = 3 right-hand sides and a padded leading dimension on C.
        const std::int64_t n = 3, ldc = 5;
        const auto b = random_vector<T>(k * n, seed++);
        auto c0 = random_vector<T>(m * ldc, seed++);
        std::vector<T> c_tight(static_cast<std::size_t>(m * n));
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < n; ++j)
            c_tight[static_cast<std::size_t>(i * n + j)] = c0[static_cast<std::size_t>(i * ldc + j)];
        oracle_spmm<T, I>(trans, alpha, coo, n, b, beta, c_tight, want, bound);
        auto c = c0;
        trnsparse::spmm<T, I>(op, alpha, csr, n, b, n, beta, c, ldc);
        for (std::int64_t i = 0; i < m; ++i) {
          for (std::int64_t j = 0; j < n; ++j)
            ASSERT_LE(std::fabs(c[static_cast<std::size_t>(i * ldc + j)] - want[static_cast<std::size_t>(i * n + j)]),
                      bound[static_cast<std::size_t>(i * n + j)]);
          for (std::int64_t j = n; j < ldc; ++j)  // padding untouched
            ASSERT_EQ(c[static_cast<std::size_t>(i * ldc + j)], c0[static_cast<std::size_t>(i * ldc + j)]);
        }
      }
    }
  }
}

TYPED_TEST(Ops, SpgemmAddScaleMatchTheDenseOracle) {
  using T = typename TypeParam::T;
  using I = typename TypeParam::I;
  std::uint64_t seed = 500;
  for (auto [m, k, n] : {std::tuple<std::int64_t, std::int64_t, std::int64_t>{0, 0, 0},
                         {1, 1, 1},
                         {0, 4, 3},
                         {5, 0, 3},
                         {7, 13, 5},
                         {31, 1, 29},
                         {129, 127, 128}}) {
    const auto ca = random_coo<T, I>(m, k, 0.2, seed++);
    const auto cb = random_coo<T, I>(k, n, 0.2, seed++);
    const auto a = trnsparse::to_csr(ca, trnsparse::SumDuplicates::no);
    const auto b = trnsparse::to_csr(cb, trnsparse::SumDuplicates::no);
    const auto da = trnsparse_test::dense_oracle(ca), db = trnsparse_test::dense_oracle(cb);
    // The bound is over the individual products, |a_k||b_k| of stored entries: dense oracles of |A|, |B|.
    auto abs_of = [](auto coo) {
      for (auto& v : coo.values) v = std::fabs(v);
      return trnsparse_test::dense_oracle(coo);
    };
    const auto aa = abs_of(ca), ab = abs_of(cb);
    const auto c = trnsparse::spgemm(a, b);
    EXPECT_TRUE(trnsparse::is_canonical(c));
    const auto dc = trnsparse::to_dense(c);
    // c_ij sums one product per (stored a_il, stored b_lj) pair; the generator stores a position at most
    // twice, so at most 2·(entries of row i of A) terms.
    for (std::int64_t i = 0; i < m; ++i) {
      const std::int64_t terms =
          2 * (a.indptr[static_cast<std::size_t>(i) + 1] - a.indptr[static_cast<std::size_t>(i)]);
      for (std::int64_t j = 0; j < n; ++j) {
        long double want = 0, abs_sum = 0;
        for (std::int64_t l = 0; l < k; ++l) {
          want += da[static_cast<std::size_t>(i * k + l)] * db[static_cast<std::size_t>(l * n + j)];
          abs_sum += aa[static_cast<std::size_t>(i * k + l)] * ab[static_cast<std::size_t>(l * n + j)];
        }
        ASSERT_LE(std::fabs(dc[static_cast<std::size_t>(i * n + j)] - want), gamma<T>(terms + 1) * abs_sum)
            << m << "x" << k << "x" << n << " at " << i << "," << j;
      }
    }
    // add: one rounding per product and one per sum, so |err| ≤ γ_3·(|α||a| + |β||b|) per entry
    // (plus the duplicates summed first: γ_4 covers the pairs the generator makes).
    const auto ca2 = random_coo<T, I>(m, k, 0.3, seed++);
    const auto a2 = trnsparse::to_csr(ca2, trnsparse::SumDuplicates::no);
    const auto da2 = trnsparse_test::dense_oracle(ca2);
    const T alpha = T(0.75), beta = T(-1.25);
    const auto s = trnsparse::to_dense(trnsparse::add(alpha, a, beta, a2));
    for (std::size_t e = 0; e < s.size(); ++e) {
      const long double want = alpha * da[e] + beta * da2[e];
      ASSERT_LE(std::fabs(s[e] - want), gamma<T>(4) * (std::fabs(alpha * da[e]) + std::fabs(beta * da2[e])));
    }
    auto scaled = a;
    trnsparse::scale(T(-2), scaled);  // multiplication by a power of two is exact
    for (std::size_t e = 0; e < a.values.size(); ++e) ASSERT_EQ(scaled.values[e], T(-2) * a.values[e]);
  }
}

TEST(OpsThreads, ResultsAreBitwiseIdenticalForOneAndTwoThreads) {
  // Large enough (≥ 2^15 entries per thread) that two threads really split the rows.
  const auto coo = random_coo<double, std::int32_t>(3001, 2003, 0.03, 77);
  const auto a = trnsparse::to_csr(coo);
  ASSERT_GT(a.nnz(), 2 * (1 << 15));
  const auto x = random_vector<double>(a.cols, 1);
  std::vector<double> y1(static_cast<std::size_t>(a.rows)), y2(y1.size());
  trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, x, 0.0, y1, trncore::Options{}.with_threads(1));
  trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, x, 0.0, y2, trncore::Options{}.with_threads(2));
  EXPECT_EQ(y1, y2);
  const std::int64_t n = 4;
  const auto b = random_vector<double>(a.cols * n, 2);
  std::vector<double> c1(static_cast<std::size_t>(a.rows * n)), c2(c1.size());
  trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, n, b, n, 0.0, c1, n, trncore::Options{}.with_threads(1));
  trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, n, b, n, 0.0, c2, n, trncore::Options{}.with_threads(2));
  EXPECT_EQ(c1, c2);
  const auto at = trnsparse::transpose(a);
  const auto g1 = trnsparse::spgemm(a, at, trncore::Options{}.with_threads(1));
  const auto g2 = trnsparse::spgemm(a, at, trncore::Options{}.with_threads(2));
  EXPECT_EQ(g1.indices, g2.indices);
  EXPECT_EQ(g1.values, g2.values);
}

TEST(OpsErrors, BadArgumentsAreNamed) {
  const auto a = trnsparse::to_csr(random_coo<double, std::int32_t>(4, 3, 0.5, 3));
  std::vector<double> x(3), y(4), wrong(5);
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, wrong, 0.0, y); }, "trnsparse::spmv");
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnsparse::spmv<double, std::int32_t>(Op::trans, 1.0, a, x, 0.0, y); }, "trnsparse::spmv", {"x has 3"});
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, x, 0.0, y,
                                              trncore::Options{}.with_backend(trncore::Backend::sim));
      },
      "trnsparse::spmv");
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, x, 0.0, y,
                                              trncore::Options{}.with_math_mode(trncore::MathMode::bf16));
      },
      "trnsparse::spmv", {"math_mode"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, x, 0.0, y, trncore::Options{}.with_threads(-1));
      },
      "trnsparse::spmv");
  auto broken = a;
  broken.indices[0] = 99;
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, broken, x, 0.0, y); }, "trnsparse::spmv",
      {"outside"});
  std::vector<double> b(3 * 2), c(4 * 2);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, 2, b, 1, 0.0, c, 2); }, "trnsparse::spmm",
      {"ldb"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, 3, b, 3, 0.0, c, 3); }, "trnsparse::spmm",
      {"b has 6"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, -1, b, 2, 0.0, c, 2); }, "trnsparse::spmm",
      {"negative"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>([&] { (void)trnsparse::spgemm(a, a); }, "trnsparse::spgemm");
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { (void)trnsparse::add(1.0, a, 1.0, trnsparse::transpose(a)); }, "trnsparse::add");
}

// An output sharing memory with an input was computed from half-updated values (found by the Python
// bindings): y overlapping x, and C overlapping B, are refused on every path.
TEST(OpsErrors, OutputsOverlappingInputsAreRefused) {
  const auto a = trnsparse::to_csr(random_coo<double, std::int32_t>(4, 4, 0.6, 5));
  std::vector<double> xy(4, 1.0), buffer(8, 1.0);
  const std::span<const double> x(xy);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, x, 0.0, std::span<double>(xy)); },
      "trnsparse::spmv", {"y overlaps x"});
  const auto bsr = trnsparse::to_bsr(a, 2, 2);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::spmv<double, std::int32_t>(Op::trans, 1.0, bsr, x, 0.0, std::span<double>(xy)); },
      "trnsparse::spmv", {"y overlaps x"});
  // Partial overlap: B = buffer[0..4), C = buffer[2..6) (n = 1).
  const std::span<const double> b(buffer.data(), 4);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, 1, b, 1, 0.0,
                                              std::span<double>(buffer.data() + 2, 4), 1);
      },
      "trnsparse::spmm", {"c overlaps b"});
  // Adjacent, not overlapping: accepted, and equal to the product into a separate array.
  std::vector<double> separate(4);
  trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, 1, b, 1, 0.0, separate, 1);
  trnsparse::spmm<double, std::int32_t>(Op::no_trans, 1.0, a, 1, b, 1, 0.0, std::span<double>(buffer.data() + 4, 4), 1);
  EXPECT_EQ(std::vector<double>(buffer.begin() + 4, buffer.end()), separate);
}

// spmv checks row extents and column indices inside its kernel instead of validating first, so every
// malformed matrix must still be refused, for both ops and for one and two threads, before any entry
// outside the arrays is read (ci/sanitize runs this under ASan).
TEST(OpsErrors, SpmvRefusesMalformedStructureOnEveryPath) {
  const auto big = trnsparse::to_csr(random_coo<double, std::int32_t>(3001, 2003, 0.03, 78));
  ASSERT_GT(big.nnz(), 2 * (1 << 15));  // two threads really split the rows
  const auto mid = static_cast<std::size_t>(big.rows / 2 + 7);
  const auto nnz = static_cast<std::int32_t>(big.nnz());
  struct Case {
    const char* what;
    std::function<void(trnsparse::Csr<double, std::int32_t>&)> breakit;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"index = cols late in the matrix",
       [&](auto& a) { a.indices[a.indices.size() - 3] = static_cast<std::int32_t>(a.cols); }, "outside [0, 2003)"},
      {"negative index", [&](auto& a) { a.indices[a.indices.size() / 2] = -1; }, "index -1"},
      {"indptr decreases mid-matrix", [&](auto& a) { a.indptr[mid] = a.indptr[mid - 1] - 1; }, "indptr decreases"},
      {"indptr overshoots nnz", [&](auto& a) { a.indptr[mid] = nnz + 1000; }, "indptr"},
      {"indptr negative", [&](auto& a) { a.indptr[mid] = -5; }, "indptr"},
      {"indptr ends short of nnz", [&](auto& a) { a.indptr.back() = nnz - 1; }, "nnz"},
      {"indptr too short", [&](auto& a) { a.indptr.pop_back(); }, "indptr has"},
  };
  const auto x = random_vector<double>(big.cols, 3);
  const auto xt = random_vector<double>(big.rows, 4);
  for (const auto& c : cases) {
    auto a = big;
    c.breakit(a);
    for (int threads : {1, 2}) {
      SCOPED_TRACE(std::string(c.what) + ", threads " + std::to_string(threads));
      const auto opts = trncore::Options{}.with_threads(threads);
      std::vector<double> y(static_cast<std::size_t>(a.rows)), yt(static_cast<std::size_t>(a.cols));
      trnsci_testing::expect_error<trncore::InvalidArgument>(
          [&] { trnsparse::spmv<double, std::int32_t>(Op::no_trans, 1.0, a, x, 0.5, y, opts); }, "trnsparse::spmv",
          {c.message});
      trnsci_testing::expect_error<trncore::InvalidArgument>(
          [&] { trnsparse::spmv<double, std::int32_t>(Op::trans, 1.0, a, xt, 0.0, yt, opts); }, "trnsparse::spmv",
          {c.message});
    }
  }
}

}  // namespace
