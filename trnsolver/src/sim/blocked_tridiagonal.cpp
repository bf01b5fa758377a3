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
    for (std::int64_t jj = 0; jj < kb; ++jj) {
      const std::int64_t j = k + jj;
      // The current column j on rows j…n−1.
      for (std::int64_t i = j; i < n; ++i) {
        float s = at(i, j);
        for (std::int64_t q = 0; q < jj; ++q) s -= V(i, q) * Wm(j, q) + Wm(i, q) * V(j, q);
        c[static_cast<std::size_t>(i)] = s;
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
      if (tj == 0.0f) continue;  // H = I: w = 0
      // p = τ·(A₀ − V·Wᵀ − W·Vᵀ)(j+1:n, j+1:n)·v: A₀ (full symmetric columns), then x = Wᵀv, y = Vᵀv.
      for (std::int64_t q = 0; q < jj; ++q) {
        float sx = 0.0f, sy = 0.0f;
        for (std::int64_t i = j + 1; i < n; ++i) {
          sx += Wm(i, q) * V(i, jj);
          sy += V(i, q) * V(i, jj);
        }
        x[static_cast<std::size_t>(q)] = sx;
        y[static_cast<std::size_t>(q)] = sy;
      }
      for (std::int64_t i = j + 1; i < n; ++i) {
        float s = 0.0f;
        for (std::int64_t col = j + 1; col < n; ++col) s += at(i, col) * V(col, jj);
        for (std::int64_t q = 0; q < jj; ++q)
          s -= V(i, q) * x[static_cast<std::size_t>(q)] + Wm(i, q) * y[static_cast<std::size_t>(q)];
        p[static_cast<std::size_t>(i)] = tj * s;
      }
      float pv = 0.0f;
      for (std::int64_t i = j + 1; i < n; ++i) pv += p[static_cast<std::size_t>(i)] * V(i, jj);
      const float half = -tj / 2.0f * pv;
      for (std::int64_t i = j + 1; i < n; ++i) Wm(i, jj) = p[static_cast<std::size_t>(i)] + half * V(i, jj);
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
