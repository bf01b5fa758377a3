// Blocked tridiagonalization. Within a panel starting at column k, with V, W (rows k…n−1) such that the
// matrix so far is A₀ − V·Wᵀ − W·Vᵀ (A₀ at the panel's start):
//   column j is a₀(j:n, j) − V(j:n, :)·W(j, :)ᵀ − W(j:n, :)·V(j, :)ᵀ;
//   its reflector v, τ from entries j+1…n−1; then (the symmetric rank-2 update of one reflector, as in
//   eigh_tridiagonal_ql) p = τ·(A₀ − V·Wᵀ − W·Vᵀ)·v on rows j+1…n−1, w = p − (τ/2)(pᵀv)·v.
// A₀·v needs columns j+1…n−1 of A₀ on rows j+1…n−1, which the panel has not touched. After the panel, the
// trailing block A(k+kb:n, k+kb:n) −= V·Wᵀ + W·Vᵀ (two GEMMs), and is made exactly symmetric again (the two
// products round in different orders on the two sides of the diagonal).
#include "sim/blocked_tridiagonal.hpp"
#include "internal_gemm.hpp"

#include "sim/blocked_lu.hpp"  // kLuBlock: one TensorEngine tile of 128 partitions
#include "householder.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/detail/parallel.hpp>

#include <algorithm>
#include <cmath>

namespace trnsolver::detail {

void blocked_tridiagonal(std::int64_t n, float* a, std::int64_t lda, std::vector<float>& d, std::vector<float>& e,
                         float* tau, const trncore::Options& gemm_options) {
  using trncore::Layout;
  const auto at = [&](std::int64_t i, std::int64_t j) -> float& { return a[i + j * lda]; };
  d.assign(static_cast<std::size_t>(n), 0.0f);
  e.assign(static_cast<std::size_t>(n), 0.0f);
  for (std::int64_t j = 0; j + 1 < n; ++j) tau[j] = 0.0f;
  const std::int64_t reflectors = n - 2;
  for (std::int64_t k = 0; k < reflectors; k += kLuBlock) {
    const std::int64_t kb = std::min(kLuBlock, reflectors - k), rows = n - k;
    // V, W: rows k…n−1 (local row i − k), kb columns, column-major.
    std::vector<float> v(static_cast<std::size_t>(rows * kb), 0.0f), w(v.size(), 0.0f), c(static_cast<std::size_t>(n)),
        p(static_cast<std::size_t>(n)), x(static_cast<std::size_t>(kb)), y(static_cast<std::size_t>(kb));
    const auto V = [&](std::int64_t i, std::int64_t q) -> float& {
      return v[static_cast<std::size_t>(i - k + q * rows)];
    };
    const auto Wm = [&](std::int64_t i, std::int64_t q) -> float& {
      return w[static_cast<std::size_t>(i - k + q * rows)];
    };
    // Row-major copies of V and W (row i's kb entries contiguous) for the inner products x = Wᵀv, y = Vᵀv.
    std::vector<float> vrow(v.size(), 0.0f), wrow(v.size(), 0.0f);
    const auto VR = [&](std::int64_t i, std::int64_t q) -> float& {
      return vrow[static_cast<std::size_t>((i - k) * kb + q)];
    };
    const auto WR = [&](std::int64_t i, std::int64_t q) -> float& {
      return wrow[static_cast<std::size_t>((i - k) * kb + q)];
    };
    for (std::int64_t jj = 0; jj < kb; ++jj) {
      const std::int64_t j = k + jj;
      // The current column j on rows j…n−1: c(i) = a(i, j) − Σ_q (V(i, q)·W(j, q) + W(i, q)·V(j, q)), the terms
      // subtracted in the order q = 0, 1, … for every row, the rows side by side (V, W column-major).
      for (std::int64_t i = j; i < n; ++i) c[static_cast<std::size_t>(i)] = at(i, j);
      for (std::int64_t q = 0; q < jj; ++q) {
        const float wj = Wm(j, q), vj = V(j, q);
        const float* vq = &V(j, q);
        const float* wq = &Wm(j, q);
        float* cj = c.data() + j;
        for (std::int64_t i = 0; i < n - j; ++i) cj[i] -= vq[i] * wj + wq[i] * vj;
      }
      d[static_cast<std::size_t>(j)] = c[static_cast<std::size_t>(j)];
      // The reflector of c(j+1:n).
      const Reflection r = reflect(c[static_cast<std::size_t>(j + 1)], c.data() + j + 2, n - j - 2);
      const float tj = r.tau, beta = r.beta;
      tau[j] = tj;
      e[static_cast<std::size_t>(j)] = beta;
      at(j, j) = c[static_cast<std::size_t>(j)];
      at(j + 1, j) = beta;
      V(j + 1, jj) = 1.0f;
      for (std::int64_t i = j + 2; i < n; ++i) at(i, j) = V(i, jj) = tj == 0.0f ? 0.0f : c[static_cast<std::size_t>(i)];
      for (std::int64_t i = j + 1; i < n; ++i) VR(i, jj) = V(i, jj);
      if (tj == 0.0f) continue;  // H = I: w = 0
      // p = τ·(A₀ − V·Wᵀ − W·Vᵀ)(j+1:n, j+1:n)·v: A₀ (full symmetric columns), then x = Wᵀv, y = Vᵀv.
      // (x_q, y_q summed over i = j+1, … in order; the q's side by side from the row-major copies.)
      for (std::int64_t q = 0; q < jj; ++q) x[static_cast<std::size_t>(q)] = y[static_cast<std::size_t>(q)] = 0.0f;
      for (std::int64_t i = j + 1; i < n; ++i) {
        const float vi = V(i, jj);
        const float* wr = &WR(i, 0);
        const float* vr = &VR(i, 0);
        float* xs = x.data();
        float* ys = y.data();
        for (std::int64_t q = 0; q < jj; ++q) {
          xs[q] += wr[q] * vi;
          ys[q] += vr[q] * vi;
        }
      }
      // Row i's sum runs over col = j+1, j+2, … in that order; the loop nest keeps that order for every row
      // while reading A₀ down its columns (contiguous), several rows per instruction, rows split between threads
      // in fixed blocks (each row's arithmetic never depends on the split).
      const std::int64_t len = n - j - 1;
      const auto row_block = [&](std::int64_t i0, std::int64_t i1) {
        float* acc = p.data() + i0;
        for (std::int64_t i = i0; i < i1; ++i) acc[i - i0] = 0.0f;
        for (std::int64_t col = j + 1; col < n; ++col) {
          const float vc = V(col, jj);
          const float* ac = a + col * lda;
          for (std::int64_t i = i0; i < i1; ++i) acc[i - i0] += ac[i] * vc;
        }
        for (std::int64_t q = 0; q < jj; ++q) {
          const float xq = x[static_cast<std::size_t>(q)], yq = y[static_cast<std::size_t>(q)];
          const float* vq = &V(i0, q);
          const float* wq = &Wm(i0, q);
          for (std::int64_t i = 0; i < i1 - i0; ++i) acc[i] -= vq[i] * xq + wq[i] * yq;
        }
        for (std::int64_t i = i0; i < i1; ++i) acc[i - i0] *= tj;
      };
      constexpr std::int64_t kRowBlock = 256;
      const std::int64_t row_blocks = (len + kRowBlock - 1) / kRowBlock;
      trncore::detail::parallel_for(row_blocks, len * len >= (std::int64_t{1} << 16) ? gemm_options.threads : 1,
                                    [&](std::int64_t b) {
                                      const std::int64_t i0 = j + 1 + b * kRowBlock;
                                      row_block(i0, std::min(n, i0 + kRowBlock));
                                    });
      float pv = 0.0f;
      for (std::int64_t i = j + 1; i < n; ++i) pv += p[static_cast<std::size_t>(i)] * V(i, jj);
      const float half = -tj / 2.0f * pv;
      for (std::int64_t i = j + 1; i < n; ++i) Wm(i, jj) = p[static_cast<std::size_t>(i)] + half * V(i, jj);
      for (std::int64_t i = j + 1; i < n; ++i) WR(i, jj) = Wm(i, jj);
    }
    // The trailing block: A(f:n, f:n) −= V(f:n, :)·W(f:n, :)ᵀ + W(f:n, :)·V(f:n, :)ᵀ, then symmetrized from
    // its lower triangle (the side the next panel reads first).
    const std::int64_t f = k + kb, tail = n - f;
    float* a22 = a + f + f * lda;
    const float* vf = v.data() + (f - k);
    const float* wf = w.data() + (f - k);
    trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::trans, tail, tail,
                                            kb, -1.0f, vf, rows, wf, rows, 1.0f, a22, lda, gemm_options);
    trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::trans, tail, tail,
                                            kb, -1.0f, wf, rows, vf, rows, 1.0f, a22, lda, gemm_options);
    for (std::int64_t jc = f; jc < n; ++jc)
      for (std::int64_t i = jc + 1; i < n; ++i) at(jc, i) = at(i, jc);
  }
  // The last two diagonal entries and the last coupling are final after the last panel's update.
  for (std::int64_t j = std::max<std::int64_t>(reflectors, 0); j < n; ++j) d[static_cast<std::size_t>(j)] = at(j, j);
  if (n >= 2) e[static_cast<std::size_t>(n - 2)] = at(n - 1, n - 2);
}

}  // namespace trnsolver::detail
