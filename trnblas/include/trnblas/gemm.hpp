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
/// Certificate (docs/trncore.md, "Certificates"; docs/trnblas.md and docs/trnblas-sim.md for the
/// hypotheses): the bound is certified only when its hypotheses hold for this call — finite read operands,
/// no value that leaves the normal range of a format the bound treats as relative (an operand below bf16's
/// range, a product below fp64's, …), no overflow, no ozaki slice cap short of the target. Compensated
/// bounds slice remainders below fp32's normal range with an absolute term, part of the certified bound;
/// without a target it certifies only while slicing and that term stay within its fp32 level (2^-20).
/// @throws trncore::InvalidArgument for an enum argument that is none of its enumerators
///         (static_cast<Op>(7), Layout(9)), negative sizes, null pointers with nonzero sizes, C overlapping
///         A or B, or invalid options; trncore::DimensionMismatch when a leading dimension is below its
///         row (column) length; trncore::NotSupported for sizes beyond OpenBLAS's 32-bit integers or a
///         mode the backend lacks; trncore::TargetNotMet whenever the report overload would return
///         met = false, with or without a target: an uncertified result (the message gives the reason,
///         naming the operand and the format) or a certified bound above target_forward_error. C then
///         holds the computed, uncertified result. Messages name the function, the values and a fix.
template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
          std::type_identity_t<T> beta, T* c, std::int64_t ldc, const trncore::Options& options = {});

/// gemm that also returns what it certifies: the bound, whether it is certified (and if not, why, in
/// report.uncertified_reason), whether the target was met (met = certified && (!target || bound <=
/// target); no TargetNotMet is thrown for a numerical outcome), the method that ran and, on sim, the
/// modelled engine cost. @throws as the overload above, except TargetNotMet.
template <class T>
void gemm(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
          std::type_identity_t<T> beta, T* c, std::int64_t ldc, const trncore::Options& options,
          trncore::AccuracyReport& report);

/// View form: C = alpha·op(A)·op(B) + beta·C; the views must share one layout.
/// @throws as the pointer form (InvalidArgument for invalid ops first), and DimensionMismatch when the
///         shapes do not conform or layouts differ.
template <class T>
void gemm(Op transa, Op transb, std::type_identity_t<T> alpha, trncore::MatrixView<const T> a,
          trncore::MatrixView<const T> b, std::type_identity_t<T> beta, trncore::MatrixView<T> c,
          const trncore::Options& options = {});

}  // namespace trnblas
