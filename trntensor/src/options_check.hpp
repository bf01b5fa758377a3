#pragma once
// Argument checks shared by trntensor's entry points: trncore::validate (target, threads, rounding) plus the
// enum fields of Options and PlanOptions, so a value cast from an out-of-range integer (static_cast<MathMode>(42))
// is refused with InvalidArgument instead of silently reaching a switch.
#include <trntensor/plan.hpp>

#include <trncore/error.hpp>
#include <trncore/options.hpp>

#include <string>
#include <string_view>

namespace trntensor::detail {

inline void validate_options(const trncore::Options& o, std::string_view function) {
  trncore::validate(o, function);
  const auto bad = [&](const char* field, unsigned value, const char* hint) {
    throw trncore::InvalidArgument(
        function, std::string("options.") + field + " = " + std::to_string(value) + " is not a valid value", hint);
  };
  if (static_cast<unsigned>(o.backend) > static_cast<unsigned>(trncore::Backend::sim))
    bad("backend", static_cast<unsigned>(o.backend), "use Backend::host or Backend::sim");
  if (static_cast<unsigned>(o.math_mode) > static_cast<unsigned>(trncore::MathMode::ozaki))
    bad("math_mode", static_cast<unsigned>(o.math_mode), "use a trncore::MathMode enumerator");
  if (static_cast<unsigned>(o.generation) > static_cast<unsigned>(trncore::sim::Generation::trn3))
    bad("generation", static_cast<unsigned>(o.generation), "use trn1, trn2 or trn3");
  if (o.product && static_cast<unsigned>(*o.product) > static_cast<unsigned>(trncore::sim::ProductModel::bf16))
    bad("product", static_cast<unsigned>(*o.product),
        "use ProductModel::exact or ProductModel::bf16, or leave it unset");
}

inline void validate_plan_options(const PlanOptions& p, std::string_view function) {
  if (static_cast<unsigned>(p.algorithm) > static_cast<unsigned>(PathAlgorithm::left_to_right))
    throw trncore::InvalidArgument(
        function, "plan.algorithm = " + std::to_string(static_cast<unsigned>(p.algorithm)) + " is not a valid value",
        "use automatic, optimal, greedy or left_to_right");
}

}  // namespace trntensor::detail
