#pragma once
// Higham's 1-norm estimator (Hager's method with Higham's refinements, as LAPACK's xLACN2: N. J. Higham,
// "FORTRAN codes for estimating the one-norm of a real or complex matrix", ACM TOMS 14 (1988) 381–396).
// It returns ‖B v‖₁ for vectors with ‖v‖₁ = 1, hence never more than ‖B‖₁; in practice it is almost
// always within a factor 3 of it (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §15.3).

#include "mixed/correction_gmres.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace trnsolver::detail {

/// An estimate (a lower bound) of ‖B‖₁ for an n×n operator given by v ↦ B v and v ↦ Bᵀ v (in place).
/// `two_starts` (the bounds): the iteration also runs from a second, pseudo-random start (about twice the
/// cost); false (condition estimates, which nothing certifies): the uniform start only, as LAPACK's xLACN2.
double one_norm_estimate(std::int64_t n, const Precondition& apply, const Precondition& apply_transpose,
                         bool two_starts = true);

/// Applies the operators B_p of several estimates at once: column c of the n×k block v (column-major,
/// leading dimension n, k = problem.size()) is replaced by B_{problem[c]}·v_c (transpose false) or
/// B_{problem[c]}ᵀ·v_c (true). One call per round lets the operators share a multi-right-hand-side solve.
using BlockApply = std::function<void(double* v, std::span<const std::size_t> problem, bool transpose)>;

/// one_norm_estimate for several operators, the iterations of all of them run in lockstep: every round
/// applies each active iteration's vector through one call of `apply`. For operator p the result is the
/// value one_norm_estimate(n, B_p, B_pᵀ, two_starts[p]) returns — the same starting vectors, steps, stopping
/// rules and Higham's extra vector — up to the rounding of the block application.
/// `stop`, when set, is called after every round that applied B with a lower bound of each final estimate
/// (the largest ‖B_p v‖₁ seen so far); returning true abandons the estimates (the result is then empty).
std::vector<double> one_norm_estimates(std::int64_t n, const BlockApply& apply, std::span<const bool> two_starts,
                                       const std::function<bool(std::span<const double>)>& stop = nullptr);

}  // namespace trnsolver::detail
