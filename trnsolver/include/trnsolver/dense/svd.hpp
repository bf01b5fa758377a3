#pragma once
/// @file
/// Singular value decomposition (gesdd, svd) and the pseudo-inverse (pinv).
/// Part of <trnsolver/dense.hpp>, whose file comment states the conventions every dense routine follows
/// (layouts, 1-based pivots, info for numerical outcomes, the errors thrown for bad arguments, the accuracy
/// notation); "as the header" below refers to them. Full reference: docs/trnsolver-dense.md.

#include <trnsolver/dense/types.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace trnsolver {

/// Singular value decomposition A = U·Σ·Vᵀ by divide and conquer (LAPACK ?gesdd). A (m×n) is destroyed;
/// s receives k = min(m, n) singular values, descending. job = values_only: u, vt not referenced (may be
/// null); thin: U m×k in u (ldu), Vᵀ k×n in vt (ldvt); full: U m×m, Vᵀ n×n.
/// @return 0, or i > 0 when the bidiagonal SVD did not converge.
/// @throws InvalidArgument for non-finite A; else as the header.
/// Accuracy: Û·Σ̂·V̂ᵀ = A + ΔA with ‖ΔA‖₂ ≤ p(m,n)·u·‖A‖₂ and |σ̂_i − σ_i| ≤ p(m,n)·u·σ_1; Û, V̂
/// orthogonal to p(m,n)·u (LAPACK Users' Guide §4.9, p modest). Row-major: no copy (the SVD of the
/// stored transpose with U and Vᵀ exchanged).
template <class T>
std::int64_t gesdd(Layout layout, Job job, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* s,
                   std::type_identity_t<T>* u, std::int64_t ldu, std::type_identity_t<T>* vt, std::int64_t ldvt,
                   const trncore::Options& options = {});

/// An SVD: s (k = min(m, n), descending), U and Vᵀ (empty for Job::values_only; m×k and k×n for thin;
/// m×m and n×n for full) in the input's layout, and gesdd's info.
template <class T>
struct SvdResult {
  std::vector<T> s;  ///< the k singular values, descending
  ///@{
  /// U and Vᵀ (see above; empty for Job::values_only).
  DenseMatrix<T> u, vt;
  ///@}
  std::int64_t info = 0;  ///< gesdd's info: 0, or > 0 when the iteration did not converge
};

/// The SVD of A (A is not modified; a copy is factored). As gesdd.
template <class T>
SvdResult<T> svd(trncore::MatrixView<const T> a, Job job = Job::thin, const trncore::Options& options = {});

/// A pseudo-inverse and the rank it used.
template <class T>
struct PinvResult {
  DenseMatrix<T> x;  ///< n×m, in the input's layout
  /// Singular values above the threshold rcond·s_max (0 when info > 0).
  std::int64_t rank = 0;
  std::int64_t info = 0;  ///< gesdd's info; x is zero when it is > 0
};

/// The Moore–Penrose pseudo-inverse A⁺ = V·Σ⁺·Uᵀ from the thin SVD: singular values s_i ≤ rcond·s_max are
/// treated as zero. rcond unset: max(m, n)·ε (numpy's default); must be ≥ 0 and not NaN.
/// Accuracy: A⁺ of a matrix within the SVD's backward error of A; the error in A⁺ grows with
/// s_max/s_rank (the retained condition number).
template <class T>
PinvResult<T> pinv(trncore::MatrixView<const T> a, std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                   const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// gesdd on the views; s needs min(m, n) entries; u and vt are ignored for values_only.
template <class T>
std::int64_t gesdd(Job job, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> s, trncore::MatrixView<T> u,
                   trncore::MatrixView<T> vt, const trncore::Options& options = {});

// Mutable views convert to the const views the drivers above take (deduction does not see through the
// conversion, hence these forwarders).
template <class T>
requires(!std::is_const_v<T>) SvdResult<T> svd(trncore::MatrixView<T> a, Job job = Job::thin,
                                               const trncore::Options& options = {}) {
  return svd<T>(trncore::MatrixView<const T>(a), job, options);
}
template <class T>
requires(!std::is_const_v<T>) PinvResult<T> pinv(trncore::MatrixView<T> a,
                                                 std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                                                 const trncore::Options& options = {}) {
  return pinv<T>(trncore::MatrixView<const T>(a), rcond, options);
}

}  // namespace trnsolver
