#include "sim/block_reflector.hpp"
#include "internal_gemm.hpp"

#include "sim/blocked_lu.hpp"  // kLuBlock: one TensorEngine tile of 128 partitions
#include "sim/blocked_householder_qr.hpp"

#include <trnblas/gemm.hpp>

#include <algorithm>

namespace trnsolver::detail {

BlockReflector block_reflector(std::int64_t rows, std::int64_t kb, const float* a, std::int64_t lda, const float* tau) {
  BlockReflector h;
  h.rows = rows;
  h.kb = kb;
  h.v.assign(static_cast<std::size_t>(rows * kb), 0.0f);
  h.t.assign(static_cast<std::size_t>(kb * kb), 0.0f);
  const auto v = [&](std::int64_t i, std::int64_t j) -> float& { return h.v[static_cast<std::size_t>(i + j * rows)]; };
  const auto t = [&](std::int64_t i, std::int64_t j) -> float& { return h.t[static_cast<std::size_t>(i + j * kb)]; };
  for (std::int64_t j = 0; j < kb; ++j) {
    v(j, j) = 1.0f;
    for (std::int64_t i = j + 1; i < rows; ++i) v(i, j) = a[i + j * lda];
  }
  // V row by row (vr[i·kb + p] = V(i, p)): the inner products Σ_i V(i, p)·V(i, j) for all p < j at once, each
  // summed over i = j, j+1, … in that order, the p's side by side (vectorizable, no chain of dependent adds).
  std::vector<float> vr(static_cast<std::size_t>(rows * kb)), z(static_cast<std::size_t>(kb));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t p = 0; p < kb; ++p) vr[static_cast<std::size_t>(i * kb + p)] = v(i, p);
  for (std::int64_t j = 0; j < kb; ++j) {
    const float tj = tau[j];
    // T(0:j, j) = −τ_j·T(0:j, 0:j)·(V(:, 0:j)ᵀ v_j)
    float* zs = z.data();
    for (std::int64_t p = 0; p < j; ++p) zs[p] = 0.0f;
    for (std::int64_t i = j; i < rows; ++i) {
      const float vij = vr[static_cast<std::size_t>(i * kb + j)];
      const float* vi = vr.data() + i * kb;
      for (std::int64_t p = 0; p < j; ++p) zs[p] += vi[p] * vij;
    }
    for (std::int64_t p = 0; p < j; ++p) zs[p] = -tj * zs[p];
    for (std::int64_t p = 0; p < j; ++p) {
      float s = 0.0f;
      for (std::int64_t q = p; q < j; ++q) s += t(p, q) * z[static_cast<std::size_t>(q)];
      t(p, j) = s;
    }
    t(j, j) = tj;
  }
  return h;
}

void apply_block_reflector(const BlockReflector& h, bool transpose, std::int64_t cols, float* c, std::int64_t ldc,
                           const trncore::Options& gemm_options) {
  using trncore::Layout;
  const std::int64_t rows = h.rows, kb = h.kb;
  if (rows == 0 || kb == 0 || cols == 0) return;
  // C − V·(op(T)·(Vᵀ·C)): two TensorEngine GEMMs around a small triangular product.
  std::vector<float> w(static_cast<std::size_t>(kb * cols)), tw(w.size());
  trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::trans, trnblas::Op::no_trans, kb, cols, rows,
                                          1.0f, h.v.data(), rows, c, ldc, 0.0f, w.data(), kb, gemm_options);
  // op(T)·W column by column, each entry's sum over p in ascending order (starting from 0), the entries i side
  // by side: for p, the entries it reaches take their term. (Tᵀ·W)(i, col) = Σ_{p ≤ i} T(p, i)·W(p, col) reads
  // row p of T, so from a row-major copy; (T·W)(i, col) = Σ_{p ≥ i} T(i, p)·W(p, col) reads column p.
  std::vector<float> tr;
  if (transpose) {
    tr.resize(h.t.size());
    for (std::int64_t q = 0; q < kb; ++q)
      for (std::int64_t p = 0; p < kb; ++p)
        tr[static_cast<std::size_t>(p * kb + q)] = h.t[static_cast<std::size_t>(p + q * kb)];
  }
  for (std::int64_t col = 0; col < cols; ++col) {
    float* acc = tw.data() + col * kb;
    const float* wc = w.data() + col * kb;
    for (std::int64_t i = 0; i < kb; ++i) acc[i] = 0.0f;
    for (std::int64_t p = 0; p < kb; ++p) {
      const float wp = wc[p];
      if (transpose) {
        const float* tp = tr.data() + p * kb;  // T(p, i) for i ≥ p
        for (std::int64_t i = p; i < kb; ++i) acc[i] += tp[i] * wp;
      } else {
        const float* tp = h.t.data() + p * kb;  // T(i, p) for i ≤ p
        for (std::int64_t i = 0; i <= p; ++i) acc[i] += tp[i] * wp;
      }
    }
  }
  trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, rows, cols,
                                          kb, -1.0f, h.v.data(), rows, tw.data(), kb, 1.0f, c, ldc, gemm_options);
}

void apply_q(bool transpose, std::int64_t m, std::int64_t k, const float* a, std::int64_t lda, const float* tau,
             std::int64_t cols, float* c, std::int64_t ldc, const trncore::Options& gemm_options) {
  if (k == 0 || cols == 0) return;
  const std::int64_t blocks = (k + kLuBlock - 1) / kLuBlock;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t j = (transpose ? b : blocks - 1 - b) * kLuBlock, kb = std::min(kLuBlock, k - j);
    const BlockReflector h = block_reflector(m - j, kb, a + j + j * lda, lda, tau + j);
    apply_block_reflector(h, transpose, cols, c + j, ldc, gemm_options);
  }
}

void complete_basis(std::int64_t m, std::int64_t k, float* q, std::int64_t ldq, const trncore::Options& gemm_options) {
  std::vector<float> w(static_cast<std::size_t>(m * k)), tau(static_cast<std::size_t>(k));
  for (std::int64_t j = 0; j < k; ++j)
    for (std::int64_t i = 0; i < m; ++i) w[static_cast<std::size_t>(i + j * m)] = q[i + j * ldq];
  blocked_qr(m, k, w.data(), m, tau.data(), gemm_options);
  // Q(:, k:m) = Q·E with E the columns k…m−1 of the identity.
  const std::int64_t rest = m - k;
  std::vector<float> e(static_cast<std::size_t>(m * rest), 0.0f);
  for (std::int64_t j = 0; j < rest; ++j) e[static_cast<std::size_t>(k + j + j * m)] = 1.0f;
  apply_q(false, m, k, w.data(), m, tau.data(), rest, e.data(), m, gemm_options);
  for (std::int64_t j = 0; j < rest; ++j)
    for (std::int64_t i = 0; i < m; ++i) q[i + (k + j) * ldq] = e[static_cast<std::size_t>(i + j * m)];
}

}  // namespace trnsolver::detail
