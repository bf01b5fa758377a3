#pragma once
// Blocked reduction to upper Hessenberg form A = Q·H·Qᵀ in fp32 (LAPACK gehrd's structure, lahr2's panel):
// each panel of up to 128 columns is reduced with the running right update A·(I − V·T·Vᵀ) = A − Y·Vᵀ kept as
// Y = A·V·T, every operation of the panel rounded on its own (the VectorEngine's arithmetic; compiled without
// FMA contraction); the trailing matrix then takes the right update A −= Y·Vᵀ and the left update
// (I − V·T·Vᵀ)ᵀ·A as trnblas GEMMs in the caller's options (the sim TensorEngine modes).

#include <trncore/options.hpp>

#include <cstdint>

namespace trnsolver::detail {

/// Reduces the column-major n×n `a` (leading dimension lda) in place: H on and above the subdiagonal, the
/// vector of reflector j (acting on rows/columns j+1…n−1, unit head implicit) in a(j+2:n, j), its scalar in
/// tau[j] (n − 1 entries; tau[n−2] = 0). Q = H_0·H_1·…·H_{n−3}.
void blocked_hessenberg(std::int64_t n, float* a, std::int64_t lda, float* tau, const trncore::Options& gemm_options);

/// Forms Q (column-major n×n, ldq) from blocked_hessenberg's reflectors, the blocks applied to the identity
/// as GEMMs in the caller's options.
void hessenberg_q(std::int64_t n, const float* a, std::int64_t lda, const float* tau, float* q, std::int64_t ldq,
                  const trncore::Options& gemm_options);

}  // namespace trnsolver::detail
