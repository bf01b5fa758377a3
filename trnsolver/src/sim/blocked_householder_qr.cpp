#include "sim/blocked_householder_qr.hpp"

#include "sim/block_reflector.hpp"
#include "sim/blocked_lu.hpp"  // kLuBlock: one TensorEngine tile of 128 partitions
#include "scaled_norm.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace trnsolver::detail {

namespace {

// Columns [j0, j1) of rows [j0, m): LAPACK's geqr2 — reflector j makes column j zero below the diagonal
// (slarfg: β = −sign(α)‖(α, x)‖, τ = (β − α)/β, v = x/(α − β)), then is applied to the panel's later columns.
void panel(std::int64_t m, float* a, std::int64_t lda, std::int64_t j0, std::int64_t j1, float* tau) {
  const auto at = [&](std::int64_t i, std::int64_t j) -> float& { return a[i + j * lda]; };
  for (std::int64_t j = j0; j < j1; ++j) {
    const float alpha = at(j, j);
    const float xnorm = m - j - 1 > 0 ? scaled_norm2(&at(j + 1, j), m - j - 1) : 0.0f;
    if (xnorm == 0.0f) {  // nothing below the diagonal: H = I
      tau[j] = 0.0f;
      continue;
    }
    const float norm = std::hypot(alpha, xnorm);
    const float beta = alpha >= 0.0f ? -norm : norm;
    tau[j] = (beta - alpha) / beta;
    const float scale = 1.0f / (alpha - beta);
    for (std::int64_t i = j + 1; i < m; ++i) at(i, j) *= scale;
    at(j, j) = beta;
    // A(j:m, c) −= τ·v·(vᵀA(j:m, c)) for the panel's later columns, v = (1, A(j+1:m, j)).
    for (std::int64_t c = j + 1; c < j1; ++c) {
      float w = at(j, c);
      for (std::int64_t i = j + 1; i < m; ++i) w += at(i, j) * at(i, c);
      w *= tau[j];
      at(j, c) -= w;
      for (std::int64_t i = j + 1; i < m; ++i) at(i, c) -= at(i, j) * w;
    }
  }
}

}  // namespace

void blocked_qr(std::int64_t m, std::int64_t n, float* a, std::int64_t lda, float* tau,
                const trncore::Options& gemm_options) {
  const std::int64_t kmax = std::min(m, n);
  for (std::int64_t k = 0; k < kmax; k += kLuBlock) {
    const std::int64_t kb = std::min(kLuBlock, kmax - k), rows = m - k, cols = n - k - kb;
    panel(m, a, lda, k, k + kb, tau);
    if (cols <= 0) continue;
    // C = A(k:m, k+kb:n) ← (I − V·T·Vᵀ)ᵀ·C.
    const BlockReflector h = block_reflector(rows, kb, a + k + k * lda, lda, tau + k);
    apply_block_reflector(h, true, cols, a + k + (k + kb) * lda, lda, gemm_options);
  }
}

}  // namespace trnsolver::detail
