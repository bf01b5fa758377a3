// ContractionPlan::execute: checks, per-step precision targets, the steps in order, and the composed bound.
#include <trntensor/plan.hpp>

#include "step_kernels.hpp"

#include <trncore/error.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace trntensor {
namespace {

constexpr std::string_view kFunction = "trntensor::ContractionPlan::execute";

// [first, last] byte addresses a view can touch (empty views touch nothing).
template <class T>
std::pair<const char*, const char*> byte_range(const TensorView<T>& v) {
  if (v.size() == 0) return {nullptr, nullptr};
  std::int64_t last = 0;
  for (int d = 0; d < v.rank(); ++d) last += (v.extent(d) - 1) * v.stride(d);
  const auto* first = reinterpret_cast<const char*>(v.data());
  return {first, reinterpret_cast<const char*>(v.data() + last) + sizeof(T) - 1};
}

// A sufficient test that distinct indices of `out` address distinct elements: sorted by stride, each
// non-trivial axis steps past the whole extent of the smaller ones.
template <class T>
bool distinct_elements(const TensorView<T>& out) {
  std::vector<std::pair<std::int64_t, std::int64_t>> axes;  // (stride, extent)
  for (int d = 0; d < out.rank(); ++d)
    if (out.extent(d) > 1) axes.emplace_back(out.stride(d), out.extent(d));
  std::sort(axes.begin(), axes.end());
  std::int64_t reach = 1;
  for (const auto& [stride, extent] : axes) {
    if (stride < reach) return false;
    reach = stride * extent;
  }
  return true;
}

std::string format_bound(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", b);
  return buf;
}

}  // namespace

template <class T>
void ContractionPlan::execute(std::span<const TensorView<const T>> operands, T alpha, T beta, TensorView<T> out,
                              const trncore::Options& options, trncore::AccuracyReport* report) const {
  trncore::validate(options, kFunction);
  if (options.backend != backend_)
    throw trncore::InvalidArgument(kFunction,
                                   "the plan was made for backend " + std::string(trncore::to_string(backend_)) +
                                       " but options.backend is " + std::string(trncore::to_string(options.backend)),
                                   "execute with the planned backend, or make a plan for this one");
  if (operands.size() != shapes_.size())
    throw trncore::DimensionMismatch(kFunction,
                                     std::to_string(operands.size()) + " operands for a plan of " +
                                         std::to_string(shapes_.size()),
                                     "pass the operands the plan was made for");
  for (std::size_t o = 0; o < operands.size(); ++o)
    if (operands[o].shape() != shapes_[o])
      throw trncore::DimensionMismatch(kFunction,
                                       "operand " + std::to_string(o) + " has shape " +
                                           detail::shape_string(operands[o].shape()) + " but the plan expects " +
                                           detail::shape_string(shapes_[o]),
                                       "make a plan for these shapes");
  if (out.shape() != output_shape())
    throw trncore::DimensionMismatch(kFunction,
                                     "the output has shape " + detail::shape_string(out.shape()) + " but " +
                                         subs_.to_string() + " gives " + detail::shape_string(output_shape()),
                                     "pass an output of the einsum's shape");
  if (!distinct_elements(out))
    throw trncore::InvalidArgument(kFunction, "the output view's strides " + detail::shape_string(out.strides()) +
                                                  " address one element from several indices",
                                   "write into a dense tensor or a view of distinct elements");
  const auto [o_first, o_last] = byte_range(out);
  for (std::size_t o = 0; o < operands.size() && o_first != nullptr; ++o) {
    const auto [first, last] = byte_range(operands[o]);
    if (first != nullptr && first <= o_last && o_first <= last)
      throw trncore::InvalidArgument(kFunction, "the output shares storage with operand " + std::to_string(o),
                                     "write into separate storage (einsum reads operands while writing the output)");
  }

  const double u = std::numeric_limits<T>::epsilon() / 2;
  const bool trivial_out = alpha == T(1) && beta == T(0);
  // The a-priori parts of the bound (summations, direct products, the output stage) come first, so the
  // GEMM steps can share what remains of the target: each gets t with (1 + t)^G·Π(1 + fixed) = 1 + target.
  int gemm_steps = 0;
  double fixed = 1;
  for (const PlanStep& s : steps_) {
    if (s.kind == StepKind::contract && s.method == StepMethod::gemm) ++gemm_steps;
    if (s.kind == StepKind::contract && s.method == StepMethod::direct) fixed *= 1 + u;
    if (s.kind != StepKind::contract) {
      double terms = 1;
      for (int l : s.summed) terms *= static_cast<double>(subs_.extents[static_cast<std::size_t>(l)]);
      fixed *= 1 + (terms > 1 ? detail::gamma(terms - 1, u) : 0.0);
    }
  }
  fixed *= 1 + detail::output_stage_bound(trivial_out, u);
  std::optional<double> step_target;
  bool target_reachable = true;
  if (options.target_forward_error && gemm_steps > 0) {
    const double rest = (1 + *options.target_forward_error) / fixed - 1;
    const double t = rest > 0 ? std::pow(1 + rest, 1.0 / gemm_steps) - 1 : 0.0;
    if (t > 0 && t < 1) step_target = t;
    else target_reachable = false;
  }

  std::vector<std::optional<detail::Operand<T>>> live(shapes_.size() + steps_.size() + 1);
  for (std::size_t o = 0; o < operands.size(); ++o)
    live[o] = detail::label_view(operands[o], subs_.inputs[o], subs_.extents);
  trncore::AccuracyReport rep;
  rep.target = options.target_forward_error;
  double total = 0;
  bool certified = target_reachable;
  bool wrote_output = false;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const PlanStep& s = steps_[i];
    std::string line = "step " + std::to_string(i + 1) + ": ";
    double bound = 0;
    if (s.kind == StepKind::contract) {
      trncore::Options so = options;
      so.math_mode = s.mode;
      so.target_forward_error = step_target;
      detail::StepOutcome outcome;
      TensorView<T> out_view = out;
      auto r = detail::run_contract(s, *live[static_cast<std::size_t>(s.operands[0])],
                                    *live[static_cast<std::size_t>(s.operands[1])], subs_.output,
                                    s.writes_output ? &out_view : nullptr, alpha, beta, so, outcome);
      wrote_output = s.writes_output && !r.owner;
      if (!wrote_output) live[static_cast<std::size_t>(s.result)] = std::move(r);
      bound = outcome.bound;
      certified = certified && outcome.certified;
      line += "contract (" + std::to_string(s.batch_size) + " x " + std::to_string(s.m_size) + "x" +
              std::to_string(s.k_size) + "·" + std::to_string(s.k_size) + "x" + std::to_string(s.n_size) + ") " +
              outcome.method;
    } else if (s.kind == StepKind::reduce) {
      const auto& x = *live[static_cast<std::size_t>(s.operands[0])];
      Shape shape;
      for (int l : s.result_labels) shape.push_back(subs_.extents[static_cast<std::size_t>(l)]);
      detail::Operand<T> r;
      r.owner = std::make_shared<Tensor<T>>(std::move(shape));
      r.labels = s.result_labels;
      r.view = r.owner->view();
      bound = detail::sum_into(x, s.result_labels, s.summed, r.owner->view(), T(1), T(0));
      live[static_cast<std::size_t>(s.result)] = std::move(r);
      line += "reduce (strided sum loop)";
    } else {
      if (wrote_output) {
        line += "finish: done by the last step (its bound includes alpha/beta)";
      } else {
        bound = detail::sum_into(*live[static_cast<std::size_t>(s.operands[0])], subs_.output, s.summed, out, alpha, beta);
        line += "finish (strided sum/permute loop)";
      }
    }
    total = total + bound + total * bound;  // (1 + total)(1 + bound) − 1 without losing bounds below u
    rep.trajectory.push_back({line + ", bound " + format_bound(bound)});
  }
  rep.a_priori_bound = total;
  rep.met = certified && (!options.target_forward_error || rep.a_priori_bound <= *options.target_forward_error);
  rep.references.push_back(
      "componentwise, relative to the einsum of |operands| (times |alpha|, plus |beta||out|); steps compose as "
      "prod(1 + eps_step) - 1; GEMM steps: trnblas gemm bounds (Higham, ASNA 2nd ed., sec. 3.5; docs/trnblas-sim.md); "
      "summations: gamma_{r-1}");
  if (report != nullptr) *report = std::move(rep);
  else if (options.target_forward_error) trncore::require_target_met(rep, kFunction);
}

template void ContractionPlan::execute<float>(std::span<const TensorView<const float>>, float, float, TensorView<float>,
                                              const trncore::Options&, trncore::AccuracyReport*) const;
template void ContractionPlan::execute<double>(std::span<const TensorView<const double>>, double, double,
                                               TensorView<double>, const trncore::Options&,
                                               trncore::AccuracyReport*) const;

}  // namespace trntensor
