#pragma once
// The a-posteriori forward error bounds of solve() (in the manner of LAPACK's xGERFSX; Demmel, Hida,
// Kahan, Li, Mukherjee, Riedy, "Error bounds from extra-precise iterative refinement", ACM TOMS 32 (2006))
// and the condition estimate, all through Higham's 1-norm estimator on operators built from A⁻¹.

#include "mixed/correction_gmres.hpp"
#include "mixed/residual.hpp"

#include <cstdint>
#include <vector>

namespace trnsolver::detail {

/// v ↦ A⁻¹v and v ↦ A⁻ᵀv in place, as accurate as the caller can make them.
struct Inverse {
  Precondition apply;
  Precondition apply_transpose;
};

/// Estimate of ‖A⁻¹‖∞ (= ‖A⁻ᵀ‖₁), one start (the condition estimate and the strategy choice; no bound).
double inverse_norm_estimate(std::int64_t n, const Inverse& inverse);

struct ForwardErrorBounds {
  double normwise = 0.0;       ///< 3·estimate of ‖ |A⁻¹| g ‖∞ / ‖x‖∞
  double componentwise = 0.0;  ///< 3·estimate of max_i (|A⁻¹| g)_i / |x_i|
  double estimate = 0.0;       ///< the normwise estimate itself
};

/// 3·(estimate of ‖ |A⁻¹| g ‖∞) for a non-negative g: with |v| ≤ g, an upper bound on ‖A⁻¹v‖∞ within the
/// estimator's factor (Higham's estimator gives a lower bound of the norm, almost always within 3 of it).
double abs_inverse_norm(std::int64_t n, const Inverse& inverse, const std::vector<double>& g);

/// The bounds of forward_error_bounds for an arbitrary non-negative g (|x̂ − x| ≤ |A⁻¹| g assumed by the
/// caller): 3·‖ |A⁻¹| g ‖∞/‖x‖∞ and 3·max_i (|A⁻¹| g)_i/|x_i|.
/// `normwise` / `componentwise` false skip that estimate (its field stays +inf).
ForwardErrorBounds bounds_from(std::int64_t n, const Inverse& inverse, const std::vector<double>& g, const double* x,
                               bool normwise = true, bool componentwise = true);

/// With g = |r|(1 + 2u) + error_factor·scale (every computed quantity of `res` turned into a bound on the
/// exact residual's magnitude): |x − A⁻¹b| ≤ |A⁻¹| g exactly, whose norms are estimated here.
ForwardErrorBounds forward_error_bounds(std::int64_t n, const Inverse& inverse, const Residual& res, const double* x);

}  // namespace trnsolver::detail
