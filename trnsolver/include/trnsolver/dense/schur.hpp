#pragma once
/// @file
/// Real Schur decomposition of a general square matrix (gees, schur).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace trnsolver {

/// Real Schur form A = Z·T·Zᵀ (LAPACK ?gees, no sorting): T (overwriting A) is quasi upper triangular
/// with 1×1 blocks and 2×2 blocks in standard form (equal diagonal entries, off-diagonals of opposite
/// sign) for complex pairs; Z (n×n orthogonal, in vs; job = vectors) holds the Schur vectors. Eigenvalues
/// wr[i] + i·wi[i] in T's diagonal order, complex conjugate pairs adjacent with wi > 0 first.
/// @return 0, or i > 0 when the QR algorithm failed to compute all eigenvalues (wr/wi i… hold those that
///         converged, as LAPACK).
/// @throws InvalidArgument for non-finite A; vs null with job = vectors and n > 0; else as the header.
/// Accuracy: Z·T̂·Zᵀ = A + ΔA, ‖ΔA‖₂ ≤ p(n)·u·‖A‖₂, Z orthogonal to p(n)·u (Users' Guide §4.8).
template <class T>
std::int64_t gees(Layout layout, EigJob job, std::int64_t n, T* a, std::int64_t lda, std::type_identity_t<T>* wr,
                  std::type_identity_t<T>* wi, std::type_identity_t<T>* vs, std::int64_t ldvs,
                  const trncore::Options& options = {});

/// A real Schur decomposition.
template <class T>
struct SchurResult {
  ///@{
  /// Quasi upper triangular T and orthogonal Z, A = Z·T·Zᵀ.
  DenseMatrix<T> t, z;
  ///@}
  ///@{
  /// Eigenvalues wr[i] + i·wi[i] (complex pairs adjacent, positive imaginary part first).
  std::vector<T> wr, wi;
  ///@}
  std::int64_t info = 0;  ///< gees's info: 0, or > 0 when the QR algorithm did not converge
};

/// The real Schur decomposition of the square A (not modified). As gees with vectors.
template <class T>
SchurResult<T> schur(trncore::MatrixView<const T> a, const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// gees on the views; wr and wi need n entries; vs is ignored for values_only.
template <class T>
std::int64_t gees(EigJob job, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> wr,
                  std::type_identity_t<std::span<T>> wi, trncore::MatrixView<T> vs,
                  const trncore::Options& options = {});

// Mutable views convert to the const views the drivers above take (deduction does not see through the
// conversion, hence these forwarders).
template <class T>
requires(!std::is_const_v<T>) SchurResult<T> schur(trncore::MatrixView<T> a, const trncore::Options& options = {}) {
  return schur<T>(trncore::MatrixView<const T>(a), options);
}

}  // namespace trnsolver
