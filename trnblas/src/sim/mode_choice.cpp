#include "sim/mode_choice.hpp"

#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace trnblas::detail {

namespace {

// "FP32-level" for compensated without a target: the slicing's own error (truncation and dropped
// pairs) at most 16 fp32 units, so the PSUM's γ_K — the bound SGEMM itself has — dominates.
constexpr double kCompensatedTruncation = 0x1p-20;
// "FP64-level" for ozaki without a target: componentwise 2^-52 (the final rounding plus at most one more
// fp64 unit of truncation), below fp64 DGEMM's own bound γ_K(2^-53) for K ≥ 2.
constexpr double kOzakiDefaultTarget = 0x1p-52;
constexpr int kMaxCompensatedSlices = 8;

ProductPlan base_plan(const ChoiceInputs& in) {
  ProductPlan p;
  p.product = in.product;
  p.generation = in.generation;
  p.threads = in.threads;
  p.inputs_are_float = in.inputs_are_float;
  return p;
}

ProductPlan single(const ChoiceInputs& in, const trncore::FormatSpec& f) {
  ProductPlan p = base_plan(in);
  p.method = ProductMethod::single_pass;
  p.format = f;
  return p;
}

ProductPlan compensated(const ChoiceInputs& in, int slices) {
  ProductPlan p = base_plan(in);
  p.method = ProductMethod::compensated;
  p.bits = exact_slice_bits(in.product);
  p.slices = slices;
  // Without a target the mode promises its fp32 level: the slicing's own error (truncation, dropped pairs) and
  // the absolute term (slice remainders below 2^-63) together at most kCompensatedTruncation; a larger absolute
  // term means the result lacks that accuracy (not certified). With a target, the bound (with the term) is
  // certified and judged against the target.
  if (!in.target) p.absolute_limit = std::max(0.0, kCompensatedTruncation - compensated_slicing_error(p));
  return p;
}

ProductPlan ozaki(const ChoiceInputs& in, double target) {
  ProductPlan p = base_plan(in);
  p.method = ProductMethod::ozaki;
  p.bits = exact_slice_bits(in.product);
  p.slices = 0;
  p.target = target;
  return p;
}

double slicing_error(const ChoiceInputs& in, int slices) { return compensated_slicing_error(compensated(in, slices)); }

}  // namespace

double relative_cost(const ProductPlan& plan, trncore::sim::Generation generation) {
  switch (plan.method) {
    case ProductMethod::single_pass: {
      // Estimates, relative to bf16 (docs/trnblas.md): fp8 at twice the bf16 rate from trn2 on,
      // fp32 at a quarter, tf32/fp16 like bf16.
      if (plan.format.width() == 8) return generation == trncore::sim::Generation::trn1 ? 1.0 : 0.5;
      if (plan.format.mantissa_bits == trncore::formats::fp32.mantissa_bits) return 4.0;
      return 1.0;
    }
    case ProductMethod::compensated: return plan.slices * (plan.slices + 1) / 2.0;
    case ProductMethod::ozaki: return 1e300;  // data-dependent slice count: always the last resort
  }
  return 1e300;
}

std::vector<ProductPlan> candidate_plans(const ChoiceInputs& in) {
  using trncore::MathMode;
  namespace f = trncore::formats;
  switch (in.mode) {
    case MathMode::fp32: return {single(in, f::fp32)};
    case MathMode::tf32: return {single(in, f::tf32)};
    case MathMode::bf16:
    case MathMode::sr: return {single(in, f::bf16)};
    case MathMode::fp16: return {single(in, f::fp16)};
    case MathMode::fp8_e4m3: return {single(in, f::fp8_e4m3)};
    case MathMode::fp8_e5m2: return {single(in, f::fp8_e5m2)};
    case MathMode::compensated: {
      int s = 1;
      if (in.target) {
        while (s < kMaxCompensatedSlices && compensated_bound(compensated(in, s), in.k) > *in.target) ++s;
      } else {
        while (s < kMaxCompensatedSlices && slicing_error(in, s) > kCompensatedTruncation) ++s;
      }
      return {compensated(in, s)};
    }
    case MathMode::ozaki: return {ozaki(in, in.target.value_or(kOzakiDefaultTarget))};
    case MathMode::automatic: {
      if (!in.target) {  // full precision of the input type: fp32-level for float, fp64-level for double
        if (!in.inputs_are_float) return {ozaki(in, kOzakiDefaultTarget)};
        ChoiceInputs c = in;
        c.mode = MathMode::compensated;
        return candidate_plans(c);
      }
      std::vector<ProductPlan> fixed{single(in, f::fp8_e4m3), single(in, f::bf16), single(in, f::fp16),
                                     single(in, f::fp32)};
      for (int s = 1; s <= kMaxCompensatedSlices; ++s) fixed.push_back(compensated(in, s));
      std::vector<ProductPlan> out;
      for (const ProductPlan& p : fixed) {
        const double bound =
            p.method == ProductMethod::single_pass ? single_pass_bound(p, in.k) : compensated_bound(p, in.k);
        if (bound <= *in.target) out.push_back(p);
      }
      std::stable_sort(out.begin(), out.end(), [&](const ProductPlan& x, const ProductPlan& y) {
        return relative_cost(x, in.generation) < relative_cost(y, in.generation);
      });
      out.push_back(ozaki(in, *in.target));
      return out;
    }
    case MathMode::fp64: break;
  }
  throw trncore::NotSupported(
      "trnblas::gemm",
      "math mode " + std::string(trncore::to_string(in.mode)) + " has no TensorEngine algorithm on the sim backend",
      "use MathMode::ozaki for fp64-accurate results on sim, or Backend::host");
}

}  // namespace trnblas::detail
