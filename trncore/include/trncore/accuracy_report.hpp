#pragma once
/// @file
/// What a call certifies about its result (DESIGN.md §5.2): the target, the bound, how it was obtained.

#include <trncore/sim/engine_stats.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trncore {

/// One step of the method/precision trajectory, e.g. "LU fp32" or "ozaki: 9 slices of 4 bits".
struct TrajectoryStep {
  std::string description;
};

struct AccuracyReport {
  /// The target the caller asked for, if any.
  std::optional<double> target;
  /// The a-priori bound the call certifies (its measure is documented per call).
  double a_priori_bound = 0.0;
  /// An a-posteriori estimate where one is computable (e.g. from a residual).
  std::optional<double> a_posteriori_estimate;
  /// True when the bound is certified and meets the target (or there is no target).
  bool met = false;
  /// Methods and precisions in the order they ran; the last one produced the result.
  std::vector<TrajectoryStep> trajectory;
  /// Iterations of iterative methods (refinements, Krylov steps), 0 for direct ones.
  std::int64_t iterations = 0;
  /// Where each bound comes from (theorem, paper).
  std::vector<std::string> references;
  /// Engine statistics and cost estimate of sim runs.
  std::optional<sim::CostReport> cost;

  /// A readable multi-line summary.
  std::string to_string() const;
};

/// What the overloads without a report do: @throws trncore::TargetNotMet naming `function`, the target
/// and the bound when report.met is false.
void require_target_met(const AccuracyReport& report, std::string_view function);

}  // namespace trncore
