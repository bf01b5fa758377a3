#pragma once
// The LU factorization solve() refines with, in one of three precisions, and the solves it offers: in
// the factor's own precision (LU-IR's corrections) and in fp64 with the same factors (GMRES-IR's
// preconditioner, the estimators).

#include <trnsolver/solve.hpp>

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace trnsolver::detail {

/// std::allocator whose value-initialization (vector::resize) leaves the elements uninitialized: the n×n
/// copies of A below are written in full right after they are sized, so zeroing them first would be one more
/// pass over n² entries (and the page faults would come from the zeroing thread alone).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

struct Factorization {
  FactorPrecision precision = FactorPrecision::fp64;
  std::int64_t n = 0;
  std::vector<float, UninitializedAllocator<float>> low;  ///< fp32 factors (fp32 and bf16 precisions), column-major n×n
  /// The factors in double: dgetrf's for fp64; for fp32/bf16 an exact widening of `low`, made on the first
  /// solve_working (LU-IR alone never needs it, and it is twice the size of the fp32 factors). Not
  /// thread-safe: one Factorization serves one solve() call.
  mutable std::vector<double, UninitializedAllocator<double>> working;
  std::vector<std::int64_t> ipiv;  ///< 1-based row interchanges (the identity without pivoting)
  std::int64_t info = 0;           ///< 0, or the first exactly zero pivot (1-based)
  double anorm = 0.0;              ///< ‖A‖∞ of the input, from the same pass that copies it (NaN/inf if A has)
  std::string method;              ///< e.g. "LU fp32 (LAPACK sgetrf, partial pivoting)"

  /// v = Â⁻¹ v with the factor's own arithmetic (fp32 for fp32/bf16 factors, v scaled into fp32's range).
  void solve_low(double* v) const;
  /// v = Â⁻¹ v (or Â⁻ᵀ v) in fp64 arithmetic with the stored factors.
  void solve_working(double* v, bool transpose) const;
  /// Pᵀ·|L̂||Û|·1 (the row sums of |L̂||Û| in A's row order), rounded upward in effect: the magnitude the
  /// factorization's backward error is proportional to. Empty when a factor entry is subnormal, zero on the
  /// diagonal or not finite (the backward error theorems assume no underflow).
  std::vector<double> lu_magnitude() const;
  /// c with L̂Û = P(A + E), |E| ≤ c·Pᵀ|L̂||Û| entrywise, for this factorization's arithmetic (including the
  /// rounding of A to fp32 for the low precisions, which needs A's nonzero entries inside fp32's normal
  /// range: the caller checks that).
  double backward_error_constant() const;
  bool sim = false;  ///< the trailing updates ran on the sim TensorEngine
  /// Every trailing-update GEMM was certified by trnblas (else backward_error_constant() does not apply).
  bool gemms_certified = true;
};

/// Factors the column-major n×n matrix `a` (leading dimension lda). fp64 and host fp32 with pivoting use
/// LAPACK (dgetrf, sgetrf); fp32 without pivoting and every sim factorization use the blocked LU of
/// blocked_lu.hpp, whose trailing updates are trnblas GEMMs on options.backend (sim: the bf16 or fp32
/// TensorEngine mode).
Factorization factorize(std::int64_t n, const double* a, std::int64_t lda, FactorPrecision precision, bool pivoting,
                        const trncore::Options& options);

}  // namespace trnsolver::detail
