#pragma once
// Blocked Householder QR in fp32 (LAPACK's geqrf layout: R on and above the diagonal, the reflectors' vectors
// below it with an implicit unit head, tau per reflector) whose trailing updates — the compact-WY
// application (I − V·T·Vᵀ)ᵀ·C — are trnblas GEMMs with the caller's options (host fp32, or the sim
// TensorEngine modes), the 128-column panels factored in fp32 with every operation rounded on its own (the
// VectorEngine's arithmetic; compiled without FMA contraction).

#include <trncore/options.hpp>

#include <cstdint>

namespace trnsolver::detail {

/// Factors the column-major m×n `a` (leading dimension lda) in place; tau receives min(m, n) scalars.
void blocked_qr(std::int64_t m, std::int64_t n, float* a, std::int64_t lda, float* tau,
                const trncore::Options& gemm_options);

/// Factors the first k ≤ min(m, n) columns of the column-major m×n `a` (leading dimension lda) in place as
/// blocked_qr does (tau receives k scalars) and applies Qᵀ to the other n − k columns with the same blocked
/// trailing updates: those columns end as Qᵀ·A(:, k:n), the same values (bit for bit) as apply_q(true, …) on
/// them after blocked_qr of the first k columns, since every GEMM entry depends only on its own column.
void blocked_qr_columns(std::int64_t m, std::int64_t k, std::int64_t n, float* a, std::int64_t lda, float* tau,
                        const trncore::Options& gemm_options);

}  // namespace trnsolver::detail
