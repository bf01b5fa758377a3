#pragma once
// The seam between trnblas's public gemm (which checks arguments and dispatches on Options::backend)
// and the sim backend's GEMM with its math modes. Arguments arrive already validated.

#include <trnblas/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>

namespace trnblas::detail {

/// C = alpha·op(A)·op(B) + beta·C computed with the sim backend's TensorEngine numerics in the math mode
/// of `options` (bf16, fp16, fp8_*, tf32, fp32, sr, compensated, ozaki, automatic with
/// target_forward_error). Fills `report` (certify()/uncertify(), docs/trncore.md "Certificates"); never
/// throws for a numerical outcome: the caller decides what an unmet report means. T is float or double.
/// @throws trncore::NotSupported for a mode the sim backend lacks.
template <class T>
void sim_gemm(trncore::Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
              const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
              const trncore::Options& options, trncore::AccuracyReport& report);

}  // namespace trnblas::detail
