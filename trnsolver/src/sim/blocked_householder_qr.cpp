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
// The panel is worked on as a row-major copy (row i's kb entries contiguous): the inner products vᵀA(j:m, c)
// of all later columns c run side by side over the rows (each summed over i in order), and the updates
// A(i, c) −= v_i·w_c run along the rows, both vectorizable, where the column-major panel's rows are lda apart
// (4 KiB for lda = 1024: every column in the same L1 set). Every entry sees the same operations in the same
// order as the column-by-column geqr2.
__attribute__((always_inline)) inline void panel_body(std::int64_t m, float* a, std::int64_t lda, std::int64_t j0,
                                                      std::int64_t j1, float* tau) {
  const std::int64_t rows = m - j0, kb = j1 - j0;
  if (rows <= 0 || kb <= 0) return;
  std::vector<float> pr(static_cast<std::size_t>(rows * kb)), w(static_cast<std::size_t>(kb)),
      x(static_cast<std::size_t>(rows));
  for (std::int64_t c = 0; c < kb; ++c)
    for (std::int64_t i = 0; i < rows; ++i) pr[static_cast<std::size_t>(i * kb + c)] = a[j0 + i + (j0 + c) * lda];
  const auto at = [&](std::int64_t i, std::int64_t c) -> float& { return pr[static_cast<std::size_t>(i * kb + c)]; };
  for (std::int64_t j = 0; j < kb; ++j) {
    const float alpha = at(j, j);
    const std::int64_t below = rows - j - 1;
    for (std::int64_t i = 0; i < below; ++i) x[static_cast<std::size_t>(i)] = at(j + 1 + i, j);
    const float xnorm = below > 0 ? scaled_norm2(x.data(), below) : 0.0f;
    if (xnorm == 0.0f) {  // nothing below the diagonal: H = I
      tau[j0 + j] = 0.0f;
      continue;
    }
    const float norm = std::hypot(alpha, xnorm);
    const float beta = alpha >= 0.0f ? -norm : norm;
    const float tj = (beta - alpha) / beta;
    tau[j0 + j] = tj;
    const float scale = 1.0f / (alpha - beta);
    for (std::int64_t i = j + 1; i < rows; ++i) at(i, j) *= scale;
    at(j, j) = beta;
    // A(j:m, c) −= τ·v·(vᵀA(j:m, c)) for the panel's later columns c, v = (1, A(j+1:m, j)): w_c = A(j, c) +
    // Σ_{i>j} v_i·A(i, c) for all c first (column c's product reads only columns j and c, which the other
    // columns' updates leave alone), then the updates.
    const std::int64_t c0 = j + 1, cols = kb - c0;
    if (cols <= 0) continue;
    float* ws = w.data();
    const float* rj = &at(j, c0);
    for (std::int64_t c = 0; c < cols; ++c) ws[c] = rj[c];
    for (std::int64_t i = j + 1; i < rows; ++i) {
      const float vi = at(i, j);
      const float* ri = &at(i, c0);
      for (std::int64_t c = 0; c < cols; ++c) ws[c] += vi * ri[c];
    }
    for (std::int64_t c = 0; c < cols; ++c) ws[c] *= tj;
    float* rjw = &at(j, c0);
    for (std::int64_t c = 0; c < cols; ++c) rjw[c] -= ws[c];
    for (std::int64_t i = j + 1; i < rows; ++i) {
      const float vi = at(i, j);
      float* ri = &at(i, c0);
      for (std::int64_t c = 0; c < cols; ++c) ri[c] -= vi * ws[c];
    }
  }
  for (std::int64_t c = 0; c < kb; ++c)
    for (std::int64_t i = 0; i < rows; ++i) a[j0 + i + (j0 + c) * lda] = pr[static_cast<std::size_t>(i * kb + c)];
}

// The same code for AVX2's 8-lane registers (no FMA: each product and sum rounds on its own, as in the
// baseline build compiled with -ffp-contract=off), so the two give the same bits.
__attribute__((target("avx2"))) void panel_avx2(std::int64_t m, float* a, std::int64_t lda, std::int64_t j0,
                                                std::int64_t j1, float* tau) {
  panel_body(m, a, lda, j0, j1, tau);
}

void panel_baseline(std::int64_t m, float* a, std::int64_t lda, std::int64_t j0, std::int64_t j1, float* tau) {
  panel_body(m, a, lda, j0, j1, tau);
}

}  // namespace

void blocked_qr(std::int64_t m, std::int64_t n, float* a, std::int64_t lda, float* tau,
                const trncore::Options& gemm_options) {
  blocked_qr_columns(m, std::min(m, n), n, a, lda, tau, gemm_options);
}

void blocked_qr_columns(std::int64_t m, std::int64_t k, std::int64_t n, float* a, std::int64_t lda, float* tau,
                        const trncore::Options& gemm_options) {
  const auto panel = __builtin_cpu_supports("avx2") ? panel_avx2 : panel_baseline;
  for (std::int64_t j = 0; j < k; j += kLuBlock) {
    const std::int64_t kb = std::min(kLuBlock, k - j), rows = m - j, cols = n - j - kb;
    panel(m, a, lda, j, j + kb, tau);
    if (cols <= 0) continue;
    // C = A(j:m, j+kb:n) ← (I − V·T·Vᵀ)ᵀ·C.
    const BlockReflector h = block_reflector(rows, kb, a + j + j * lda, lda, tau + j);
    apply_block_reflector(h, true, cols, a + j + (j + kb) * lda, lda, gemm_options);
  }
}

}  // namespace trnsolver::detail
