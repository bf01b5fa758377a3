#pragma once
/// @file
/// LDLᵀ factorization with Bunch–Kaufman pivoting of symmetric indefinite matrices and its solves (sytrf, sytrs).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <cstdint>
#include <span>
#include <type_traits>

namespace trnsolver {

/// LDLᵀ factorization of the symmetric (indefinite) n×n A with Bunch–Kaufman diagonal pivoting (LAPACK
/// ?sytrf): A = U·D·Uᵀ (upper) or L·D·Lᵀ (lower), D block diagonal with 1×1 and 2×2 blocks, factors in
/// the `uplo` triangle. ipiv (n entries) as LAPACK: ipiv[k] > 0 is a 1×1 block with rows k and
/// ipiv[k] − 1 interchanged; a 2×2 block has ipiv[k] = ipiv[k+1] = −p < 0 (lower: rows k+1 and p − 1;
/// upper: rows k and p − 1).
/// @return 0, or i > 0 when D(i−1, i−1) is exactly zero (D singular; no exception).
/// Accuracy: backward stable with the γ_n-type bound of Higham Thm 11.3 (growth ≤ 2.57^{n−1}, modest in
/// practice); ‖A − L̂D̂L̂ᵀ‖ ≤ c·n·u·‖|L̂||D̂||L̂ᵀ|‖.
template <class T>
std::int64_t sytrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                   const trncore::Options& options = {});

/// Solves A·X = B (LAPACK ?sytrs) with sytrf's factorization and pivots; B n×nrhs overwritten by X.
/// The pivots are checked for the structure sytrf produces (indices in range, 2×2 blocks paired).
template <class T>
void sytrs(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda,
           const std::int64_t* ipiv, T* b, std::int64_t ldb, const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// sytrf on the view; ipiv needs n entries.
template <class T>
std::int64_t sytrf(Uplo uplo, trncore::MatrixView<T> a, std::span<std::int64_t> ipiv,
                   const trncore::Options& options = {});
/// sytrs with the factorization, its pivots and B.
template <class T>
void sytrs(Uplo uplo, std::type_identity_t<trncore::MatrixView<const T>> factor, std::span<const std::int64_t> ipiv,
           trncore::MatrixView<T> b, const trncore::Options& options = {});

}  // namespace trnsolver
