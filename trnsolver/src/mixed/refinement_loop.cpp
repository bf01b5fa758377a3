#include "mixed/refinement_loop.hpp"

#include <algorithm>
#include <cmath>

namespace trnsolver::detail {

namespace {

constexpr double kU = 0x1p-53;
constexpr double kInf = std::numeric_limits<double>::infinity();

// ‖v‖∞, NaN when an entry is NaN (std::max alone would skip it, and a NaN iterate would look converged).
double inf_norm(const std::vector<double>& v) {
  double m = 0.0;
  for (const double x : v) {
    if (std::isnan(x)) return x;
    m = std::max(m, std::abs(x));
  }
  return m;
}

}  // namespace

void refine_to_stop(const RefinementSteps& s, bool with_scale, Refined& out) {
  const double root_n = std::sqrt(static_cast<double>(s.n));
  double previous = kInf, last_correction = kInf;
  std::vector<double> d(static_cast<std::size_t>(s.n));
  for (std::int64_t step = 0;; ++step) {
    out.res = s.residual(out.x, false);
    const double rnorm = inf_norm(out.res.r);
    if (s.stopped_before) {
      out.stopped = true;
      out.estimate = kInf;
      if (with_scale) out.res = s.residual(out.x, true);
      return;
    }
    if (!std::isfinite(rnorm) || rnorm == 0.0 || step == s.max_refinements) {
      out.converged = rnorm == 0.0;
      out.non_finite = !std::isfinite(rnorm);
      out.estimate = rnorm == 0.0 ? 0.0 : kInf;
      if (with_scale) out.res = s.residual(out.x, true);
      return;
    }
    // DSGESV's test (‖r‖∞ ≤ √n·u·‖A‖∞‖x‖∞): the error is then about fp64 LU's, or better. (A target or a
    // double-double residual asks for more: the full refinement.)
    if (s.backward_error_stop && step > 0 && rnorm <= root_n * kU * s.anorm * inf_norm(out.x)) {
      out.converged = true;
      // The current iterate is one contraction past the last correction's size.
      const double r = out.rho > 0.0 ? std::min(out.rho, 0.5) : 0.5;
      out.estimate = last_correction * r / (1.0 - r) / inf_norm(out.x);
      if (with_scale) out.res = s.residual(out.x, true);
      return;
    }
    d = out.res.r;
    out.gmres += s.correct(out.res, d);
    for (std::size_t i = 0; i < d.size(); ++i) out.x[i] += d[i];
    ++out.steps;
    const double dnorm = inf_norm(d), xnorm = inf_norm(out.x);
    last_correction = dnorm;
    // The monitor sees every step with the relative size of its correction; a stop ends the refinement with
    // the iterate as it is (its residual recomputed for the bounds).
    if (s.stop_requested(xnorm > 0.0 ? dnorm / xnorm : dnorm)) {
      out.stopped = true;
      out.estimate = kInf;
      out.non_finite = !std::isfinite(dnorm) || !std::isfinite(xnorm);
      if (!out.non_finite) out.res = s.residual(out.x, with_scale);
      return;
    }
    if (!std::isfinite(dnorm) || !std::isfinite(xnorm)) {
      out.non_finite = true;
      return;
    }
    const double ratio = dnorm / previous;
    if (step > 0) out.rho = std::max(out.rho, ratio);
    // Carson–Higham: stop once the correction is below u‖x‖ (converged) or no longer halves (the limiting
    // accuracy is reached, or the iteration does not converge: the contraction so far tells which).
    if (dnorm <= kU * xnorm) {
      out.converged = true;
      out.estimate = dnorm / xnorm / (1.0 - std::min(out.rho, 0.5));
      out.res = s.residual(out.x, with_scale);
      return;
    }
    if (step > 0 && ratio > 0.5 && s.switch_strategy && s.switch_strategy(dnorm, xnorm)) {
      out.rho = 0.0;
      previous = kInf;
      continue;
    }
    if (step > 0 && ratio > 0.5) {
      // The corrections stopped decreasing before one fell below u‖x‖. That is the limiting accuracy only if
      // the iterate passes DSGESV's backward error test: then x̂ is as good as fp64 LU's. Otherwise the
      // refinement stalled (κ too large for the strategy, or a factor with large growth).
      out.res = s.residual(out.x, with_scale);
      out.converged = inf_norm(out.res.r) <= root_n * kU * s.anorm * xnorm;
      out.stagnated = !out.converged;
      out.estimate = out.converged ? dnorm / xnorm : kInf;
      return;
    }
    previous = dnorm;
  }
}

}  // namespace trnsolver::detail
