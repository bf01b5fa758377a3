#include "mixed/blocked_qr.hpp"

#include "mixed/blocked_lu.hpp"  // kLuBlock: one TensorEngine tile of 128 partitions
#include "scaled_norm.hpp"

#include <trnblas/gemm.hpp>

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
  using trncore::Layout;
  const std::int64_t kmax = std::min(m, n);
  for (std::int64_t k = 0; k < kmax; k += kLuBlock) {
    const std::int64_t kb = std::min(kLuBlock, kmax - k), rows = m - k, cols = n - k - kb;
    panel(m, a, lda, k, k + kb, tau);
    if (cols <= 0) continue;
    // V (rows×kb, unit lower trapezoidal) explicitly, and T (kb×kb upper triangular) with
    // H_k…H_{k+kb−1} = I − V·T·Vᵀ (LAPACK's larft, forward, columnwise).
    std::vector<float> v(static_cast<std::size_t>(rows * kb), 0.0f), t(static_cast<std::size_t>(kb * kb), 0.0f);
    for (std::int64_t j = 0; j < kb; ++j) {
      v[static_cast<std::size_t>(j + j * rows)] = 1.0f;
      for (std::int64_t i = j + 1; i < rows; ++i) v[static_cast<std::size_t>(i + j * rows)] = a[(k + i) + (k + j) * lda];
    }
    for (std::int64_t j = 0; j < kb; ++j) {
      const float tj = tau[k + j];
      // t(0:j, j) = −τ_j·T(0:j, 0:j)·(V(:, 0:j)ᵀ v_j)
      std::vector<float> z(static_cast<std::size_t>(j), 0.0f);
      for (std::int64_t p = 0; p < j; ++p) {
        float s = 0.0f;
        for (std::int64_t i = j; i < rows; ++i) s += v[static_cast<std::size_t>(i + p * rows)] * v[static_cast<std::size_t>(i + j * rows)];
        z[static_cast<std::size_t>(p)] = -tj * s;
      }
      for (std::int64_t p = 0; p < j; ++p) {
        float s = 0.0f;
        for (std::int64_t q = p; q < j; ++q) s += t[static_cast<std::size_t>(p + q * kb)] * z[static_cast<std::size_t>(q)];
        t[static_cast<std::size_t>(p + j * kb)] = s;
      }
      t[static_cast<std::size_t>(j + j * kb)] = tj;
    }
    // C = A(k:m, k+kb:n) ← (I − V·T·Vᵀ)ᵀ·C = C − V·(Tᵀ·(Vᵀ·C)): two TensorEngine GEMMs around a small
    // triangular product.
    float* c = a + k + (k + kb) * lda;
    std::vector<float> w(static_cast<std::size_t>(kb * cols)), tw(w.size());
    trnblas::gemm<float>(Layout::col_major, trnblas::Op::trans, trnblas::Op::no_trans, kb, cols, rows, 1.0f, v.data(),
                         rows, c, lda, 0.0f, w.data(), kb, gemm_options);
    for (std::int64_t col = 0; col < cols; ++col)
      for (std::int64_t i = 0; i < kb; ++i) {
        float s = 0.0f;  // (Tᵀ·W)(i, col) = Σ_{p ≤ i} T(p, i)·W(p, col)
        for (std::int64_t p = 0; p <= i; ++p) s += t[static_cast<std::size_t>(p + i * kb)] * w[static_cast<std::size_t>(p + col * kb)];
        tw[static_cast<std::size_t>(i + col * kb)] = s;
      }
    trnblas::gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, rows, cols, kb, -1.0f,
                         v.data(), rows, tw.data(), kb, 1.0f, c, lda, gemm_options);
  }
}

}  // namespace trnsolver::detail
