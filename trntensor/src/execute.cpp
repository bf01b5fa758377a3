// ContractionPlan::execute: checks, per-step precision targets, the steps in order, and the composed bound.
#include <trntensor/plan.hpp>

#include <trncore/options.hpp>
#include "step_kernels.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <cmath>
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

}  // namespace

template <class T>
void ContractionPlan::execute(std::span<const TensorView<const T>> operands, T alpha, T beta, TensorView<T> out,
                              const trncore::Options& options, trncore::AccuracyReport& report) const {
  trncore::validate(options, kFunction);
  if (options.backend != backend_)
    throw trncore::InvalidArgument(kFunction,
                                   "the plan was made for backend " + std::string(trncore::to_string(backend_)) +
                                       " but options.backend is " + std::string(trncore::to_string(options.backend)),
                                   "execute with the planned backend, or make a plan for this one");
  if (operands.size() != shapes_.size())
    throw trncore::DimensionMismatch(
        kFunction, std::to_string(operands.size()) + " operands for a plan of " + std::to_string(shapes_.size()),
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
    throw trncore::InvalidArgument(kFunction,
                                   "the output view's strides " + detail::shape_string(out.strides()) +
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
  // The hypotheses of the loop steps' bounds (GEMM steps check their own operands through trnblas::gemm's
  // report): finite operands, and no product below T's normal range. Every nonzero term of the einsum of
  // |operands| is a product of one entry per operand (times |alpha|), each ≥ its operand's smallest nonzero
  // magnitude s_o, so with L = min(1, |alpha|)·Π min(1, s_o) ≥ T's normal minimum no product of operand
  // entries underflows; a product of a cancelled (tiny) intermediate sum may still be subnormal, but its
  // absolute error 2^-1075 (fp64) = u·2^-1022 ≤ u·L is within the u the bound already allows for that
  // rounding (Higham's argument for gemm, as in trnblas::gemm's host check). beta·out likewise.
  std::string uncertified;
  {
    const double normal_min = static_cast<double>(std::numeric_limits<T>::min());
    bool has_product_loop = !trivial_out;
    for (const PlanStep& s : steps_) has_product_loop = has_product_loop || s.method == StepMethod::direct;
    double floor = alpha == T(0) ? 1.0 : std::min(1.0, std::fabs(static_cast<double>(alpha)));
    bool zero_operand = false;
    for (std::size_t o = 0; o < operands.size() && uncertified.empty(); ++o) {
      const detail::ValueScan sc = detail::scan_values(operands[o]);
      if (sc.nonfinite)
        uncertified = "operand " + std::to_string(o) + " holds inf or NaN";
      else if (sc.smallest == std::numeric_limits<double>::infinity())
        zero_operand = true;
      else
        floor *= std::min(1.0, sc.smallest);
    }
    if (uncertified.empty() && has_product_loop && !zero_operand && floor < normal_min)
      uncertified =
          "a product of operand entries can fall below the format's normal range (product of the "
          "smallest nonzero magnitudes " +
          trncore::detail::sci(floor) + "), where the componentwise bound does not hold";
    if (uncertified.empty() && beta != T(0)) {
      const detail::ValueScan sc = detail::scan_values(TensorView<const T>(out));
      if (sc.nonfinite)
        uncertified = "the output holds inf or NaN and is read (beta != 0)";
      else if (sc.smallest < std::numeric_limits<double>::infinity() &&
               std::min(1.0, std::fabs(static_cast<double>(beta))) * std::min(1.0, sc.smallest) < normal_min)
        uncertified = "beta*out can fall below the format's normal range, where the componentwise bound does not hold";
    }
  }
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
  if (options.target_forward_error && gemm_steps > 0) {
    // A target at or below the fixed parts cannot be met whatever the GEMMs do: they run at full precision
    // (no step target) and the composed bound, above the target, makes met false.
    const double rest = (1 + *options.target_forward_error) / fixed - 1;
    const double t = rest > 0 ? std::pow(1 + rest, 1.0 / gemm_steps) - 1 : 0.0;
    if (t > 0 && t < 1) step_target = t;
  }

  std::vector<std::optional<detail::Operand<T>>> live(shapes_.size() + steps_.size() + 1);
  for (std::size_t o = 0; o < operands.size(); ++o)
    live[o] = detail::label_view(operands[o], subs_.inputs[o], subs_.extents);
  trncore::AccuracyReport rep;
  rep.target = options.target_forward_error;
  double total = 0;
  bool certified = uncertified.empty();
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
      if (certified && !outcome.certified) {
        certified = false;
        uncertified = "step " + std::to_string(i + 1) + ": " + outcome.reason;
      }
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
        bound =
            detail::sum_into(*live[static_cast<std::size_t>(s.operands[0])], subs_.output, s.summed, out, alpha, beta);
        line += "finish (strided sum/permute loop)";
      }
    }
    total = total + bound + total * bound;  // (1 + total)(1 + bound) − 1 without losing bounds below u
    rep.trajectory.push_back({line + ", bound " + trncore::detail::sci(bound)});
  }
  if (certified && !std::isfinite(total)) {
    certified = false;
    uncertified = "the composed bound is not finite";
  }
  // Finite operands whose result holds inf or NaN overflowed somewhere: the componentwise bound says nothing.
  if (certified && detail::scan_values(TensorView<const T>(out)).nonfinite) {
    certified = false;
    uncertified = "the result overflows the format's range (inf or NaN from finite operands)";
  }
  rep.certify(total);
  if (!certified) rep.uncertify(uncertified);
  rep.references.push_back(
      "componentwise, relative to the einsum of |operands| (times |alpha|, plus |beta||out|); steps compose as "
      "prod(1 + eps_step) - 1; GEMM steps: trnblas gemm bounds (Higham, ASNA 2nd ed., sec. 3.5; docs/trnblas-sim.md); "
      "summations: gamma_{r-1}");
  report = std::move(rep);
}

template <class T>
void ContractionPlan::execute(std::span<const TensorView<const T>> operands, T alpha, T beta, TensorView<T> out,
                              const trncore::Options& options) const {
  trncore::AccuracyReport report;
  execute<T>(operands, alpha, beta, out, options, report);
  trncore::require_target_met(report, kFunction);
}

template void ContractionPlan::execute<float>(std::span<const TensorView<const float>>, float, float, TensorView<float>,
                                              const trncore::Options&, trncore::AccuracyReport&) const;
template void ContractionPlan::execute<double>(std::span<const TensorView<const double>>, double, double,
                                               TensorView<double>, const trncore::Options&,
                                               trncore::AccuracyReport&) const;
template void ContractionPlan::execute<float>(std::span<const TensorView<const float>>, float, float, TensorView<float>,
                                              const trncore::Options&) const;
template void ContractionPlan::execute<double>(std::span<const TensorView<const double>>, double, double,
                                               TensorView<double>, const trncore::Options&) const;

}  // namespace trntensor
