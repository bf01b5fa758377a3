#pragma once
/// @file
/// Symmetric and generalized symmetric-definite eigenvalue problems (syevd, sygvd, eigh, eigh_generalized).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace trnsolver {

/// Eigenvalues (ascending, in w, n entries) and optionally orthonormal eigenvectors of the symmetric n×n
/// A by divide and conquer (LAPACK ?syevd), reading the `uplo` triangle. With vectors, A is overwritten
/// by them (column j of the stored matrix is the eigenvector of w[j], in either layout); otherwise A's
/// `uplo` triangle is destroyed.
/// @return 0, or i > 0 when the algorithm failed to converge.
/// @throws InvalidArgument for non-finite entries in the `uplo` triangle; else as the header.
/// Accuracy: |λ̂_i − λ_i| ≤ p(n)·u·‖A‖₂ (absolute, not relative: tiny eigenvalues of graded matrices may
/// have large relative error), ‖A·ẑ_i − λ̂_i·ẑ_i‖ ≤ p(n)·u·‖A‖₂, ‖ẐᵀẐ − I‖ ≤ p(n)·u (LAPACK Users'
/// Guide §4.7). Row-major: no copy for the values (eigenvectors: one in-place n×n transposition).
template <class T>
std::int64_t syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                   const trncore::Options& options = {});

/// syevd with the sim backend's algorithm chosen (EighMethod; the overload without it uses automatic).
/// Options::backend = sim, float data: jacobi runs the cyclic Jacobi of <trnsolver/jacobi.hpp> (fp32 VectorEngine arithmetic; info 1 if it does not converge); tridiagonal reduces by blocks of 128 columns (panels in
/// VectorEngine fp32, the rank-2·128 trailing updates as two sim GEMMs in options.math_mode), runs the
/// implicit QL of eigh_tridiagonal_ql with the rotations accumulated in fp32, and back-transforms the vectors
/// by the reflectors' compact-WY blocks as sim GEMMs; info 1 if QL does not converge.
/// Accuracy (tridiagonal, fp32 GEMMs): as the host bound with u = 2⁻²⁴, |λ̂_i − λ_i| ≤ p(n)·u·‖A‖₂; bf16 GEMMs
/// replace u by their single-pass bound (docs/trnblas-sim.md) in the reduction and back transformation.
/// @throws NotSupported for a method other than automatic on the host backend; InvalidArgument for an invalid
///         method; else as syevd.
template <class T>
std::int64_t syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                   EighMethod method, const trncore::Options& options = {});

/// The generalized symmetric-definite problem A·x = λ·B·x (LAPACK ?sygvd, itype 1) with A symmetric and
/// B symmetric positive definite (n×n, `uplo` triangles): w ascending; with vectors A is overwritten by
/// Z normalized so that ZᵀBZ = I. B is overwritten by its Cholesky factor.
/// @return 0; i ≤ n when syevd on the reduced problem failed to converge; n + i when the leading minor of
///         order i of B is not positive definite (as LAPACK; no exception).
/// Accuracy: eigenvalues with absolute error p(n)·u·‖B⁻¹‖₂·‖A‖₂ (LAPACK Users' Guide §4.7.2).
template <class T>
std::int64_t sygvd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* b, std::int64_t ldb,
                   T* w, const trncore::Options& options = {});

/// Eigenvalues and (optionally) eigenvectors of a symmetric matrix.
template <class T>
struct EighResult {
  std::vector<T> w;  ///< ascending
  DenseMatrix<T> z;  ///< n×n, column j the eigenvector of w[j] (empty for values_only)
  /// syevd's / sygvd's info: 0, or > 0 as LAPACK (no convergence; B not positive definite).
  std::int64_t info = 0;
};

/// The eigendecomposition A = Z·diag(w)·Zᵀ of the symmetric A (reading the `uplo` triangle; A is not
/// modified). As syevd. @throws DimensionMismatch for a non-square A.
template <class T>
EighResult<T> eigh(trncore::MatrixView<const T> a, EigJob job = EigJob::vectors, Uplo uplo = Uplo::lower,
                   const trncore::Options& options = {});

/// eigh with the sim backend's algorithm chosen (see syevd with EighMethod).
template <class T>
EighResult<T> eigh(trncore::MatrixView<const T> a, EigJob job, Uplo uplo, EighMethod method,
                   const trncore::Options& options = {});

/// A·x = λ·B·x for symmetric A and SPD B (not modified): Z with ZᵀBZ = I. As sygvd (info > n: B is not
/// positive definite). @throws DimensionMismatch for non-square or differently shaped A and B.
template <class T>
EighResult<T> eigh_generalized(trncore::MatrixView<const T> a, std::type_identity_t<trncore::MatrixView<const T>> b,
                               EigJob job = EigJob::vectors, Uplo uplo = Uplo::lower,
                               const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// syevd on the view; w needs n entries.
template <class T>
std::int64_t syevd(EigJob job, Uplo uplo, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> w,
                   const trncore::Options& options = {});
/// sygvd on the views; w needs n entries.
template <class T>
std::int64_t sygvd(EigJob job, Uplo uplo, trncore::MatrixView<T> a, trncore::MatrixView<T> b,
                   std::type_identity_t<std::span<T>> w, const trncore::Options& options = {});

// Mutable views convert to the const views the drivers above take (deduction does not see through the
// conversion, hence these forwarders).
template <class T>
requires(!std::is_const_v<T>) EighResult<T> eigh(trncore::MatrixView<T> a, EigJob job = EigJob::vectors,
                                                 Uplo uplo = Uplo::lower, const trncore::Options& options = {}) {
  return eigh<T>(trncore::MatrixView<const T>(a), job, uplo, options);
}
template <class T>
requires(!std::is_const_v<T>) EighResult<T> eigh(trncore::MatrixView<T> a, EigJob job, Uplo uplo, EighMethod method,
                                                 const trncore::Options& options = {}) {
  return eigh<T>(trncore::MatrixView<const T>(a), job, uplo, method, options);
}
template <class T>
requires(!std::is_const_v<T>) EighResult<T> eigh_generalized(trncore::MatrixView<T> a,
                                                             std::type_identity_t<trncore::MatrixView<const T>> b,
                                                             EigJob job = EigJob::vectors, Uplo uplo = Uplo::lower,
                                                             const trncore::Options& options = {}) {
  return eigh_generalized<T>(trncore::MatrixView<const T>(a), b, job, uplo, options);
}

}  // namespace trnsolver
