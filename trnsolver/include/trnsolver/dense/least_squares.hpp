#pragma once
/// @file
/// Least squares and minimum-norm solutions: by QR/LQ (gels), by SVD (gelsd), and the lstsq driver.
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

/// Least squares or minimum-norm solution by QR/LQ (LAPACK ?gels) for full-rank A (m×n):
/// trans = no_trans: min ‖B − A·X‖ (m ≥ n) or the minimum-norm solution of A·X = B (m < n); trans =
/// trans: the same for Aᵀ. B is max(m, n)×nrhs: on entry the right-hand sides in its first rows, on exit
/// X in its first n (trans: m) rows; for overdetermined problems rows n… hold the residual's components
/// (their sum of squares per column is the residual norm squared). A is overwritten by its QR/LQ.
/// @return 0, or i > 0 when R(i−1, i−1) is exactly zero: A does not have full rank, no solution
///         computed (use gelsd). No exception.
/// Accuracy: the computed X solves a problem with relative backward error c·m·n·u in A and B (Higham
/// Thm 20.3).
template <class T>
std::int64_t gels(Layout layout, Op trans, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda,
                  T* b, std::int64_t ldb, const trncore::Options& options = {});

/// Minimum-norm least squares solution by SVD (LAPACK ?gelsd, divide and conquer), any rank: singular
/// values s_i ≤ rcond·s_max are treated as zero (rcond < 0: machine precision, as LAPACK). A (m×n) is
/// destroyed, B max(m, n)×nrhs as in gels; s receives min(m, n) singular values (descending), rank the
/// effective rank.
/// @return 0, or i > 0 when the SVD did not converge (i superdiagonals did not reach zero).
/// @throws InvalidArgument for a NaN rcond or non-finite A or B; else as the header.
/// Accuracy: backward stable (gesdd's bound, <trnsolver/dense/svd.hpp>); the solution is as accurate as the truncated
/// problem's conditioning s_max/s_rank allows.
template <class T>
std::int64_t gelsd(Layout layout, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                   std::int64_t ldb, T* s, std::type_identity_t<T> rcond, std::int64_t* rank,
                   const trncore::Options& options = {});

/// A least-squares solution.
template <class T>
struct LstsqResult {
  DenseMatrix<T> x;       ///< n×nrhs, in b's layout
  std::vector<T> s;       ///< singular values (method svd), empty for qr
  std::int64_t rank = 0;  ///< effective rank (svd); min(m, n) for qr when info = 0, 0 otherwise
  std::int64_t info = 0;  ///< gels's or gelsd's info
};

/// min ‖B − A·X‖ (minimum-norm X when underdetermined or rank deficient) for A m×n, B m×nrhs, leaving A
/// and B unchanged (numpy.linalg.lstsq). method = qr: gels (full rank needed; info > 0 otherwise, X zero);
/// svd: gelsd with rcond (unset: max(m, n)·ε; must not be NaN; < 0 means machine precision).
template <class T>
LstsqResult<T> lstsq(trncore::MatrixView<const T> a, std::type_identity_t<trncore::MatrixView<const T>> b,
                     LstsqMethod method = LstsqMethod::svd, std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                     const trncore::Options& options = {});

// View overloads: sizes and leading dimensions come from the views, which must all be in one layout
// (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).

/// gels on the views; b is max(m, n)×nrhs.
template <class T>
std::int64_t gels(Op trans, trncore::MatrixView<T> a, trncore::MatrixView<T> b, const trncore::Options& options = {});
/// gelsd on the views; s needs min(m, n) entries.
template <class T>
std::int64_t gelsd(trncore::MatrixView<T> a, trncore::MatrixView<T> b, std::type_identity_t<std::span<T>> s,
                   std::type_identity_t<T> rcond, std::int64_t& rank, const trncore::Options& options = {});

// Mutable views convert to the const views the drivers above take (deduction does not see through the
// conversion, hence these forwarders).
template <class T>
requires(!std::is_const_v<T>) LstsqResult<T> lstsq(trncore::MatrixView<T> a,
                                                   std::type_identity_t<trncore::MatrixView<const T>> b,
                                                   LstsqMethod method = LstsqMethod::svd,
                                                   std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                                                   const trncore::Options& options = {}) {
  return lstsq<T>(trncore::MatrixView<const T>(a), b, method, rcond, options);
}

}  // namespace trnsolver
