// einsum entry points: plan, allocate, execute.
#include <trntensor/einsum.hpp>

#include "options_check.hpp"

namespace trntensor {
namespace {

template <class T>
std::vector<Shape> shapes_of(std::span<const TensorView<const T>> operands) {
  std::vector<Shape> s;
  for (const auto& o : operands) s.push_back(o.shape());
  return s;
}

constexpr std::string_view kFunction = "trntensor::einsum";

// The checks every einsum overload makes first: its options (under einsum's name), then the operand count.
void require_operands(std::size_t count, const PlanOptions& options) {
  trncore::validate(options, kFunction);
  detail::validate_plan_options(options, kFunction);
  if (count == 0) throw trncore::InvalidArgument(kFunction, "no operands were given", "pass at least one operand");
}

}  // namespace

template <class T>
void einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands, T alpha, T beta,
            TensorView<T> out, const PlanOptions& options) {
  require_operands(operands.size(), options);
  const auto shapes = shapes_of(operands);
  const ContractionPlan p(subscripts, shapes, options);
  p.execute<T>(operands, alpha, beta, out, options);
}

template <class T>
void einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands, T alpha, T beta,
            TensorView<T> out, const PlanOptions& options, trncore::AccuracyReport& report) {
  require_operands(operands.size(), options);
  const auto shapes = shapes_of(operands);
  const ContractionPlan p(subscripts, shapes, options);
  p.execute<T>(operands, alpha, beta, out, options, report);
}

template <class T>
Tensor<T> einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands,
                 const PlanOptions& options) {
  require_operands(operands.size(), options);
  const auto shapes = shapes_of(operands);
  const ContractionPlan p(subscripts, shapes, options);
  Tensor<T> out(p.output_shape());
  p.execute<T>(operands, T(1), T(0), out.view(), options);
  return out;
}

template <class T>
Tensor<T> einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands, const PlanOptions& options,
                 trncore::AccuracyReport& report) {
  require_operands(operands.size(), options);
  const auto shapes = shapes_of(operands);
  const ContractionPlan p(subscripts, shapes, options);
  Tensor<T> out(p.output_shape());
  p.execute<T>(operands, T(1), T(0), out.view(), options, report);
  return out;
}

#define TRNTENSOR_INSTANTIATE(T)                                                                            \
  template void einsum<T>(std::string_view, std::span<const TensorView<const T>>, T, T, TensorView<T>,      \
                          const PlanOptions&);                                                              \
  template void einsum<T>(std::string_view, std::span<const TensorView<const T>>, T, T, TensorView<T>,      \
                          const PlanOptions&, trncore::AccuracyReport&);                                    \
  template Tensor<T> einsum<T>(std::string_view, std::span<const TensorView<const T>>, const PlanOptions&); \
  template Tensor<T> einsum<T>(std::string_view, std::span<const TensorView<const T>>, const PlanOptions&,  \
                               trncore::AccuracyReport&);
TRNTENSOR_INSTANTIATE(float)
TRNTENSOR_INSTANTIATE(double)
#undef TRNTENSOR_INSTANTIATE

}  // namespace trntensor
