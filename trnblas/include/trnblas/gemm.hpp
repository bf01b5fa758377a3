#pragma once
/// @file
/// General matrix multiply, C = alpha·op(A)·op(B) + beta·C, on the host (OpenBLAS) or the sim backend
/// (the modelled TensorEngine with trnblas's math modes; docs/trnblas-sim.md).

#include <trnblas/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <complex>
#include <cstdint>

namespace trnblas {

/// C = alpha·op(A)·op(B) + beta·C with op(A) m×k, op(B) k×n, C m×n, stored in `layout` with leading
/// dimensions lda, ldb, ldc (BLAS semantics: m = 0 or n = 0 returns at once; k = 0 or alpha = 0 only
/// scales C; beta = 0 does not read C).
///
/// T: float, double, std::complex<float>, std::complex<double>.
/// Backends (options.backend):
/// - host: OpenBLAS ?gemm. Accuracy: |Ĉ − C| ≤ γ_{k+2}·(|α||op(A)||op(B)| + |β||C|) componentwise, γ_n =
///   n·u/(1 − n·u) (Higham, ASNA 2nd ed. §3.5). options.math_mode must be automatic, fp64 (double types)
///   or fp32 (float types).
/// - sim (float, double): the math mode's TensorEngine algorithm with the componentwise bound of
///   docs/trnblas-sim.md; with options.target_forward_error and MathMode::automatic, the cheapest mode
///   whose bound meets it. Complex types on sim throw NotSupported.
/// @throws trncore::InvalidArgument for negative sizes, null pointers with nonzero sizes, C overlapping A
///         or B, or invalid options; trncore::DimensionMismatch when a leading dimension is below its
///         row (column) length; trncore::NotSupported for sizes beyond OpenBLAS's 32-bit integers or a
///         mode the backend lacks; trncore::TargetNotMet when a target cannot be certified. Messages
///         name the function, the values and a fix.
template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
          const trncore::Options& options = {});

/// gemm that also returns what it certifies: the bound, whether the target was met (no TargetNotMet is
/// thrown; check report.met), the method that ran and, on sim, the modelled engine cost.
template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
          const trncore::Options& options, trncore::AccuracyReport& report);

/// View form: C = alpha·op(A)·op(B) + beta·C; the views must share one layout.
/// @throws as the pointer form, and DimensionMismatch when the shapes do not conform or layouts differ.
template <class T>
void gemm(Op transa, Op transb, T alpha, trncore::MatrixView<const T> a, trncore::MatrixView<const T> b, T beta,
          trncore::MatrixView<T> c, const trncore::Options& options = {});

}  // namespace trnblas
