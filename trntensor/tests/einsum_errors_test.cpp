// Bad input: every malformed subscript or mismatched shape gets a trncore::Error subclass naming the function
// and the offending values; nothing crashes or returns a wrong answer.
#include <trntensor/einsum.hpp>
#include <trntensor/subscripts.hpp>

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <type_traits>

namespace trntensor {
namespace {

using trnsci_testing::expect_error;
constexpr std::string_view kParse = "trntensor::parse_subscripts", kExecute = "trntensor::ContractionPlan::execute";

// A ParseError from parse_subscripts with `needle` in its message and, when column ≥ 0, at that column.
void expect_parse_error(const std::function<void()>& f, std::string_view needle, std::int64_t column = -1) {
  expect_error<trncore::ParseError>(f, kParse, {needle});
  if (column < 0) return;
  try {
    f();
  } catch (const trncore::ParseError& e) {
    EXPECT_EQ(e.column(), column) << e.what();
  }
}

std::vector<Shape> shapes(std::initializer_list<Shape> s) { return s; }

TEST(EinsumErrors, MalformedSubscriptsAreParseErrors) {
  const auto parse = [](const char* text, std::vector<Shape> s) { return [=] { parse_subscripts(text, s); }; };
  expect_parse_error(parse("ij,jk->i1", shapes({{2, 2}, {2, 2}})), "'1'", 9);
  expect_parse_error(parse("i.j", shapes({{2, 2}})), "'.'", 2);
  expect_parse_error(parse("......", shapes({{2}})), "second", 4);
  expect_parse_error(parse("ij->ji->ij", shapes({{2, 2}})), "second \"->\"", 7);
  expect_parse_error(parse("ij-ji", shapes({{2, 2}})), "stray '-'", 3);
  expect_parse_error(parse("ij>ji", shapes({{2, 2}})), "stray '>'", 3);
  expect_parse_error(parse("ij->k", shapes({{2, 2}})), "'k' appears in no input", 5);
  expect_parse_error(parse("ij->ii", shapes({{2, 2}})), "'i' is repeated", 6);
  expect_parse_error(parse("ij,jk->ik", shapes({{2, 2}})), "2 input terms for 1 operands");
  expect_parse_error(parse("ij", shapes({{2, 2}, {2, 2}})), "1 input terms for 2 operands");
  expect_parse_error(parse("ij->i,j", shapes({{2, 2}})), "',' in the output");
}

TEST(EinsumErrors, ShapeProblemsAreDimensionMismatches) {
  const auto parse = [](const char* text, std::vector<Shape> s) { return [=] { parse_subscripts(text, s); }; };
  expect_error<trncore::DimensionMismatch>(parse("ijk", shapes({{2, 2}})), kParse,
                                           {"names 3 axes but operand 0 has shape [2, 2]"});
  expect_error<trncore::DimensionMismatch>(parse("i", shapes({{2, 2}})), kParse, {"names 1 axes"});
  expect_error<trncore::DimensionMismatch>(parse("ii", shapes({{2, 3}})), kParse, {"extents 2 and 3"});
  expect_error<trncore::DimensionMismatch>(parse("ij,jk", shapes({{2, 3}, {4, 2}})), kParse,
                                           {"label 'j' has extent 3"});
  expect_error<trncore::DimensionMismatch>(parse("...i,...i", shapes({{2, 3}, {4, 3}})), kParse, {"label '...0'"});
  // Extent 1 broadcasts instead (numpy).
  EXPECT_NO_THROW(parse_subscripts("ij,jk", shapes({{2, 1}, {4, 2}})));
}

TEST(EinsumErrors, ExecuteChecksItsArguments) {
  Tensor<double> a({2, 3}), b({3, 4}), y({2, 4}), wrong({4, 2});
  const TensorView<const double> ops[] = {a.view(), b.view()};
  const std::vector<Shape> s{{2, 3}, {3, 4}};
  const ContractionPlan plan("ij,jk->ik", s);
  expect_error<trncore::DimensionMismatch>([&] { plan.execute<double>(ops, 1.0, 0.0, wrong.view()); }, kExecute,
                                           {"the output has shape [4, 2]"});
  const TensorView<const double> swapped[] = {b.view(), a.view()};
  expect_error<trncore::DimensionMismatch>([&] { plan.execute<double>(swapped, 1.0, 0.0, y.view()); }, kExecute,
                                           {"operand 0 has shape [3, 4] but the plan expects [2, 3]"});
  const TensorView<const double> one[] = {a.view()};
  expect_error<trncore::DimensionMismatch>([&] { plan.execute<double>(one, 1.0, 0.0, y.view()); }, kExecute,
                                           {"1 operands"});
  expect_error<trncore::InvalidArgument>(
      [&] { plan.execute<double>(ops, 1.0, 0.0, y.view(), trncore::Options{}.with_backend(trncore::Backend::sim)); },
      kExecute, {"backend host"});
  // The output may not alias an operand, nor address one element twice.
  Tensor<double> sq({3, 3});
  const TensorView<const double> sqops[] = {sq.view(), sq.view()};
  expect_error<trncore::InvalidArgument>([&] { einsum<double>("ij,jk->ik", sqops, 1.0, 0.0, sq.view()); }, kExecute,
                                         {"shares storage with operand 0"});
  std::vector<double> one_elem(1);
  const TensorView<double> bcast(one_elem.data(), {2, 4}, {0, 0});
  expect_error<trncore::InvalidArgument>([&] { plan.execute<double>(ops, 1.0, 0.0, bcast); }, kExecute,
                                         {"several indices"});
  expect_error<trncore::InvalidArgument>([&] { einsum<double>("", std::span<const TensorView<const double>>{}); },
                                         "trntensor::einsum", {"no operands"});
  expect_error<trncore::InvalidArgument>([&] { einsum<double>("ij,jk", ops, trncore::Options{}.with_target(2.0)); },
                                         "trntensor::einsum", {"target"});
  // A reduced-precision mode on the host is trnblas's NotSupported, passed through.
  EXPECT_THROW(einsum<double>("ij,jk", ops, trncore::Options{}.with_math_mode(trncore::MathMode::bf16)),
               trncore::NotSupported);
}

// The tensor types are trncore's (their own checks are tested in trncore's tensor test): the same types, and
// their errors name trncore's classes.
TEST(EinsumErrors, TensorTypesAreTrncores) {
  static_assert(std::is_same_v<Tensor<double>, trncore::Tensor<double>>);
  static_assert(std::is_same_v<TensorView<const float>, trncore::TensorView<const float>>);
  static_assert(std::is_same_v<Shape, trncore::Shape>);
  expect_error<trncore::InvalidArgument>([] { Tensor<double>({2, -1}); }, "trncore::Tensor", {"negative extent"});
  Tensor<double> t({2, 3});
  expect_error<trncore::InvalidArgument>([&] { t.view().slice(1, 2, 4); }, "trncore::TensorView::slice",
                                         {"range [2, 4)"});
}

}  // namespace
}  // namespace trntensor
