#pragma once
/// @file
/// Sparse direct solvers through SuiteSparse: Cholesky (CHOLMOD), LU (UMFPACK) and QR / least squares
/// (SPQR). Each is an RAII object that analyses and factors once and then solves any number of
/// right-hand sides (factor reuse); the factorization runs in double (SuiteSparse's real type).
///
/// Numerical failure is a result, not an exception (DESIGN.md §5.3): a matrix that is not positive
/// definite, or singular, gives info() > 0, and solve() then throws trncore::InvalidArgument telling the
/// caller to check info() first.
///
/// Accuracy: all three are backward stable. For Cholesky and LU the computed x̂ solves (A + ΔA)x̂ = b
/// with |ΔA| ≤ c·n·u·|L||U| (Higham, ASNA §9.3, §10.1; threshold partial pivoting in UMFPACK keeps
/// |L| bounded by 1/threshold); the normwise backward error ‖b − Ax̂‖/(‖A‖‖x̂‖ + ‖b‖) is observed at
/// O(u) on well-scaled matrices, which the tests check.
///
/// Right-hand sides and solutions are dense row-major rows×nrhs arrays (nrhs = 1: plain vectors).

#include <trnsparse/formats.hpp>

#include <cstdint>
#include <memory>
#include <span>

namespace trnsparse {

/// Fill-reducing ordering of a direct factorization.
enum class Ordering : std::uint8_t {
  automatic,  ///< the library's default (CHOLMOD: AMD, then METIS if installed and better; UMFPACK: AMD/COLAMD;
              ///< SPQR: COLAMD or AMD(AᵀA))
  natural,    ///< no reordering (for tests and for matrices already ordered)
  amd,        ///< approximate minimum degree (COLAMD for UMFPACK's unsymmetric strategy)
};

/// Sparse Cholesky A = P L Lᵀ Pᵀ of a symmetric positive definite matrix (CHOLMOD, supernodal or
/// simplicial as CHOLMOD chooses). Only the lower triangle of A (entries with column ≤ row) is read;
/// entries above the diagonal are ignored, so a full symmetric matrix or its lower half both work.
class Cholesky {
 public:
  /// Analyses and factors `a` (square). info() > 0 when a leading minor of the reordered matrix is not
  /// positive definite (info = its 1-based order, as LAPACK's potrf).
  /// @throws trncore::InvalidArgument for an invalid or non-square `a`, a nonfinite value, or an ordering
  ///         that is not an Ordering value.
  template <class T, class I>
  explicit Cholesky(const Csr<T, I>& a, Ordering ordering = Ordering::automatic)
      : Cholesky(convert<double, std::int64_t>(a), ordering, 0) {}
  ~Cholesky();
  /// Takes over other's factorization. The moved-from object may only be destroyed or assigned to.
  Cholesky(Cholesky&&) noexcept;
  /// Frees this factorization, then takes over other's (the moved-from object: as the move constructor).
  Cholesky& operator=(Cholesky&&) noexcept;

  /// 0 on success; k > 0 when the leading minor of order k is not positive definite.
  int info() const noexcept;
  /// The matrix order n.
  std::int64_t size() const noexcept;
  /// Entries of the factor L (including fill), a measure of the ordering's quality.
  std::int64_t factor_nonzeros() const noexcept;
  /// Refactors a matrix with the same pattern reusing the symbolic analysis (numeric values only).
  /// @throws trncore::InvalidArgument when the pattern differs from the analysed one.
  template <class T, class I>
  void refactor(const Csr<T, I>& a) {
    refactor_impl(convert<double, std::int64_t>(a));
  }
  /// Solves A X = B for nrhs right-hand sides (B and X row-major n×nrhs; X may alias B).
  /// @throws trncore::InvalidArgument when info() != 0; trncore::DimensionMismatch for wrong lengths.
  void solve(std::span<const double> b, std::span<double> x, std::int64_t nrhs = 1) const;

 private:
  Cholesky(const Csr<double, std::int64_t>& a, Ordering ordering, int);
  void refactor_impl(const Csr<double, std::int64_t>& a);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Sparse LU P A Q = L U of a square matrix (UMFPACK, threshold partial pivoting).
class Lu {
 public:
  /// Analyses and factors `a`. info() > 0 when A is singular to working precision (info = the number of
  /// zero pivots in U).
  /// @throws trncore::InvalidArgument for an invalid or non-square `a`, a nonfinite value, or an ordering
  ///         that is not an Ordering value.
  template <class T, class I>
  explicit Lu(const Csr<T, I>& a, Ordering ordering = Ordering::automatic)
      : Lu(convert<double, std::int64_t>(a), ordering, 0) {}
  ~Lu();
  /// Takes over other's factorization. The moved-from object may only be destroyed or assigned to.
  Lu(Lu&&) noexcept;
  /// Frees this factorization, then takes over other's (the moved-from object: as the move constructor).
  Lu& operator=(Lu&&) noexcept;

  /// 0 on success; k > 0 when U has k zero pivots (A singular).
  int info() const noexcept;
  /// The matrix order n.
  std::int64_t size() const noexcept;
  /// UMFPACK's estimate of the reciprocal condition number, min|u_ii| / max|u_ii| (cheap and rough).
  double rcond_estimate() const noexcept;
  /// Solves op(A) X = B (op = A or Aᵀ) for nrhs right-hand sides (row-major n×nrhs).
  /// @throws trncore::InvalidArgument when info() != 0; trncore::DimensionMismatch for wrong lengths.
  void solve(std::span<const double> b, std::span<double> x, std::int64_t nrhs = 1, bool transpose = false) const;

 private:
  Lu(const Csr<double, std::int64_t>& a, Ordering ordering, int);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Sparse QR A E = Q R of an m×n matrix (SPQR, rank-revealing with SPQR's default column tolerance), for
/// least squares min‖Ax − b‖₂ (m ≥ n) and square solves.
class Qr {
 public:
  /// Factors `a` (m ≥ n).
  /// @throws trncore::InvalidArgument for an invalid `a`, m < n, a nonfinite value, or an invalid ordering.
  template <class T, class I>
  explicit Qr(const Csr<T, I>& a, Ordering ordering = Ordering::automatic)
      : Qr(convert<double, std::int64_t>(a), ordering, 0) {}
  ~Qr();
  /// Takes over other's factorization. The moved-from object may only be destroyed or assigned to.
  Qr(Qr&&) noexcept;
  /// Frees this factorization, then takes over other's (the moved-from object: as the move constructor).
  Qr& operator=(Qr&&) noexcept;

  /// SPQR's rank estimate; rank() < cols() means A is rank deficient and solve() returns a basic solution.
  std::int64_t rank() const noexcept;
  /// m, the rows of A.
  std::int64_t rows() const noexcept;
  /// n, the columns of A.
  std::int64_t cols() const noexcept;
  /// info() = cols() − rank(): 0 for full column rank.
  int info() const noexcept;
  /// The least-squares solution X (n×nrhs) of min‖A X − B‖_F for B m×nrhs (row-major):
  /// X = E·(R \ (Qᵀ B)). Accuracy: backward stable (Higham, ASNA §20.3).
  /// @throws trncore::DimensionMismatch for wrong lengths.
  void solve(std::span<const double> b, std::span<double> x, std::int64_t nrhs = 1) const;

 private:
  Qr(const Csr<double, std::int64_t>& a, Ordering ordering, int);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trnsparse
