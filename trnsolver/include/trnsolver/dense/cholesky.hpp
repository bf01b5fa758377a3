#pragma once
/// @file
/// Cholesky factorization and solves of symmetric positive definite matrices (potrf, potrs, posv).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <cstdint>
#include <type_traits>

namespace trnsolver {

/// Cholesky factorization of the symmetric positive definite n×n A (LAPACK ?potrf): A = L·Lᵀ (uplo =
/// lower) or Uᵀ·U (upper), the factor overwriting the `uplo` triangle; the other one is not referenced.
/// @return 0, or i > 0 when the leading minor of order i is not positive definite (factorization
///         stopped; no exception).
/// Accuracy: R̂ᵀR̂ = A + ΔA with |ΔA| ≤ γ_{n+1}·|R̂ᵀ||R̂| (Higham Thm 10.3), hence ‖ΔA‖₂ ≤ n·γ_{n+1}·‖A‖₂.
/// Row-major: no copy (the stored transpose is the same symmetric matrix with the other triangle).
template <class T>
std::int64_t potrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda,
                   const trncore::Options& options = {});

/// Solves A·X = B (LAPACK ?potrs) with potrf's factor of A (n×n), B n×nrhs overwritten by X.
/// Accuracy: (A + ΔA)·x̂ = b with |ΔA| ≤ γ_{3n+1}·|R̂ᵀ||R̂| per column (Higham Thm 10.4).
/// Row-major: two triangular solves (trnblas::trsm) on the row-major data, no copy.
template <class T>
void potrs(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda, T* b,
           std::int64_t ldb, const trncore::Options& options = {});

/// Solves A·X = B for SPD A (LAPACK ?posv): potrf then potrs. @return potrf's info (B unchanged if > 0).
template <class T>
std::int64_t posv(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                  std::int64_t ldb, const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// potrf on the view.
template <class T>
std::int64_t potrf(Uplo uplo, trncore::MatrixView<T> a, const trncore::Options& options = {});
/// potrs with the factor and B.
template <class T>
void potrs(Uplo uplo, std::type_identity_t<trncore::MatrixView<const T>> factor, trncore::MatrixView<T> b,
           const trncore::Options& options = {});
/// posv on the views.
template <class T>
std::int64_t posv(Uplo uplo, trncore::MatrixView<T> a, trncore::MatrixView<T> b, const trncore::Options& options = {});

}  // namespace trnsolver
