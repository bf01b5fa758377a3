#pragma once
/// @file
/// BLAS level 2: matrix-vector operations on the host backend (OpenBLAS CBLAS), BLAS++ calling style.
///
/// Conventions (as level1.hpp, plus):
/// - Matrices are stored in `layout` (row- or column-major, both for every routine) with leading
///   dimension lda ≥ max(1, row length) (row-major) or ≥ max(1, column length) (column-major).
/// - Symmetric, Hermitian and triangular matrices are n×n; only the `uplo` triangle is referenced (and
///   for Diag::unit not the diagonal), the other triangle may hold anything. The aliasing check treats
///   the whole n×n block as the operand.
/// - Errors: InvalidArgument for an enum argument that is none of its enumerators (static_cast<Op>(7),
///   Layout(9), Uplo, Diag: checked first), negative sizes, incx/incy = 0, null pointers with nonzero sizes, extents
///   beyond int64, or a written operand sharing storage with a read one; DimensionMismatch for lda below
///   its minimum; NotSupported as in level1.hpp (32-bit OpenBLAS limits, sim backend, math mode, target).
/// - Quick returns follow reference BLAS: gemv and symv/hemv with m = 0 or n = 0 return without
///   touching y, even when beta ≠ 1.
/// - Accuracy: componentwise standard bounds (Higham, ASNA 2nd ed., §3.5 and §8.1), γ_n = n·u/(1 − n·u),
///   4u in place of u for complex data.

#include <trnblas/detail/view_checks.hpp>
#include <trnblas/types.hpp>
#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <type_traits>

namespace trnblas {

/// y := alpha·op(A)·x + beta·y with A m×n (op(A) m×n for no_trans, n×m otherwise); beta = 0 does not
/// read y. Accuracy: |ŷ − y| ≤ γ_{K+2}·(|alpha||op(A)||x| + |beta||y|) componentwise, K = the length of
/// x. @throws InvalidArgument when y overlaps A or x; else as the file header says.
template <class T>
void gemv(Layout layout, Op trans, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* a,
          std::int64_t lda, const T* x, std::int64_t incx, std::type_identity_t<T> beta, T* y, std::int64_t incy,
          const trncore::Options& options = {});

/// y := alpha·A·x + beta·y with A n×n symmetric (real data; for complex Hermitian A use hemv).
/// Accuracy: γ_{n+2}·(|alpha||A||x| + |beta||y|) componentwise.
template <class T>
requires std::is_floating_point_v<T>
void symv(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* a, std::int64_t lda,
          const T* x, std::int64_t incx, std::type_identity_t<T> beta, T* y, std::int64_t incy,
          const trncore::Options& options = {});

/// y := alpha·A·x + beta·y with A n×n Hermitian (complex data; the imaginary parts of its diagonal are
/// taken as zero). Accuracy: γ_{n+2}·(|alpha||A||x| + |beta||y|) componentwise, 4u for u.
template <class T>
requires is_complex_v<T>
void hemv(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* a, std::int64_t lda,
          const T* x, std::int64_t incx, std::type_identity_t<T> beta, T* y, std::int64_t incy,
          const trncore::Options& options = {});

/// x := op(A)·x with A n×n triangular. Accuracy: |x̂ − op(A)x| ≤ γ_n·|op(A)||x| componentwise.
/// @throws InvalidArgument when x overlaps A.
template <class T>
void trmv(Layout layout, Uplo uplo, Op trans, Diag diag, std::int64_t n, const T* a, std::int64_t lda, T* x,
          std::int64_t incx, const trncore::Options& options = {});

/// Solves op(A)·x = b for x, b given in x, with A n×n triangular. No singularity test (as BLAS): a zero
/// diagonal element gives inf/NaN. Accuracy (backward): (op(A) + ΔA)·x̂ = b with |ΔA| ≤ γ_{n+1}·|op(A)|
/// (Higham Thm 8.5's γ_n, plus one rounding for kernels that multiply by a precomputed reciprocal of the
/// diagonal). @throws InvalidArgument when x overlaps A.
template <class T>
void trsv(Layout layout, Uplo uplo, Op trans, Diag diag, std::int64_t n, const T* a, std::int64_t lda, T* x,
          std::int64_t incx, const trncore::Options& options = {});

/// A := alpha·x·yᵀ + A with A m×n, x of m and y of n elements (real data; complex: geru/gerc).
/// Accuracy: γ₃·(|alpha||x||y|ᵀ + |A|) componentwise. @throws InvalidArgument when A overlaps x or y.
template <class T>
requires std::is_floating_point_v<T>
void ger(Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
         const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options = {});

/// A := alpha·x·yᵀ + A (unconjugated) for complex data. Accuracy: γ₃ bound of ger with 4u for u.
template <class T>
requires is_complex_v<T>
void geru(Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options = {});

/// A := alpha·x·yᴴ + A (y conjugated) for complex data. Accuracy: γ₃ bound of ger with 4u for u.
template <class T>
requires is_complex_v<T>
void gerc(Layout layout, std::int64_t m, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options = {});

/// A := alpha·x·xᵀ + A, the `uplo` triangle of n×n symmetric A (real data).
/// Accuracy: γ₃·(|alpha||x||x|ᵀ + |A|) componentwise.
template <class T>
requires std::is_floating_point_v<T>
void syr(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx, T* a,
         std::int64_t lda, const trncore::Options& options = {});

/// A := alpha·x·yᵀ + alpha·y·xᵀ + A, the `uplo` triangle of n×n symmetric A (real data).
/// Accuracy: γ₄·(|alpha|(|x||y|ᵀ + |y||x|ᵀ) + |A|) componentwise.
template <class T>
requires std::is_floating_point_v<T>
void syr2(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options = {});

/// A := alpha·x·xᴴ + A with real alpha, the `uplo` triangle of n×n Hermitian A (complex data; the
/// diagonal's imaginary parts are set to zero). Accuracy: γ₃ bound of syr with 4u for u.
template <class T>
requires is_complex_v<T>
void her(Layout layout, Uplo uplo, std::int64_t n, real_type<T> alpha, const T* x, std::int64_t incx, T* a,
         std::int64_t lda, const trncore::Options& options = {});

/// A := alpha·x·yᴴ + conj(alpha)·y·xᴴ + A, the `uplo` triangle of n×n Hermitian A (complex data).
/// Accuracy: γ₄ bound of syr2 with 4u for u.
template <class T>
requires is_complex_v<T>
void her2(Layout layout, Uplo uplo, std::int64_t n, std::type_identity_t<T> alpha, const T* x, std::int64_t incx,
          const T* y, std::int64_t incy, T* a, std::int64_t lda, const trncore::Options& options = {});

/// View form of gemv: y := alpha·op(A)·x + beta·y, the layout taken from A.
/// @throws DimensionMismatch when x or y does not conform to op(A); else as the pointer form.
template <class A, class X, class T>
void gemv(Op trans, std::type_identity_t<T> alpha, trncore::MatrixView<A> a, trncore::VectorView<X> x,
          std::type_identity_t<T> beta, trncore::VectorView<T> y, const trncore::Options& options = {}) {
  static_assert(std::is_same_v<std::remove_const_t<A>, T> && std::is_same_v<std::remove_const_t<X>, T>,
                "trnblas::gemv: A, x and y must hold the same type");
  detail::check_op("trnblas::gemv", "trans", trans);
  const bool t = trans != Op::no_trans;
  detail::check_same_size("trnblas::gemv", "x", x.size(), t ? "op(A)'s columns = A's rows" : "A's columns",
                          t ? a.rows() : a.cols());
  detail::check_same_size("trnblas::gemv", "y", y.size(), t ? "op(A)'s rows = A's columns" : "A's rows",
                          t ? a.cols() : a.rows());
  gemv<T>(a.layout(), trans, a.rows(), a.cols(), alpha, a.data(), a.ld(), x.data(), x.inc(), beta, y.data(), y.inc(),
          options);
}

}  // namespace trnblas
