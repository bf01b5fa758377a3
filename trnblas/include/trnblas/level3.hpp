#pragma once
/// @file
/// BLAS level 3: matrix-matrix operations, BLAS++ calling style. gemm (host and sim backends) is in
/// gemm.hpp; the routines declared here run on the host backend (OpenBLAS CBLAS) only.
///
/// Conventions (as level1.hpp and level2.hpp): T is float, double, std::complex<float> or
/// std::complex<double>; every matrix is stored in `layout` (both layouts for every routine) with its
/// leading dimension; only the `uplo` triangle of symmetric, Hermitian and triangular operands is
/// referenced (and written, for C of syrk/herk/syr2k/her2k); the aliasing check treats the whole square
/// block as the operand. Quick returns follow reference BLAS (m = 0 or n = 0: nothing happens; k = 0 or
/// alpha = 0: C := beta·C).
/// Errors: InvalidArgument for an enum argument that is none of its enumerators (static_cast<Op>(7),
/// Layout(9), Uplo, Diag, Side: checked first), negative sizes, null pointers with nonzero sizes, extents
/// beyond int64, a trans that the routine does not define for the type, or a written operand sharing storage with a read
/// one; DimensionMismatch for a leading dimension below its minimum; NotSupported for sizes beyond
/// OpenBLAS's 32-bit integers, the sim backend, a math mode other than automatic or the data's own
/// precision, or a target_forward_error.
/// Accuracy: componentwise standard bounds (Higham, ASNA 2nd ed., §3.5 and §8.1), γ_n = n·u/(1 − n·u),
/// 4u in place of u for complex data. OpenBLAS's blocking and FMA change the order of operations, not
/// these bounds.

#include <trnblas/gemm.hpp>
#include <trnblas/types.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <type_traits>

namespace trnblas {

/// C := alpha·A·B + beta·C (side = left) or alpha·B·A + beta·C (side = right) with A symmetric (m×m for
/// left, n×n for right), B and C m×n. All four types (complex A is symmetric, not Hermitian: see hemm).
/// Accuracy: γ_{K+2}·(|alpha||A||B| + |beta||C|) componentwise, K = m (left) or n (right).
/// @throws InvalidArgument when C overlaps A or B; else as the file header says.
template <class T>
void symm(Layout layout, Side side, Uplo uplo, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, std::type_identity_t<T> beta, T* c,
          std::int64_t ldc, const trncore::Options& options = {});

/// symm with A Hermitian (complex data; the imaginary parts of A's diagonal are taken as zero).
template <class T>
requires is_complex_v<T>
void hemm(Layout layout, Side side, Uplo uplo, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, std::type_identity_t<T> beta, T* c,
          std::int64_t ldc, const trncore::Options& options = {});

/// C := alpha·op(A)·op(A)ᵀ + beta·C, the `uplo` triangle of n×n symmetric C, op(A) n×k: trans = no_trans
/// takes A n×k, trans = trans takes A k×n (conj_trans means trans for real data and is InvalidArgument for
/// complex data, where herk computes A·Aᴴ). Accuracy: γ_{k+2}·(|alpha||op(A)||op(A)|ᵀ + |beta||C|).
/// @throws InvalidArgument when C overlaps A.
template <class T>
void syrk(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha, const T* a,
          std::int64_t lda, std::type_identity_t<T> beta, T* c, std::int64_t ldc, const trncore::Options& options = {});

/// C := alpha·op(A)·op(A)ᴴ + beta·C with real alpha, beta, the `uplo` triangle of n×n Hermitian C
/// (complex data; op = no_trans or conj_trans, trans is InvalidArgument; C's diagonal comes out real).
/// Accuracy: γ_{k+2}·(|alpha||op(A)||op(A)|ᴴ + |beta||C|) with 4u for u.
template <class T>
requires is_complex_v<T>
void herk(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, real_type<T> alpha, const T* a,
          std::int64_t lda, real_type<T> beta, T* c, std::int64_t ldc, const trncore::Options& options = {});

/// C := alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C, the `uplo` triangle of n×n symmetric C, op(A)
/// and op(B) n×k (trans as syrk). Accuracy: γ_{2k+2}·(|alpha|(|op(A)||op(B)|ᵀ + |op(B)||op(A)|ᵀ) +
/// |beta||C|). @throws InvalidArgument when C overlaps A or B.
template <class T>
void syr2k(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha,
           const T* a, std::int64_t lda, const T* b, std::int64_t ldb, std::type_identity_t<T> beta, T* c,
           std::int64_t ldc, const trncore::Options& options = {});

/// C := alpha·op(A)·op(B)ᴴ + conj(alpha)·op(B)·op(A)ᴴ + beta·C with real beta, the `uplo` triangle of
/// n×n Hermitian C (complex data; trans as herk). Accuracy: the γ_{2k+2} bound of syr2k with 4u for u.
template <class T>
requires is_complex_v<T>
void her2k(Layout layout, Uplo uplo, Op trans, std::int64_t n, std::int64_t k, std::type_identity_t<T> alpha,
           const T* a, std::int64_t lda, const T* b, std::int64_t ldb, real_type<T> beta, T* c, std::int64_t ldc,
           const trncore::Options& options = {});

/// B := alpha·op(A)·B (side = left, A m×m) or alpha·B·op(A) (side = right, A n×n) with A triangular, B
/// m×n. Accuracy: |B̂ − B_exact| ≤ γ_{K+1}·|alpha||op(A)||B| componentwise, K = m (left) or n (right).
/// @throws InvalidArgument when B overlaps A.
template <class T>
void trmm(Layout layout, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, T* b, std::int64_t ldb,
          const trncore::Options& options = {});

/// Solves op(A)·X = alpha·B (side = left, A m×m) or X·op(A) = alpha·B (side = right, A n×n) for X,
/// overwriting B (m×n), A triangular. No singularity test (as BLAS). Accuracy (residual): |alpha·B −
/// op(A)·X̂| ≤ γ_{K+1}·|op(A)||X̂| + u·|alpha||B| componentwise (left; the mirror image for right), K = m
/// or n: Higham Thm 8.5 per column, one more rounding for kernels that multiply by a precomputed
/// reciprocal of the diagonal, and u for forming alpha·B. @throws InvalidArgument when B overlaps A.
template <class T>
void trsm(Layout layout, Side side, Uplo uplo, Op trans, Diag diag, std::int64_t m, std::int64_t n,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, T* b, std::int64_t ldb,
          const trncore::Options& options = {});

}  // namespace trnblas
