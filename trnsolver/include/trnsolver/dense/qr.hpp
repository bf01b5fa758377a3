#pragma once
/// @file
/// Householder QR (geqrf) and the explicit Q (orgqr).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <cstdint>
#include <span>
#include <type_traits>

namespace trnsolver {

/// Householder QR of the m×n A (LAPACK ?geqrf): R (min(m,n)×n upper trapezoidal) overwrites A's upper
/// triangle, the Householder vectors v_i (v_i(i) = 1 implicit) lie below the diagonal, tau has
/// min(m, n) scalars; Q = H_0·H_1·…, H_i = I − tau_i·v_i·v_iᵀ.
/// Accuracy: A + ΔA = Q·R̂ with Q exactly orthogonal and ‖Δa_j‖₂ ≤ γ̃_{mn}·‖a_j‖₂ per column (Higham Thm
/// 19.4). Row-major: LAPACKE's transposed copy (the copy-free ?gelqf of the stored transpose measured
/// slower; docs/benchmarks.md).
template <class T>
void geqrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau,
           const trncore::Options& options = {});

/// Forms the m×n matrix Q with orthonormal columns (LAPACK ?orgqr) from the first k reflectors of
/// geqrf, overwriting A; m ≥ n ≥ k ≥ 0 (InvalidArgument otherwise). tau has k scalars.
/// Accuracy: ‖Q̂ᵀQ̂ − I‖ ≤ c·m·n·u. Row-major: LAPACKE's transposed copy.
template <class T>
void orgqr(Layout layout, std::int64_t m, std::int64_t n, std::int64_t k, T* a, std::int64_t lda, const T* tau,
           const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// geqrf on the view; tau needs min(m, n) entries.
template <class T>
void geqrf(trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> tau, const trncore::Options& options = {});
/// orgqr on the m×n view with k = tau.size() reflectors.
template <class T>
void orgqr(trncore::MatrixView<T> a, std::type_identity_t<std::span<const T>> tau,
           const trncore::Options& options = {});

}  // namespace trnsolver
