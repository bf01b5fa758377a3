#pragma once
// Blocked right-looking Cholesky A = L·Lᵀ in fp32 whose trailing updates are trnblas GEMMs with the
// caller's options (host fp32, or the sim TensorEngine modes: bf16 inputs with fp32 PSUM, fp32), the
// diagonal blocks factored in fp32 with every operation rounded on its own (the VectorEngine's arithmetic;
// this file is compiled without FMA contraction), the off-diagonal panels by fp32 triangular solves.

#include <trncore/options.hpp>

#include <cstdint>

namespace trnsolver::detail {

/// Factors the lower triangle of the column-major n×n SPD matrix `a` (leading dimension lda) in place:
/// L overwrites it, the strict upper triangle is not referenced. Returns 0, or the 1-based order of the
/// first leading minor found not positive definite (a pivot ≤ 0 or NaN), where it stops (as LAPACK's potrf).
std::int64_t blocked_cholesky(std::int64_t n, float* a, std::int64_t lda, const trncore::Options& gemm_options);

}  // namespace trnsolver::detail
