#pragma once
// The compact-WY form H_0·H_1·…·H_{kb−1} = I − V·T·Vᵀ of kb consecutive Householder reflectors in LAPACK's
// geqrf storage (LAPACK's larft, forward and columnwise) and its application to a matrix from the left
// (larfb), with the two large products as trnblas GEMMs in the caller's options (host fp32 or the sim
// TensorEngine modes) and the small triangular product with T in fp32, every operation rounded on its own
// (the VectorEngine's arithmetic; compiled without FMA contraction). Shared by the blocked QR's trailing
// updates and the sim backend's consumers of its reflectors (least squares, basis completion, Hessenberg).

#include <trncore/options.hpp>

#include <cstdint>
#include <vector>

namespace trnsolver::detail {

/// V (rows×kb, column-major, unit lower trapezoidal, explicit) and T (kb×kb upper triangular) of kb
/// reflectors.
struct BlockReflector {
  std::int64_t rows = 0, kb = 0;
  std::vector<float> v, t;
};

/// The block reflector of the kb reflectors whose vectors lie below the diagonal of the column-major
/// rows×kb block at `a` (leading dimension lda; the diagonal's unit heads implicit), with scalars tau[0..kb).
BlockReflector block_reflector(std::int64_t rows, std::int64_t kb, const float* a, std::int64_t lda, const float* tau);

/// C ← Hᵀ·C (transpose, Qᵀ's block: applies H_{kb−1}…H_0 in that order) or C ← H·C (not transpose) for the
/// column-major rows×cols block C at c (leading dimension ldc), H = I − V·T·Vᵀ.
void apply_block_reflector(const BlockReflector& h, bool transpose, std::int64_t cols, float* c, std::int64_t ldc,
                           const trncore::Options& gemm_options);

/// C ← Qᵀ·C (transpose) or Q·C for Q = H_0·…·H_{k−1} from k reflectors of a geqrf-style factorization of a
/// column-major m×k' matrix (a, lda; k ≤ min(m, k')), C column-major m×cols (c, ldc): the blocks of 128
/// reflectors applied in order (Qᵀ) or in reverse order (Q), each as apply_block_reflector on rows [j, m).
void apply_q(bool transpose, std::int64_t m, std::int64_t k, const float* a, std::int64_t lda, const float* tau,
             std::int64_t cols, float* c, std::int64_t ldc, const trncore::Options& gemm_options);

/// Completes the column-major m×m q (leading dimension ldq), whose columns [0, k) are orthonormal, to an
/// orthogonal matrix: columns [k, m) become Q(:, k:m) of the blocked QR Q·R of q(:, 0:k) (the columns of Q
/// past k are orthogonal to the range of the first k). k = 0 gives the identity.
void complete_basis(std::int64_t m, std::int64_t k, float* q, std::int64_t ldq, const trncore::Options& gemm_options);

}  // namespace trnsolver::detail
