#pragma once
// The refinement loop of trnsolver::solve and trnsolver::mpi::solve: one right-hand side refined from its
// first solve to solve()'s stopping rules. What differs between the callers — how the residual and the
// correction are formed, how the monitor is asked, whether a stalled LU-IR may turn into GMRES-IR — comes in
// as callables; the stopping rules and the estimate are this one piece of code.

#include "mixed/residual.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace trnsolver::detail {

/// Where one right-hand side's refinement ended.
struct Refined {
  std::vector<double> x;   ///< the iterate
  Residual res;            ///< its last residual (with the scale when the caller asked for it)
  std::int64_t steps = 0;  ///< refinement steps taken
  std::int64_t gmres = 0;  ///< GMRES iterations over all steps
  bool converged = false;
  double estimate = std::numeric_limits<double>::infinity();  ///< ‖d_last‖/‖x‖/(1 − ρ)
  double rho = 0.0;                                           ///< the largest ratio of successive corrections
  bool stagnated = false;              ///< the corrections stopped decreasing before the stopping test held
  bool non_finite = false;             ///< the residual or the iterate became NaN or infinite
  bool stopped = false;                ///< the monitor stopped the refinement (this column or an earlier one)
  Refinement how = Refinement::lu_ir;  ///< the strategy that finished (adaptive LU-IR may end as GMRES-IR)
};

/// What the loop needs from its caller.
struct RefinementSteps {
  std::int64_t n = 0;
  double anorm = 0.0;  ///< ‖A‖∞, for DSGESV's backward-error test
  std::int64_t max_refinements = 0;
  /// Stop as soon as DSGESV's test holds (no target and an fp64 residual: fp64 LU's quality is the goal).
  bool backward_error_stop = false;
  /// A stop was requested before this right-hand side: it keeps its first solve.
  bool stopped_before = false;
  /// r = b − A x (with the scale |A||x| + |b| when asked).
  std::function<Residual(const std::vector<double>& x, bool with_scale)> residual;
  /// The correction for `res`: d receives it (it holds res.r on entry); returns the GMRES iterations spent.
  std::function<std::int64_t(const Residual& res, std::vector<double>& d)> correct;
  /// After each step, with ‖d‖∞/‖x‖∞: whether the monitor asks to stop.
  std::function<bool(double relative_correction)> stop_requested;
  /// Optional: a correction failed to halve (‖d‖, ‖x‖ given); true when the caller switched strategy, which
  /// restarts the contraction estimate instead of ending the refinement as stagnated.
  std::function<bool(double dnorm, double xnorm)> switch_strategy;
};

/// Refines out.x (holding the first solve) until a correction is below u‖x‖ (converged), the corrections stop
/// halving (converged if DSGESV's backward-error test holds, else stagnated), max_refinements, a non-finite
/// value, or the monitor's stop (Carson and Higham 2017). `with_scale`: the final residual carries the scale.
void refine_to_stop(const RefinementSteps& s, bool with_scale, Refined& out);

}  // namespace trnsolver::detail
