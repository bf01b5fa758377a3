#pragma once
/// @file
/// Inverse square root A^{-1/2} of a symmetric positive definite matrix (inv_sqrt_spd).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <trncore/accuracy_report.hpp>

#include <cstdint>
#include <type_traits>

namespace trnsolver {

/// Controls of inv_sqrt_spd. The trncore::Options base (through trncore::OptionsFor: with_*() setters return this
/// struct, a plain Options converts): backend, math mode of the GEMMs on sim, threads, monitor (Newton–Schulz: once per
/// iteration); no target.
struct InvSqrtOptions : trncore::OptionsFor<InvSqrtOptions> {
  using OptionsFor::OptionsFor;
  /// eigh (syevd) or newton_schulz (GEMMs only).
  InvSqrtMethod method = InvSqrtMethod::eigh;
  /// Newton–Schulz: stop when ‖I − Z_k·Y_k‖_F/√n ≤ tolerance, or after max_iterations (converged =
  /// false). tolerance = 0 (the default): 4·n·u of T, or earlier when the quadratic phase stalls at the
  /// rounding level (the distance below 0.01 and no longer halving per step), which counts as converged.
  double tolerance = 0.0;
  /// Newton–Schulz iteration limit (≥ 1).
  std::int64_t max_iterations = 100;
};

/// What inv_sqrt_spd did. The trncore::AccuracyReport base: iterations (Newton–Schulz iterations, 0 for
/// eigh), a_posteriori_estimate (= residual), stopped_by_monitor; inv_sqrt_spd certifies nothing (certified
/// is false, uncertified_reason says why: the residual below is measured, not a bound on X's error).
struct InvSqrtReport : trncore::AccuracyReport {
  /// 0; i in 1…n when the leading minor of order i of A is not positive definite (potrf's test, run by
  /// both methods first); n + 1 when syevd did not converge or found an eigenvalue ≤ 0.
  std::int64_t info = 0;
  /// ‖X·A·X − I‖_F/√n of the returned X, computed in T's precision (eigh and Newton–Schulz alike).
  double residual = 0.0;
  bool converged = false;  ///< eigh: info = 0; Newton–Schulz: the tolerance was met
};

/// X = A^{-1/2} for the SPD n×n A (only its lower triangle is read), written to x (n×n, ldx). method eigh: X = Q·diag(λ^{-1/2})·Qᵀ from syevd. method
/// newton_schulz: the coupled iteration Y₀ = A/c, Z₀ = I, T_k = (3I − Z_k·Y_k)/2, Y_{k+1} = Y_k·T_k,
/// Z_{k+1} = T_k·Z_k (Higham, Functions of Matrices, §6.7), c = ‖A‖_F so that the spectrum lies in
/// (0, 1]; X = Z/√c. It converges for every SPD A, quadratically once ‖I − Z_kY_k‖ < 1, after about
/// log₂ κ₂(A) slow steps. X is zero when info ≠ 0.
/// Monitor (newton_schulz): options.monitor, when set, is called after every iteration with the iteration
/// count (from 1) and ‖I − Z_k·Y_k‖_F/√n of the new iterates; when it asks to stop, X = Z_k/√c of the current
/// iterate is returned with converged = false, stopped_by_monitor = true and its residual as above.
/// @throws InvalidArgument for non-finite A, a negative tolerance or max_iterations < 1; else as the header.
/// Accuracy (eigh): ‖X̂ − X‖/‖X‖ ≲ p(n)·u·κ₂(A)/2 (the eigenvalues' absolute errors, amplified by the
/// derivative of λ^{-1/2}); Newton–Schulz reaches the same level, limited by rounding in the GEMMs.
template <class T>
InvSqrtReport inv_sqrt_spd(Layout layout, std::int64_t n, const T* a, std::int64_t lda, T* x, std::int64_t ldx,
                           const InvSqrtOptions& options = {});

/// A^{-1/2} and the report.
template <class T>
struct InvSqrtResult {
  DenseMatrix<T> x;      ///< A^{-1/2}, n×n in the input's layout (zero when report.info ≠ 0)
  InvSqrtReport report;  ///< what inv_sqrt_spd did
};

/// View form of inv_sqrt_spd (A not modified). @throws DimensionMismatch for a non-square A.
template <class T>
InvSqrtResult<T> inv_sqrt_spd(trncore::MatrixView<const T> a, const InvSqrtOptions& options = {});

// Mutable views convert to the const views the drivers above take (deduction does not see through the
// conversion, hence these forwarders).
template <class T>
requires(!std::is_const_v<T>) InvSqrtResult<T> inv_sqrt_spd(trncore::MatrixView<T> a,
                                                            const InvSqrtOptions& options = {}) {
  return inv_sqrt_spd<T>(trncore::MatrixView<const T>(a), options);
}

}  // namespace trnsolver
