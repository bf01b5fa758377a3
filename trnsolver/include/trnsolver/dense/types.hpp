#pragma once
/// @file
/// The types every dense routine shares: the enums of their arguments with their names, and DenseMatrix, the
/// owned matrix the drivers return. Part of <trnsolver/dense.hpp>.

#include <trnblas/types.hpp>
#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace trnsolver {

using trnblas::Diag;
using trnblas::Op;
using trnblas::Side;
using trnblas::Uplo;
using trncore::Layout;

/// What an SVD computes (LAPACK gesdd's jobz): singular values only ('N'), the thin factors U m×k and
/// Vᵀ k×n with k = min(m, n) ('S'), or the full square U m×m and Vᵀ n×n ('A').
enum class Job : std::uint8_t { values_only, thin, full };
/// What an eigensolver or Schur decomposition computes: eigenvalues only, or vectors too (jobz 'N'/'V').
enum class EigJob : std::uint8_t { values_only, vectors };
/// A matrix norm (LAPACK lange's norm): one = max column sum, inf = max row sum, fro = Frobenius,
/// max = largest absolute entry (not a consistent matrix norm).
enum class Norm : std::uint8_t { one, inf, fro, max };
/// How lstsq solves: QR (gels; A must have full rank) or SVD (gelsd; any rank, minimum-norm solution).
enum class LstsqMethod : std::uint8_t { qr, svd };
/// Which algorithm syevd/eigh run on the sim backend (the host backend always runs LAPACK's syevd): cyclic
/// Jacobi (eigenvalues of graded matrices to high relative accuracy; O(n³) work per sweep, all VectorEngine),
/// blocked Householder tridiagonalization + implicit QL + back transformation (the scalable path: O(n³) once,
/// the reduction's trailing updates and the back transformation as TensorEngine GEMMs; absolute accuracy
/// u·‖A‖), or automatic: Jacobi up to n = 128 (one tile), tridiagonal beyond.
enum class EighMethod : std::uint8_t { automatic, jacobi, tridiagonal };
/// How inv_sqrt_spd computes A^{-1/2}: from the eigendecomposition (syevd), or by the coupled
/// Newton–Schulz iteration (GEMMs only, the Trainium-friendly form).
enum class InvSqrtMethod : std::uint8_t { eigh, newton_schulz };

/// "values_only", "thin", "full". Never throws.
std::string_view to_string(Job job) noexcept;
/// "values_only", "vectors". Never throws.
std::string_view to_string(EigJob job) noexcept;
/// "one", "inf", "fro", "max". Never throws.
std::string_view to_string(Norm norm) noexcept;
/// "qr", "svd". Never throws.
std::string_view to_string(LstsqMethod method) noexcept;
/// "eigh", "newton_schulz". Never throws.
std::string_view to_string(InvSqrtMethod method) noexcept;
/// "automatic", "jacobi", "tridiagonal". Never throws.
std::string_view to_string(EighMethod method) noexcept;
///@{
/// Parse to_string's names. @throws trncore::ParseError naming the text and the accepted names.
Job parse_job(std::string_view text);
EigJob parse_eig_job(std::string_view text);
Norm parse_norm(std::string_view text);
LstsqMethod parse_lstsq_method(std::string_view text);
InvSqrtMethod parse_inv_sqrt_method(std::string_view text);
EighMethod parse_eigh_method(std::string_view text);
///@}

/// An owned dense rows×cols matrix in `layout` with ld = cols (row-major) or rows (column-major), at
/// least 1: what the convenience drivers return.
template <class T>
struct DenseMatrix {
  std::vector<T> data;  ///< the elements, rows·cols of them, in `layout` with leading dimension ld()
  ///@{
  /// The shape.
  std::int64_t rows = 0, cols = 0;
  ///@}
  Layout layout = Layout::row_major;  ///< row-major or column-major storage

  DenseMatrix() = default;
  /// A zero-filled rows×cols matrix. @throws trncore::InvalidArgument for negative sizes.
  DenseMatrix(std::int64_t rows, std::int64_t cols, Layout layout);
  /// The leading dimension: cols (row-major) or rows (column-major), at least 1.
  std::int64_t ld() const noexcept {
    const std::int64_t l = layout == Layout::row_major ? cols : rows;
    return l > 0 ? l : 1;
  }
  /// Element (i, j), unchecked (0 ≤ i < rows, 0 ≤ j < cols).
  T& operator()(std::int64_t i, std::int64_t j) noexcept {
    return data[static_cast<std::size_t>(layout == Layout::row_major ? i * ld() + j : i + j * ld())];
  }
  /// Element (i, j), read-only, unchecked.
  const T& operator()(std::int64_t i, std::int64_t j) const noexcept {
    return data[static_cast<std::size_t>(layout == Layout::row_major ? i * ld() + j : i + j * ld())];
  }
  /// A view of the matrix (valid while it lives and data is not reallocated), for the view overloads.
  trncore::MatrixView<T> view() { return {data.data(), rows, cols, ld(), layout}; }
  /// A read-only view of the matrix.
  trncore::MatrixView<const T> view() const { return {data.data(), rows, cols, ld(), layout}; }
};

}  // namespace trnsolver
