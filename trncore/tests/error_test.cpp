#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <type_traits>

namespace {

TEST(Error, MessageNamesFunctionProblemAndHint) {
  const trncore::InvalidArgument e("trnblas::gemm", "m = -3 is negative", "pass m >= 0");
  EXPECT_STREQ(e.what(), "trnblas::gemm: m = -3 is negative: pass m >= 0");
  EXPECT_EQ(e.function(), "trnblas::gemm");
  EXPECT_EQ(e.problem(), "m = -3 is negative");
  EXPECT_EQ(e.hint(), "pass m >= 0");
}

TEST(Error, EmptyHintLeavesNoTrailingSeparator) {
  const trncore::NotSupported e("trnfft::plan", "fp8 input", "");
  EXPECT_STREQ(e.what(), "trnfft::plan: fp8 input");
}

TEST(Error, EveryKindIsCaughtAsErrorAndRuntimeError) {
  static_assert(std::is_base_of_v<std::runtime_error, trncore::Error>);
  static_assert(std::is_base_of_v<trncore::Error, trncore::InvalidArgument>);
  static_assert(std::is_base_of_v<trncore::Error, trncore::DimensionMismatch>);
  static_assert(std::is_base_of_v<trncore::Error, trncore::ResourceExhausted>);
  static_assert(std::is_base_of_v<trncore::Error, trncore::NotSupported>);
  static_assert(std::is_base_of_v<trncore::Error, trncore::TargetNotMet>);
  static_assert(std::is_base_of_v<trncore::Error, trncore::ParseError>);
  static_assert(std::is_base_of_v<trncore::Error, trncore::IoError>);
  EXPECT_THROW(throw trncore::DimensionMismatch("f", "k = 3 but B has 4 rows", "h"), trncore::Error);
}

TEST(Error, ParseErrorCarriesLineAndColumn) {
  const trncore::ParseError e("trnsparse::read_matrix_market", "expected an integer", "fix the header", 12, 7);
  EXPECT_EQ(e.line(), 12);
  EXPECT_EQ(e.column(), 7);
  EXPECT_STREQ(e.what(), "trnsparse::read_matrix_market: expected an integer (line 12, column 7): fix the header");
}

}  // namespace
