// Matrix Market reader and writer. Oracle for the valid corpus (tests/data/*.mtx): the matrix each file
// denotes under the NIST format definition, written out by hand next to the file name below (small
// files, so the expansion of symmetric/skew storage can be checked entry by entry). Values are parsed
// as double with correct rounding, so comparisons are exact. Malformed files must give ParseError at
// the stated (line, column). Round trips write with max_digits10 digits and must read back bit-exactly.
#include <trnsparse/matrix_market.hpp>
#include <trnsparse/ops.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace {

using trnsparse_test::random_coo;

std::string data(const std::string& name) { return std::string(TRNSPARSE_TEST_DATA_DIR) + "/" + name; }

std::vector<double> dense_of(const std::string& file, trnsparse::MmHeader* h = nullptr) {
  return trnsparse::to_dense(
      trnsparse::to_csr(trnsparse::read_matrix_market_file<double, std::int32_t>(data(file), h)));
}

struct Valid {
  const char* file;
  std::int64_t rows, cols;
  std::vector<double> dense;  // row-major
};

TEST(MatrixMarketRead, EveryValidVariantGivesTheMatrixItDenotes) {
  const std::vector<Valid> corpus{
      // duplicates (1,1) sum to 2.0; a leading '+' and exponents parse; comments and blank lines skipped
      {"coord_real_general.mtx", 3, 4, {2.0, 0, 0, 0, 0, 0.25, 0, 0, 1e300, 0, 0, -2e-3}},
      {"coord_integer_general_crlf.mtx", 2, 3, {0, 0, -7, 12, 0, 0}},
      {"coord_pattern_general.mtx", 3, 3, {0, 1, 0, 0, 0, 1, 1, 0, 1}},
      {"coord_real_symmetric.mtx", 3, 3, {2, -1, 0, -1, 0, -1, 0, -1, 2}},
      {"coord_real_skew.mtx", 3, 3, {0, -1.5, 4, 1.5, 0, 0, -4, 0, 0}},
      {"coord_pattern_symmetric.mtx", 2, 2, {1, 1, 1, 0}},
      {"coord_integer_skew.mtx", 2, 2, {0, -3, 3, 0}},
      {"array_real_general.mtx", 2, 3, {1, 2, 3, 4, 5, 6}},
      // lower triangle column by column: (1,1)=1 (2,1)=2 (3,1)=3 (2,2)=4 (3,2)=5 (3,3)=6
      {"array_real_symmetric.mtx", 3, 3, {1, 2, 3, 2, 4, 5, 3, 5, 6}},
      // strict lower triangle column by column: (2,1)=1 (3,1)=2 (3,2)=3, mirrored with negation
      {"array_integer_skew.mtx", 3, 3, {0, -1, -2, 1, 0, -3, 2, 3, 0}},
      {"coord_empty.mtx", 0, 0, {}},
      {"array_empty.mtx", 0, 4, {}},
  };
  for (const auto& v : corpus) {
    trnsparse::MmHeader h;
    const auto d = dense_of(v.file, &h);
    EXPECT_EQ(h.rows, v.rows) << v.file;
    EXPECT_EQ(h.cols, v.cols) << v.file;
    EXPECT_EQ(d, v.dense) << v.file;
  }
  trnsparse::MmHeader h;
  (void)dense_of("coord_real_skew.mtx", &h);
  EXPECT_EQ(h.symmetry, trnsparse::MmSymmetry::skew_symmetric);
  EXPECT_EQ(h.format, trnsparse::MmFormat::coordinate);
  EXPECT_EQ(h.entries, 2);
  (void)dense_of("array_real_symmetric.mtx", &h);
  EXPECT_EQ(h.format, trnsparse::MmFormat::array);
  EXPECT_EQ(h.entries, 6);
}

struct Malformed {
  const char* file;
  std::int64_t line, column;
};

TEST(MatrixMarketRead, EveryMalformedFileGivesParseErrorWithItsPosition) {
  const std::vector<Malformed> corpus{
      {"bad_banner.mtx", 1, 1},        {"bad_format.mtx", 1, 23},      {"bad_field.mtx", 1, 34},
      {"bad_symmetry.mtx", 1, 39},     {"pattern_array.mtx", 1, 29},   {"size_not_numeric.mtx", 3, 3},
      {"size_negative.mtx", 2, 5},     {"size_missing.mtx", 3, 1},     {"truncated.mtx", 5, 1},
      {"too_many_entries.mtx", 4, 1},  {"row_out_of_range.mtx", 4, 1}, {"col_zero.mtx", 4, 3},
      {"value_not_numeric.mtx", 4, 5}, {"value_missing.mtx", 4, 4},    {"integer_with_fraction.mtx", 3, 5},
      {"extra_token.mtx", 3, 7},       {"skew_diagonal.mtx", 3, 3},    {"symmetric_not_square.mtx", 2, 3},
      {"array_truncated.mtx", 6, 1},   {"empty_file.mtx", 0, 0},
  };
  for (const auto& m : corpus) {
    try {
      (void)trnsparse::read_matrix_market_file<double, std::int32_t>(data(m.file));
      ADD_FAILURE() << m.file << ": no ParseError";
    } catch (const trncore::ParseError& e) {
      EXPECT_EQ(e.line(), m.line) << m.file << ": " << e.what();
      EXPECT_EQ(e.column(), m.column) << m.file << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("trnsparse::read_matrix_market"), std::string::npos) << e.what();
    }
  }
}

TEST(MatrixMarketRead, ComplexIsRefusedAndMissingFilesAreIoErrors) {
  trnsci_testing::expect_error<trncore::NotSupported>([] { (void)dense_of("complex.mtx"); },
                                                      "trnsparse::read_matrix_market", {"complex"});
  trnsci_testing::expect_error<trncore::IoError>([] { (void)dense_of("no_such_file.mtx"); },
                                                 "trnsparse::read_matrix_market_file", {"no_such_file.mtx"});
}

TEST(MatrixMarketWrite, RoundTripsAreBitExactInEveryVariant) {
  for (auto [m, n] : trnsparse_test::awkward_shapes()) {
    const auto a = trnsparse::to_csr(random_coo<double, std::int64_t>(m, n, 0.3, 11));
    std::stringstream s;
    trnsparse::write_matrix_market(s, a);
    const auto b = trnsparse::to_csr(trnsparse::read_matrix_market<double, std::int64_t>(s));
    EXPECT_EQ(b.indptr, a.indptr);
    EXPECT_EQ(b.indices, a.indices);
    EXPECT_EQ(b.values, a.values);
    const auto fa = trnsparse::to_csr(random_coo<float, std::int32_t>(m, n, 0.3, 12));
    std::stringstream fs;
    trnsparse::write_matrix_market(fs, fa);
    EXPECT_EQ(trnsparse::to_csr(trnsparse::read_matrix_market<float, std::int32_t>(fs)).values, fa.values);
    // Dense array form.
    const auto d = trnsparse::to_dense(a);
    std::stringstream as;
    trnsparse::write_matrix_market_array(as, m, n, d.data(), std::max<std::int64_t>(1, n));
    EXPECT_EQ(trnsparse::to_dense(trnsparse::to_csr(trnsparse::read_matrix_market<double, std::int64_t>(as))), d);
  }
  // Symmetric and skew-symmetric storage: A + Aᵀ and A − Aᵀ of a random square A.
  const auto a = trnsparse::to_csr(random_coo<double, std::int32_t>(37, 37, 0.2, 13));
  const auto at = trnsparse::transpose(a);
  for (auto sym : {trnsparse::MmSymmetry::symmetric, trnsparse::MmSymmetry::skew_symmetric}) {
    const auto s = trnsparse::add(1.0, a, sym == trnsparse::MmSymmetry::symmetric ? 1.0 : -1.0, at);
    std::stringstream ss;
    trnsparse::write_matrix_market(ss, s, sym);
    trnsparse::MmHeader h;
    const auto back = trnsparse::to_csr(trnsparse::read_matrix_market<double, std::int32_t>(ss, &h));
    EXPECT_EQ(h.symmetry, sym);
    EXPECT_EQ(trnsparse::to_dense(back), trnsparse::to_dense(s));
  }
  std::stringstream ss;
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::write_matrix_market(ss, a, trnsparse::MmSymmetry::symmetric); },
      "trnsparse::write_matrix_market", {"not exactly symmetric"});
  trnsci_testing::expect_error<trncore::IoError>(
      [&] { trnsparse::write_matrix_market_file("/nonexistent/dir/x.mtx", a); }, "trnsparse::write_matrix_market_file",
      {"cannot open"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::write_matrix_market_array<double>(ss, 2, 2, nullptr, 2); },
      "trnsparse::write_matrix_market_array", {"null"});
}

TEST(MatrixMarketRead, ShippedPoissonMatrixIsTheFivePointLaplacian) {
  trnsparse::MmHeader h;
  const auto a = trnsparse::to_csr(trnsparse::read_matrix_market_file<double, std::int32_t>(
      std::string(TRNSPARSE_DATA_DIR) + "/poisson2d_32.mtx", &h));
  ASSERT_EQ(a.rows, 1024);
  EXPECT_EQ(h.symmetry, trnsparse::MmSymmetry::symmetric);
  // 5-point stencil: 4 on the diagonal, -1 to each grid neighbour: nnz = 1024 + 2·2·32·31.
  EXPECT_EQ(a.nnz(), 1024 + 4 * 32 * 31);
  const auto d = trnsparse::to_dense(a);
  for (std::int64_t r = 0; r < 1024; ++r) {
    const std::int64_t i = r % 32, j = r / 32;
    double row_sum = 0;
    for (std::int64_t c = 0; c < 1024; ++c) row_sum += d[static_cast<std::size_t>(r * 1024 + c)];
    EXPECT_EQ(d[static_cast<std::size_t>(r * 1024 + r)], 4.0);
    // Row sums: 4 minus the number of in-grid neighbours.
    const int neighbours = (i > 0) + (i < 31) + (j > 0) + (j < 31);
    EXPECT_EQ(row_sum, 4.0 - neighbours);
  }
}

}  // namespace
