#pragma once
// The PlanOptions (planner fields) check shared by trntensor's entry points: an algorithm cast from an out-of-range integer
// (static_cast<PathAlgorithm>(9)) is refused with InvalidArgument instead of silently reaching a switch.
// Options (target, threads, rounding and its enum fields) are trncore::validate's.
#include <trntensor/plan.hpp>

#include <trncore/error.hpp>

#include <string>
#include <string_view>

namespace trntensor::detail {

inline void validate_plan_options(const PlanOptions& p, std::string_view function) {
  if (static_cast<unsigned>(p.algorithm) > static_cast<unsigned>(PathAlgorithm::left_to_right))
    throw trncore::InvalidArgument(
        function, "options.algorithm = " + std::to_string(static_cast<unsigned>(p.algorithm)) + " is not a valid value",
        "use automatic, optimal, greedy or left_to_right");
}

}  // namespace trntensor::detail
