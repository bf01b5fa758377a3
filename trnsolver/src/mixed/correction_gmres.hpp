#pragma once
// The fp64 GMRES of GMRES-IR: left-preconditioned M⁻¹A d = M⁻¹r from d = 0, modified Gram–Schmidt Arnoldi
// and Givens rotations, no restart (Carson and Higham 2017, SIAM J. Sci. Comput. 39(6) A2834). The
// operator and the preconditioner arrive as callbacks so the same code solves with A and with Aᵀ.

#include <cstdint>
#include <functional>
#include <vector>

namespace trnsolver::detail {

/// y = Op(x) for vectors of length n.
using Apply = std::function<void(const double* x, double* y)>;
/// v = M⁻¹ v in place.
using Precondition = std::function<void(double* v)>;

struct GmresOutcome {
  std::int64_t iterations = 0;
  bool converged = false;
  /// ‖M⁻¹(r − A d)‖₂ / ‖M⁻¹ r‖₂ at the end (from the Arnoldi recurrence).
  double relative_residual = 0.0;
};

/// Solves M⁻¹A d = M⁻¹ rhs to relative tolerance `tolerance` (preconditioned residual) in at most
/// `max_iterations` steps; d receives the iterate. A zero rhs gives d = 0 at once.
GmresOutcome correction_gmres(std::int64_t n, const Apply& apply_a, const Precondition& precondition, const double* rhs,
                              double* d, double tolerance, std::int64_t max_iterations);

}  // namespace trnsolver::detail
