// Bad input: every malformed subscript or mismatched shape gets a trncore::Error subclass naming the function
// and the offending values; nothing crashes or returns a wrong answer.
#include <trntensor/einsum.hpp>
#include <trntensor/subscripts.hpp>

#include <gtest/gtest.h>

#include <functional>

namespace trntensor {
namespace {

template <class E>
void expect_error(const std::function<void()>& f, const std::string& needle, std::int64_t column = -1) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning " << needle;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_FALSE(e.function().empty());
    if constexpr (std::is_same_v<E, trncore::ParseError>) {
      if (column >= 0) {
        EXPECT_EQ(e.column(), column) << e.what();
      }
    }
  }
}

std::vector<Shape> shapes(std::initializer_list<Shape> s) { return s; }

TEST(EinsumErrors, MalformedSubscriptsAreParseErrors) {
  const auto parse = [](const char* text, std::vector<Shape> s) { return [=] { parse_subscripts(text, s); }; };
  expect_error<trncore::ParseError>(parse("ij,jk->i1", shapes({{2, 2}, {2, 2}})), "'1'", 9);
  expect_error<trncore::ParseError>(parse("i.j", shapes({{2, 2}})), "'.'", 2);
  expect_error<trncore::ParseError>(parse("......", shapes({{2}})), "second", 4);
  expect_error<trncore::ParseError>(parse("ij->ji->ij", shapes({{2, 2}})), "second \"->\"", 7);
  expect_error<trncore::ParseError>(parse("ij-ji", shapes({{2, 2}})), "stray '-'", 3);
  expect_error<trncore::ParseError>(parse("ij>ji", shapes({{2, 2}})), "stray '>'", 3);
  expect_error<trncore::ParseError>(parse("ij->k", shapes({{2, 2}})), "'k' appears in no input", 5);
  expect_error<trncore::ParseError>(parse("ij->ii", shapes({{2, 2}})), "'i' is repeated", 6);
  expect_error<trncore::ParseError>(parse("ij,jk->ik", shapes({{2, 2}})), "2 input terms for 1 operands");
  expect_error<trncore::ParseError>(parse("ij", shapes({{2, 2}, {2, 2}})), "1 input terms for 2 operands");
  expect_error<trncore::ParseError>(parse("ij->i,j", shapes({{2, 2}})), "',' in the output");
}

TEST(EinsumErrors, ShapeProblemsAreDimensionMismatches) {
  const auto parse = [](const char* text, std::vector<Shape> s) { return [=] { parse_subscripts(text, s); }; };
  expect_error<trncore::DimensionMismatch>(parse("ijk", shapes({{2, 2}})),
                                           "names 3 axes but operand 0 has shape [2, 2]");
  expect_error<trncore::DimensionMismatch>(parse("i", shapes({{2, 2}})), "names 1 axes");
  expect_error<trncore::DimensionMismatch>(parse("ii", shapes({{2, 3}})), "extents 2 and 3");
  expect_error<trncore::DimensionMismatch>(parse("ij,jk", shapes({{2, 3}, {4, 2}})), "label 'j' has extent 3");
  expect_error<trncore::DimensionMismatch>(parse("...i,...i", shapes({{2, 3}, {4, 3}})), "label '...0'");
  // Extent 1 broadcasts instead (numpy).
  EXPECT_NO_THROW(parse_subscripts("ij,jk", shapes({{2, 1}, {4, 2}})));
}

TEST(EinsumErrors, ExecuteChecksItsArguments) {
  Tensor<double> a({2, 3}), b({3, 4}), y({2, 4}), wrong({4, 2});
  const TensorView<const double> ops[] = {a.view(), b.view()};
  const std::vector<Shape> s{{2, 3}, {3, 4}};
  const ContractionPlan plan("ij,jk->ik", s);
  expect_error<trncore::DimensionMismatch>([&] { plan.execute<double>(ops, 1.0, 0.0, wrong.view()); },
                                           "the output has shape [4, 2]");
  const TensorView<const double> swapped[] = {b.view(), a.view()};
  expect_error<trncore::DimensionMismatch>([&] { plan.execute<double>(swapped, 1.0, 0.0, y.view()); },
                                           "operand 0 has shape [3, 4] but the plan expects [2, 3]");
  const TensorView<const double> one[] = {a.view()};
  expect_error<trncore::DimensionMismatch>([&] { plan.execute<double>(one, 1.0, 0.0, y.view()); }, "1 operands");
  expect_error<trncore::InvalidArgument>(
      [&] { plan.execute<double>(ops, 1.0, 0.0, y.view(), trncore::Options{}.with_backend(trncore::Backend::sim)); },
      "backend host");
  // The output may not alias an operand, nor address one element twice.
  Tensor<double> sq({3, 3});
  const TensorView<const double> sqops[] = {sq.view(), sq.view()};
  expect_error<trncore::InvalidArgument>([&] { einsum<double>("ij,jk->ik", sqops, 1.0, 0.0, sq.view()); },
                                         "shares storage with operand 0");
  std::vector<double> one_elem(1);
  const TensorView<double> bcast(one_elem.data(), {2, 4}, {0, 0});
  expect_error<trncore::InvalidArgument>([&] { plan.execute<double>(ops, 1.0, 0.0, bcast); }, "several indices");
  expect_error<trncore::InvalidArgument>([&] { einsum<double>("", std::span<const TensorView<const double>>{}); },
                                         "no operands");
  expect_error<trncore::InvalidArgument>([&] { einsum<double>("ij,jk", ops, trncore::Options{}.with_target(2.0)); },
                                         "target");
  // A reduced-precision mode on the host is trnblas's NotSupported, passed through.
  EXPECT_THROW(einsum<double>("ij,jk", ops, trncore::Options{}.with_math_mode(trncore::MathMode::bf16)),
               trncore::NotSupported);
}

TEST(EinsumErrors, TensorAndViewChecks) {
  expect_error<trncore::InvalidArgument>([] { Tensor<double>({2, -1}); }, "negative extent");
  expect_error<trncore::InvalidArgument>([] { Tensor<double>({1ll << 40, 1ll << 40}); }, "more than 2^63");
  expect_error<trncore::DimensionMismatch>([] { Tensor<double>({2, 2}, {1.0, 2.0}); }, "4 elements but 2 values");
  double x = 0;
  expect_error<trncore::InvalidArgument>([&] { TensorView<double>(&x, {2}, {-1}); }, "negative");
  expect_error<trncore::DimensionMismatch>([&] { TensorView<double>(&x, {2}, {1, 1}); }, "2 strides");
  expect_error<trncore::InvalidArgument>([&] { TensorView<double>(nullptr, {2}); }, "null pointer");
  Tensor<double> t({2, 3});
  expect_error<trncore::InvalidArgument>([&] { t.at({2, 0}); }, "index [2, 0]");
  expect_error<trncore::InvalidArgument>([&] { t.view().slice(1, 2, 4); }, "range [2, 4)");
  const int bad[] = {0, 0};
  expect_error<trncore::InvalidArgument>([&] { t.view().permuted(bad); }, "not a permutation");
}

}  // namespace
}  // namespace trntensor
