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

/// Estimate of ‖A⁻¹‖∞ (= ‖A⁻ᵀ‖₁).
double inverse_norm_estimate(std::int64_t n, const Inverse& inverse);

struct ForwardErrorBounds {
  double normwise = 0.0;       ///< 3·estimate of ‖ |A⁻¹| g ‖∞ / ‖x‖∞
  double componentwise = 0.0;  ///< 3·estimate of max_i (|A⁻¹| g)_i / |x_i|
  double estimate = 0.0;       ///< the normwise estimate itself
};

/// With g = |r|(1 + 2u) + error_factor·scale (every computed quantity of `res` turned into a bound on the
/// exact residual's magnitude): |x − A⁻¹b| ≤ |A⁻¹| g exactly, whose norms are estimated here.
ForwardErrorBounds forward_error_bounds(std::int64_t n, const Inverse& inverse, const Residual& res,
                                        const double* x);

}  // namespace trnsolver::detail
