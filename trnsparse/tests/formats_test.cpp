// Conversions between COO, CSR, CSC and BSR, dense round trips, transpose, duplicate summation and Eigen
// interop. Oracle: a dense long-double matrix built directly from the COO triples (sparse_test_support).
// Tolerance: conversions move values without arithmetic except summing duplicates, and a random matrix
// here has at most 2 entries per position, so every dense value is one rounding of an exact sum of two
// T values: |d̂ − d| ≤ u·|d| (u = unit roundoff of T). Pure moves must be exact.
#include <trnsparse/eigen.hpp>
#include <trnsparse/formats.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using trnsparse_test::awkward_shapes;
using trnsparse_test::dense_oracle;
using trnsparse_test::random_coo;

template <class P>
class Formats : public ::testing::Test {};
TYPED_TEST_SUITE(Formats, trnsparse_test::AllTypes);

template <class T>
void expect_dense_near(const std::vector<T>& got, const std::vector<long double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_LE(std::fabs(static_cast<long double>(got[i]) - want[i]), u * std::fabs(want[i])) << what << " at " << i;
}

TYPED_TEST(Formats, EveryConversionMatchesTheDenseOracle) {
  using T = typename TypeParam::T;
  using I = typename TypeParam::I;
  std::uint64_t seed = 1;
  for (auto [m, n] : awkward_shapes()) {
    for (double density : {0.0, 0.05, 0.5}) {
      const auto coo = random_coo<T, I>(m, n, density, seed++);
      const auto want = dense_oracle(coo);
      const std::string what = std::to_string(m) + "x" + std::to_string(n) + " density " + std::to_string(density);
      const auto csr = trnsparse::to_csr(coo);
      EXPECT_TRUE(trnsparse::is_canonical(csr)) << what;
      EXPECT_NO_THROW(trnsparse::validate(csr, "test", true)) << what;
      expect_dense_near(trnsparse::to_dense(csr), want, "csr " + what);
      const auto csc = trnsparse::to_csc(coo);
      EXPECT_NO_THROW(trnsparse::validate(csc, "test", true)) << what;
      expect_dense_near(trnsparse::to_dense(trnsparse::to_csr(csc)), want, "csc " + what);
      // Keeping duplicates then summing them in storage order gives the same canonical CSR bit for bit.
      const auto kept = trnsparse::to_csr(coo, trnsparse::SumDuplicates::no);
      EXPECT_EQ(kept.nnz(), coo.nnz()) << what;
      const auto summed = trnsparse::sum_duplicates(kept);
      EXPECT_EQ(summed.indices, csr.indices) << what;
      EXPECT_EQ(summed.values, csr.values) << what;
      // COO → CSR → COO → CSR is exact.
      const auto back = trnsparse::to_csr(trnsparse::to_coo(csr));
      EXPECT_EQ(back.indptr, csr.indptr) << what;
      EXPECT_EQ(back.values, csr.values) << what;
      const auto via_csc = trnsparse::to_csr(trnsparse::to_coo(csc));
      EXPECT_EQ(via_csc.indices, csr.indices) << what;
      EXPECT_EQ(via_csc.values, csr.values) << what;
      // BSR with block sizes that do and do not divide the shape, and the 128 tile.
      for (auto [br, bc] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {3, 5}, {4, 4}, {128, 128}}) {
        const auto bsr = trnsparse::to_bsr(csr, br, bc);
        EXPECT_NO_THROW(trnsparse::validate(bsr, "test", true)) << what;
        expect_dense_near(trnsparse::to_dense(bsr), want, "bsr " + what);
        // Back to CSR adds the padding zeros only: dropping exact zeros on both sides gives the same matrix.
        const auto round = trnsparse::drop_zeros(trnsparse::to_csr(bsr));
        const auto ref = trnsparse::drop_zeros(csr);
        EXPECT_EQ(round.indptr, ref.indptr) << what << " block " << br << "x" << bc;
        EXPECT_EQ(round.indices, ref.indices) << what;
        EXPECT_EQ(round.values, ref.values) << what;
      }
      // Dense → CSR → dense is exact.
      const auto dense = trnsparse::to_dense(csr);
      const auto again = trnsparse::csr_from_dense<T, I>(m, n, dense.data(), std::max<std::int64_t>(1, n));
      EXPECT_EQ(trnsparse::to_dense(again), dense) << what;
    }
  }
}

TYPED_TEST(Formats, TransposeSwapsEveryEntry) {
  using T = typename TypeParam::T;
  using I = typename TypeParam::I;
  for (auto [m, n] : awkward_shapes()) {
    const auto coo = random_coo<T, I>(m, n, 0.2, 99);
    const auto want = dense_oracle(coo);
    const auto t = trnsparse::transpose(trnsparse::to_csr(coo));
    ASSERT_EQ(t.rows, n);
    ASSERT_EQ(t.cols, m);
    const auto got = trnsparse::to_dense(t);
    std::vector<long double> want_t(want.size());
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        want_t[static_cast<std::size_t>(j * m + i)] = want[static_cast<std::size_t>(i * n + j)];
    expect_dense_near(got, want_t, "transpose " + std::to_string(m) + "x" + std::to_string(n));
  }
}

TYPED_TEST(Formats, EigenRoundTripAgreesWithEigensOwnDenseForm) {
  using T = typename TypeParam::T;
  using I = typename TypeParam::I;
  for (auto [m, n] : awkward_shapes()) {
    const auto csr = trnsparse::to_csr(random_coo<T, I>(m, n, 0.3, 7));
    const auto e = trnsparse::to_eigen(csr);
    // Eigen's toDense is the oracle: computed by Eigen from its own structure.
    const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> dense = e.toDense();
    const auto mine = trnsparse::to_dense(csr);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) ASSERT_EQ(dense(i, j), mine[static_cast<std::size_t>(i * n + j)]);
    const Eigen::SparseMatrix<T, Eigen::ColMajor> col_major = e;
    const auto back = trnsparse::from_eigen<T, I>(col_major);
    EXPECT_EQ(back.indptr, csr.indptr);
    EXPECT_EQ(back.indices, csr.indices);
    EXPECT_EQ(back.values, csr.values);
  }
}

TEST(FormatsConvert, NarrowsIndicesAndValues) {
  const auto wide = trnsparse::to_csr(random_coo<double, std::int64_t>(31, 29, 0.3, 5));
  const auto narrow = trnsparse::convert<float, std::int32_t>(wide);
  ASSERT_EQ(narrow.nnz(), wide.nnz());
  for (std::size_t k = 0; k < wide.values.size(); ++k) {
    EXPECT_EQ(narrow.values[k], static_cast<float>(wide.values[k]));
    EXPECT_EQ(narrow.indices[k], wide.indices[k]);
  }
  trnsparse::Csr<double, std::int64_t> huge;
  huge.rows = std::int64_t{1} << 40;
  huge.indptr.assign(static_cast<std::size_t>(1), 0);  // invalid anyway: indptr too short for 2^40 rows
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::convert<double, std::int32_t>(huge); },
                                                         "trnsparse::convert", {"trnsparse::"});
}

TEST(FormatsValidate, EveryStructuralErrorIsNamed) {
  trnsparse::Csr<double> a;
  a.rows = 2;
  a.cols = 3;
  a.indptr = {0, 1, 2};
  a.indices = {0, 2};
  a.values = {1.0, 2.0};
  EXPECT_NO_THROW(trnsparse::validate(a, "t", true));
  auto bad = a;
  bad.indices[1] = 3;  // out of range
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(bad, "trnsparse::spmv"); },
                                                         "trnsparse::spmv");
  bad = a;
  bad.indices[0] = -1;
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(bad); }, "trnsparse::validate",
                                                         {"outside"});
  bad = a;
  bad.indptr = {0, 2, 1};  // decreasing, wrong end
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(bad); }, "trnsparse::validate",
                                                         {"indptr"});
  bad = a;
  bad.indptr = {1, 1, 2};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(bad); }, "trnsparse::validate",
                                                         {"indptr[0]"});
  bad = a;
  bad.indptr = {0, 2};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(bad); }, "trnsparse::validate",
                                                         {"indptr has 2 entries"});
  bad = a;
  bad.values.push_back(3.0);
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(bad); }, "trnsparse::validate",
                                                         {"indices has 2 entries"});
  bad = a;
  bad.rows = -1;
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(bad); }, "trnsparse::validate",
                                                         {"negative"});
  // Unsorted / duplicate: fine structurally, refused when canonical form is required.
  trnsparse::Csr<double> dup;
  dup.rows = 1;
  dup.cols = 3;
  dup.indptr = {0, 2};
  dup.indices = {2, 2};
  dup.values = {1.0, 1.0};
  EXPECT_NO_THROW(trnsparse::validate(dup));
  EXPECT_FALSE(trnsparse::is_canonical(dup));
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(dup, "f", true); }, "f",
                                                         {"sum_duplicates"});
  const auto fixed = trnsparse::sum_duplicates(dup);
  EXPECT_EQ(fixed.indices, std::vector<std::int32_t>{2});
  EXPECT_EQ(fixed.values, std::vector<double>{2.0});
  // Row count beyond int32.
  trnsparse::Csr<float, std::int32_t> wide;
  wide.rows = std::int64_t{1} << 33;
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(wide); }, "trnsparse::validate",
                                                         {"does not fit"});
  // COO out of range and mismatched lengths.
  trnsparse::Coo<double> coo;
  coo.rows = coo.cols = 2;
  coo.row = {0, 2};
  coo.col = {0, 0};
  coo.values = {1, 1};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::to_csr(coo); }, "trnsparse::to_csr");
  coo.row = {0};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::to_csr(coo); }, "trnsparse::to_csr",
                                                         {"entries"});
  // BSR: bad block sizes and value counts.
  trnsparse::Bsr<double> b;
  b.rows = b.cols = 4;
  b.block_rows = 0;
  b.indptr = {0};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(b); }, "trnsparse::validate",
                                                         {"block sizes"});
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::to_bsr(a, 0, 3); },
                                                         "trnsparse::to_bsr");
  b.block_rows = b.block_cols = 2;
  b.indptr = {0, 1, 1};
  b.indices = {1};
  b.values = {1, 2, 3};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::validate(b); }, "trnsparse::validate",
                                                         {"values has 3 entries"});
  // Dense input checks.
  const double d[4] = {1, 0, 0, 1};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::csr_from_dense<double>(2, 2, d, 1); },
                                                         "trnsparse::csr_from_dense", {"ld"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { (void)trnsparse::csr_from_dense<double>(2, 2, nullptr, 2); }, "trnsparse::csr_from_dense", {"null"});
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { (void)trnsparse::csr_from_dense<double>(-1, 2, d, 2); },
                                                         "trnsparse::csr_from_dense", {"negative"});
}

TEST(FormatsDense, DropToleranceKeepsLargeEntriesAndNaN) {
  const double d[6] = {1e-3, 0.5, 0.0, std::nan(""), -2e-3, -1.0};
  const auto a = trnsparse::csr_from_dense<double>(2, 3, d, 3, 1e-2);
  EXPECT_EQ(a.nnz(), 3);  // 0.5, NaN, -1.0
  EXPECT_EQ(a.indices, (std::vector<std::int32_t>{1, 0, 2}));
}

}  // namespace
