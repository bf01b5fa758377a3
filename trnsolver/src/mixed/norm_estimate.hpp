#pragma once
// Higham's 1-norm estimator (Hager's method with Higham's refinements, as LAPACK's xLACN2: N. J. Higham,
// "FORTRAN codes for estimating the one-norm of a real or complex matrix", ACM TOMS 14 (1988) 381–396).
// It returns ‖B v‖₁ for vectors with ‖v‖₁ = 1, hence never more than ‖B‖₁; in practice it is almost
// always within a factor 3 of it (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §15.3).

#include "mixed/correction_gmres.hpp"

#include <cstdint>

namespace trnsolver::detail {

/// An estimate (a lower bound) of ‖B‖₁ for an n×n operator given by v ↦ B v and v ↦ Bᵀ v (in place).
/// `two_starts` (the bounds): the iteration also runs from a second, pseudo-random start (about twice the
/// cost); false (condition estimates, which nothing certifies): the uniform start only, as LAPACK's xLACN2.
double one_norm_estimate(std::int64_t n, const Precondition& apply, const Precondition& apply_transpose,
                         bool two_starts = true);

}  // namespace trnsolver::detail
