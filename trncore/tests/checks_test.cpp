// The shared argument checks (trncore/detail/checks.hpp): each accepts the boundary it documents and
// rejects one step beyond it with the right exception, naming the function, the operand and the values.
#include <trncore/detail/checks.hpp>

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

using namespace trncore::detail;
using trnsci_testing::expect_error;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

TEST(Checks, Nonnegative) {
  check_nonnegative("f", {{"m", 0}, {"n", 5}});
  expect_error<trncore::InvalidArgument>(
      [] {
        check_nonnegative("pkg::f", {{"m", 2}, {"n", -1}});
      },
      "pkg::f", {"negative size m = 2, n = -1"});
}

TEST(Checks, PointerAndSpan) {
  const double x = 0;
  check_pointer("f", "x", nullptr, 0);
  check_pointer("f", "x", &x, 3);
  expect_error<trncore::InvalidArgument>([] { check_pointer("pkg::f", "x", nullptr, 1); }, "pkg::f",
                                         {"x is null", "1"});
  check_span("f", "y", 4, 4);
  check_span("f", "y", 0, 0);
  expect_error<trncore::DimensionMismatch>([] { check_span("pkg::f", "y", 3, 4); }, "pkg::f",
                                           {"y has 3", "4 are needed"});
}

TEST(Checks, EqualAndSquare) {
  check_equal("f", {"x.size", 3}, {"y.size", 3});
  expect_error<trncore::DimensionMismatch>(
      [] {
        check_equal("pkg::f", {"x.size", 3}, {"y.size", 4});
      },
      "pkg::f", {"x.size = 3", "y.size = 4"});
  check_square("f", "a", 0, 0);
  expect_error<trncore::DimensionMismatch>([] { check_square("pkg::f", "a", 3, 4); }, "pkg::f", {"a is 3x4"});
}

TEST(Checks, Matrix) {
  const double a[12] = {};
  check_matrix("f", "a", trncore::Layout::row_major, 3, 4, a, 4, sizeof(double));
  check_matrix("f", "a", trncore::Layout::col_major, 3, 4, a, 3, sizeof(double));
  check_matrix("f", "a", trncore::Layout::col_major, 0, 0, nullptr, 1);
  expect_error<trncore::DimensionMismatch>(
      [&] { check_matrix("pkg::f", "a", trncore::Layout::row_major, 3, 4, a, 3, 8); }, "pkg::f",
      {"lda = 3 is less than 4", "row_major"});
  expect_error<trncore::DimensionMismatch>(
      [&] { check_matrix("pkg::f", "b", trncore::Layout::col_major, 3, 0, a, 0, 8); }, "pkg::f", {"ldb = 0"});
  expect_error<trncore::InvalidArgument>(
      [&] { check_matrix("pkg::f", "a", trncore::Layout::row_major, -1, 4, a, 4, 8); }, "pkg::f", {"negative size"});
  expect_error<trncore::InvalidArgument>(
      [&] { check_matrix("pkg::f", "a", trncore::Layout::row_major, 3, 4, nullptr, 4, 8); }, "pkg::f", {"a is null"});
  // 2^60 rows of 16 elements of 8 bytes overflow int64 bytes; the element count alone would not.
  expect_error<trncore::InvalidArgument>(
      [&] { check_matrix("pkg::f", "a", trncore::Layout::row_major, std::int64_t{1} << 60, 16, a, 16, 8); }, "pkg::f",
      {"overflows int64"});
}

TEST(Checks, Vector) {
  const float x[4] = {};
  check_vector("f", "x", 4, x, 1, 4);
  check_vector("f", "x", 2, x, -3, 4);
  check_vector("f", "x", 0, nullptr, 1);
  expect_error<trncore::InvalidArgument>([&] { check_vector("pkg::f", "x", 4, x, 0); }, "pkg::f", {"incx = 0"});
  expect_error<trncore::InvalidArgument>([&] { check_vector("pkg::f", "x", -1, x, 1); }, "pkg::f", {"n = -1"});
  expect_error<trncore::InvalidArgument>(
      [&] { check_vector("pkg::f", "x", 3, x, std::numeric_limits<std::int64_t>::min()); }, "pkg::f",
      {"overflows int64"});
  expect_error<trncore::InvalidArgument>([&] { check_vector("pkg::f", "x", 1, nullptr, 1); }, "pkg::f", {"x is null"});
}

TEST(Checks, ProductThreadsAndIndex) {
  EXPECT_EQ(checked_product("f", {{"m", 3}, {"n", 0}, {"k", kMax}}), 0);
  EXPECT_EQ(checked_product("f", {{"m", std::int64_t{1} << 31}, {"n", std::int64_t{1} << 31}}), std::int64_t{1} << 62);
  expect_error<trncore::InvalidArgument>(
      [] {
        checked_product("pkg::f", {{"m", std::int64_t{1} << 32}, {"n", std::int64_t{1} << 31}});
      },
      "pkg::f", {"m = 4294967296 x n = 2147483648", "overflows int64"});
  check_threads("f", 0);
  expect_error<trncore::InvalidArgument>([] { check_threads("pkg::f", -2); }, "pkg::f", {"threads = -2"});
  check_fits_index<std::int32_t>("f", "nnz", std::numeric_limits<std::int32_t>::max());
  expect_error<trncore::InvalidArgument>([] { check_fits_index<std::int32_t>("pkg::f", "nnz", std::int64_t{1} << 31); },
                                         "pkg::f", {"nnz = 2147483648", "32-bit"});
}

}  // namespace
