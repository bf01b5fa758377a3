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
  /// The method and precision of the step, in words, e.g. "GMRES-IR fp32 factorization, fp64 residual".
  std::string description;
};

/// What a call certifies about its result: the caller's target, the a-priori bound, whether the bound is
/// certified for this input (and if not, why), and the method/precision trajectory that produced it.
///
/// Filled by the report overloads of every package's computational functions (which never throw for a
/// numerical outcome); the overloads without a report pass it to require_target_met(). The certificate
/// fields (a_priori_bound, certified, uncertified_reason, met) are set only through certify() and
/// uncertify(), so that met == certified && (!target || a_priori_bound <= *target) always holds
/// (docs/trncore.md, "Certificates: the contract every package keeps").
struct AccuracyReport {
  /// The target the caller asked for, if any.
  std::optional<double> target;
  /// The a-priori bound the call certifies (its measure is documented per call).
  double a_priori_bound = 0.0;
  /// An a-posteriori estimate where one is computable (e.g. from a residual).
  std::optional<double> a_posteriori_estimate;
  /// True when a_priori_bound is proven for this very input: every hypothesis of the bound's theorem
  /// held (finite inputs, no operand outside the format's normal range where the bound needs it, the
  /// method ran to completion). False means the bound is not a guarantee; uncertified_reason says why.
  /// The contract (docs/trncore.md, "Certificates"): met == certified && (!target || bound <= *target).
  bool certified = false;
  /// Why the result is not certified (empty when certified), e.g. "NaN or Inf in the input".
  std::string uncertified_reason;
  /// True when the bound is certified and meets the target (or there is no target).
  bool met = false;
  /// Methods and precisions in the order they ran; the last one produced the result.
  std::vector<TrajectoryStep> trajectory;
  /// Iterations of iterative methods (refinements, Krylov steps), 0 for direct ones.
  std::int64_t iterations = 0;
  /// Where each bound comes from (theorem, paper).
  std::vector<std::string> references;
  /// True when Options::monitor asked the call to stop before it finished; the result is the iterate at
  /// that point, certified only if the call's bound holds for it (else uncertified_reason says so).
  bool stopped_by_monitor = false;
  /// Engine statistics and cost estimate of sim runs.
  std::optional<sim::CostReport> cost;

  /// Marks the result certified with `bound` and sets met from the target (the one formula every
  /// package uses).
  void certify(double bound);
  /// Marks the result uncertified: `reason` says which hypothesis failed; met becomes false. The bound
  /// stays as given (it may still be informative) but is no guarantee.
  void uncertify(std::string_view reason);

  /// A readable multi-line summary.
  std::string to_string() const;
};

/// What every overload without a report does with its result (docs/trncore.md, "Certificates"):
/// @throws trncore::TargetNotMet naming `function` when report.met is false — for an uncertified result
/// with report.uncertified_reason, otherwise with the bound and the target.
void require_target_met(const AccuracyReport& report, std::string_view function);

}  // namespace trncore
