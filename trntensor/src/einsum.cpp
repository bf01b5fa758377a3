// einsum entry points: plan, allocate, execute.
#include <trntensor/einsum.hpp>

namespace trntensor {
namespace {

template <class T>
std::vector<Shape> shapes_of(std::span<const TensorView<const T>> operands) {
  std::vector<Shape> s;
  for (const auto& o : operands) s.push_back(o.shape());
  return s;
}

void require_operands(std::size_t count) {
  if (count == 0)
    throw trncore::InvalidArgument("trntensor::einsum", "no operands were given", "pass at least one operand");
}

}  // namespace

template <class T>
void einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands, T alpha, T beta,
            TensorView<T> out, const trncore::Options& options, const PlanOptions& plan) {
  require_operands(operands.size());
  const auto shapes = shapes_of(operands);
  const ContractionPlan p(subscripts, shapes, options, plan);
  p.execute<T>(operands, alpha, beta, out, options);
}

template <class T>
Tensor<T> einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands,
                 const trncore::Options& options, const PlanOptions& plan) {
  require_operands(operands.size());
  const auto shapes = shapes_of(operands);
  const ContractionPlan p(subscripts, shapes, options, plan);
  Tensor<T> out(p.output_shape());
  p.execute<T>(operands, T(1), T(0), out.view(), options);
  return out;
}

template <class T>
Tensor<T> einsum(std::string_view subscripts, std::span<const TensorView<const T>> operands,
                 const trncore::Options& options, trncore::AccuracyReport& report, const PlanOptions& plan) {
  require_operands(operands.size());
  const auto shapes = shapes_of(operands);
  const ContractionPlan p(subscripts, shapes, options, plan);
  Tensor<T> out(p.output_shape());
  p.execute<T>(operands, T(1), T(0), out.view(), options, &report);
  return out;
}

#define TRNTENSOR_INSTANTIATE(T)                                                                                \
  template void einsum<T>(std::string_view, std::span<const TensorView<const T>>, T, T, TensorView<T>,          \
                          const trncore::Options&, const PlanOptions&);                                         \
  template Tensor<T> einsum<T>(std::string_view, std::span<const TensorView<const T>>, const trncore::Options&, \
                               const PlanOptions&);                                                             \
  template Tensor<T> einsum<T>(std::string_view, std::span<const TensorView<const T>>, const trncore::Options&, \
                               trncore::AccuracyReport&, const PlanOptions&);
TRNTENSOR_INSTANTIATE(float)
TRNTENSOR_INSTANTIATE(double)
#undef TRNTENSOR_INSTANTIATE

}  // namespace trntensor
