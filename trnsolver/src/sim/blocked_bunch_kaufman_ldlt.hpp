#pragma once
// Blocked LDLᵀ with Bunch–Kaufman diagonal pivoting in fp32 (LAPACK sytrf's structure with lasyf's panel, lower
// triangle): a panel of up to 128 columns is factored with the pending update A − L·Wᵀ (W = L·D of the
// panel's columns) applied to each column as it is needed — the pivot column and, when Bunch–Kaufman looks
// at it, the candidate column — every operation rounded on its own (the VectorEngine's arithmetic; compiled
// without FMA contraction); the trailing matrix then takes A −= L₂₁·W₂₁ᵀ as trnblas GEMMs in the caller's
// options (the sim TensorEngine modes), one 128-column block of its lower triangle at a time.

#include <trncore/options.hpp>

#include <cstdint>

namespace trnsolver::detail {

/// Factors the column-major symmetric n×n `a` (lower triangle read and written, leading dimension lda) as
/// P·A·Pᵀ = L·D·Lᵀ in LAPACK's sytrf format: D's 1×1 and 2×2 blocks on the diagonal (and subdiagonal), the
/// multipliers of each step below them in the coordinates of that step, ipiv (n entries, 1-based) > 0 for a
/// 1×1 block with rows k and ipiv[k] − 1 interchanged, ipiv[k] = ipiv[k+1] = −p for a 2×2 block with rows
/// k+1 and p − 1 interchanged. Returns 0, or the 1-based index of the first exactly zero 1×1 pivot (the
/// factorization continues, as LAPACK's).
std::int64_t blocked_ldlt(std::int64_t n, float* a, std::int64_t lda, std::int64_t* ipiv,
                          const trncore::Options& gemm_options);

}  // namespace trnsolver::detail
