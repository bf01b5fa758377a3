#pragma once
/// @file
/// LU with partial pivoting (getrf, getrs, gesv), matrix norms (lange) and condition estimation (gecon).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <cstdint>
#include <span>
#include <type_traits>

namespace trnsolver {

/// LU factorization with partial pivoting (LAPACK ?getrf): A = P·L·U with A m×n, L m×min(m,n) unit lower
/// trapezoidal, U min(m,n)×n upper trapezoidal, both overwriting A (L's unit diagonal not stored).
/// @param layout   storage order of A
/// @param m, n     rows and columns of A (≥ 0)
/// @param a        A on entry; L and U on exit
/// @param lda      leading dimension of A (≥ max(1, row length in `layout`))
/// @param ipiv  min(m, n) 1-based pivots: row i was interchanged with row ipiv[i] − 1.
/// @param options  backend (sim: square A only), math mode and threads as the header describes; no
///                 target_forward_error
/// @return 0, or i > 0 when U(i−1, i−1) is exactly zero: the factorization is complete but U is singular
///         (no exception; solving with it would divide by zero).
/// @throws as the header says (lda below its minimum, null a or ipiv with m, n > 0, ...).
/// Accuracy: P·L̂·Û = A + ΔA with |ΔA| ≤ γ_n·|L̂||Û| componentwise (Higham, ASNA 2nd ed., Thm 9.3; γ_n =
/// n·u/(1 − n·u)); normwise ‖ΔA‖ ≤ γ_n·ρ·‖A‖·n with ρ the growth factor, small in practice.
/// Row-major: computed by LAPACKE's row-major interface, which factors a transposed copy (cost measured
/// in docs/benchmarks.md).
template <class T>
std::int64_t getrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                   const trncore::Options& options = {});

/// Solves op(A)·X = B (LAPACK ?getrs) with the LU of getrf (n×n), B n×nrhs overwritten by X.
/// @param layout  storage order of the LU and of B
/// @param trans  no_trans solves A·X = B; trans and conj_trans solve Aᵀ·X = B.
/// @param n       order of A (≥ 0)
/// @param nrhs    columns of B (≥ 0)
/// @param a       getrf's L and U
/// @param lda     leading dimension of a
/// @param ipiv   getrf's n pivots; each must lie in [1, n] (checked: garbage pivots would index outside B).
/// @param b       B on entry, X on exit
/// @param ldb     leading dimension of B
/// @param options backend, threads (as getrf)
/// Accuracy: (A + ΔA)·x̂ = b with |ΔA| ≤ (3γ_n + γ_n²)·|L̂||Û| per column (Higham Thm 9.4). A zero on
/// U's diagonal gives inf/NaN in X (getrf's info says so beforehand).
template <class T>
void getrs(Layout layout, Op trans, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda,
           const std::int64_t* ipiv, T* b, std::int64_t ldb, const trncore::Options& options = {});

/// Solves A·X = B (LAPACK ?gesv): getrf on A (overwritten by its LU), then getrs on B (overwritten by X).
/// @return getrf's info; when it is > 0, B is left unchanged (as LAPACK).
template <class T>
std::int64_t gesv(Layout layout, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, std::int64_t* ipiv, T* b,
                  std::int64_t ldb, const trncore::Options& options = {});

/// A norm of the m×n matrix A (LAPACK ?lange): one, inf, fro or max (0 for an empty matrix). Row-major
/// needs no copy (the 1-norm of A is the ∞-norm of its stored transpose).
template <class T>
T lange(Layout layout, Norm norm, std::int64_t m, std::int64_t n, const T* a, std::int64_t lda,
        const trncore::Options& options = {});

/// Reciprocal condition number estimate 1/(‖A‖·‖A⁻¹‖) in the 1-norm (norm = one) or ∞-norm (norm = inf)
/// from getrf's LU of the n×n matrix A (LAPACK ?gecon, Higham's estimator ?lacn2).
/// @param layout  storage order of the LU
/// @param norm    Norm::one or Norm::inf
/// @param n       order of A (≥ 0)
/// @param lu      getrf's L and U of A
/// @param lda     leading dimension of lu
/// @param anorm  ‖A‖ in the same norm, of the original A (use lange before getrf); must be ≥ 0 and not NaN.
/// @param options backend, threads (as getrf)
/// @param rcond  receives the estimate; 0 when anorm = 0 or U is exactly singular, 1 for n = 0.
/// @return 0, or LAPACK's info > 0 (newer LAPACKs: the estimate overflowed or was NaN).
/// @throws InvalidArgument for norm = fro or max, a negative or NaN anorm; else as the header.
/// Accuracy: the estimate of ‖A⁻¹‖ is a lower bound of the true norm (up to rounding), in practice
/// within a factor 3 and never more than n below it (LAPACK Working Note 36; Higham, ASNA Ch. 15).
template <class T>
std::int64_t gecon(Layout layout, Norm norm, std::int64_t n, const T* lu, std::int64_t lda,
                   std::type_identity_t<T> anorm, T* rcond, const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// getrf on the view; ipiv needs min(m, n) entries.
template <class T>
std::int64_t getrf(trncore::MatrixView<T> a, std::span<std::int64_t> ipiv, const trncore::Options& options = {});
/// getrs with the n×n LU and its pivots, B n×nrhs.
template <class T>
void getrs(Op trans, std::type_identity_t<trncore::MatrixView<const T>> lu, std::span<const std::int64_t> ipiv,
           trncore::MatrixView<T> b, const trncore::Options& options = {});
/// gesv on the views.
template <class T>
std::int64_t gesv(trncore::MatrixView<T> a, std::span<std::int64_t> ipiv, trncore::MatrixView<T> b,
                  const trncore::Options& options = {});
/// lange of the view.
template <class T>
T lange(Norm norm, trncore::MatrixView<const T> a, const trncore::Options& options = {});
/// gecon of the n×n LU.
template <class T>
std::int64_t gecon(Norm norm, std::type_identity_t<trncore::MatrixView<const T>> lu, std::type_identity_t<T> anorm,
                   T& rcond, const trncore::Options& options = {});

// Mutable views convert to the const views the drivers above take (deduction does not see through the
// conversion, hence these forwarders).
template <class T>
requires(!std::is_const_v<T>) T lange(Norm norm, trncore::MatrixView<T> a, const trncore::Options& options = {}) {
  return lange<T>(norm, trncore::MatrixView<const T>(a), options);
}

}  // namespace trnsolver
