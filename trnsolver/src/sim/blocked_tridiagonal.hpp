#pragma once
// Blocked Householder reduction of a symmetric matrix to tridiagonal form A = Q·T·Qᵀ in fp32 (LAPACK sytrd's
// structure with latrd's panel, lower triangle): a panel of up to 128 columns is reduced with the pending
// two-sided update A − V·Wᵀ − W·Vᵀ applied column by column, every operation rounded on its own (the
// VectorEngine's arithmetic; compiled without FMA contraction); the trailing matrix then takes the rank-2kb
// update A −= V·Wᵀ + W·Vᵀ as two trnblas GEMMs in the caller's options (the sim TensorEngine modes).

#include <trncore/options.hpp>

#include <cstdint>
#include <vector>

namespace trnsolver::detail {

/// Reduces the column-major symmetric n×n `a` (both triangles stored, leading dimension lda) in place: d
/// (n entries) and e (n entries; e[i] couples i and i+1, e[n−1] = 0) receive T; reflector j (acting on rows
/// and columns j+1…n−1, unit head implicit) keeps its vector in a(j+2:n, j) and its scalar in tau[j] (n − 1
/// entries, tau[n−2] = 0), the layout blocked_hessenberg uses, so hessenberg_q forms Q = H_0·…·H_{n−3}.
void blocked_tridiagonal(std::int64_t n, float* a, std::int64_t lda, std::vector<float>& d, std::vector<float>& e,
                         float* tau, const trncore::Options& gemm_options);

}  // namespace trnsolver::detail
