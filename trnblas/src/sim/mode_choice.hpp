#pragma once
// Which ProductPlan a sim GEMM runs: the mode the caller named, or — for MathMode::automatic with a
// target_forward_error — the cheapest candidate whose a-priori bound meets it (DESIGN.md §5.2).

#include "sim/sim_product.hpp"

#include <trncore/math_mode.hpp>
#include <trncore/sim/generation.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace trnblas::detail {

/// What the choice depends on besides the mode.
struct ChoiceInputs {
  trncore::MathMode mode = trncore::MathMode::automatic;
  std::optional<double> target;  // bound on the TensorEngine part, relative to |A||B|
  trncore::sim::ProductModel product = trncore::sim::ProductModel::bf16;
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;
  std::int64_t k = 0;
  bool inputs_are_float = true;
  int threads = 0;
};

/// The plans to try, cheapest first; the last one is run when none certifies the target.
/// @throws trncore::NotSupported for modes the sim GEMM lacks (fp64: use the host backend).
std::vector<ProductPlan> candidate_plans(const ChoiceInputs& in);

/// Modelled cost of a plan in bf16-pass equivalents (TensorEngine passes over the full K, weighted by
/// the input format's rate relative to bf16 on this generation).
double relative_cost(const ProductPlan& plan, trncore::sim::Generation generation);

}  // namespace trnblas::detail
