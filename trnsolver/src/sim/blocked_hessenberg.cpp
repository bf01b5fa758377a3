// Blocked Hessenberg reduction. Within a panel starting at column k, with V (rows k+1…n−1) and T the reflectors
// so far and Y = A₀·V·T (A₀ the matrix at the panel's start), column j of Qⱼᵀ·A₀·Qⱼ (Qⱼ = I − V·T·Vᵀ) is
//   c = A₀(:, j) − Y·V(j, :)ᵀ, then c(k+1:n) −= V·(Tᵀ·(Vᵀ·c)),
// and the next reflector v, τ extends T (larft's recurrence) and Y by τ·(A₀·v − Y·(Vᵀ·v)). A₀·v only needs
// columns j+1…n−1 of A₀, which the panel has not touched yet. After the panel the columns right of it take
// A −= Y·Vᵀ (all rows) and A(k+1:n, :) ← (I − V·T·Vᵀ)ᵀ·A(k+1:n, :); the panel's own columns are final.
#include "sim/blocked_hessenberg.hpp"
#include "internal_gemm.hpp"

#include "sim/block_reflector.hpp"
#include "sim/blocked_lu.hpp"  // kLuBlock: one TensorEngine tile of 128 partitions
#include "householder.hpp"

#include <trnblas/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace trnsolver::detail {

void blocked_hessenberg(std::int64_t n, float* a, std::int64_t lda, float* tau, const trncore::Options& gemm_options) {
  using trncore::Layout;
  const auto at = [&](std::int64_t i, std::int64_t j) -> float& { return a[i + j * lda]; };
  for (std::int64_t j = 0; j + 1 < n; ++j) tau[j] = 0.0f;
  const std::int64_t reflectors = n - 2;  // columns 0…n−3 have something below the subdiagonal
  for (std::int64_t k = 0; k < reflectors; k += kLuBlock) {
    const std::int64_t kb = std::min(kLuBlock, reflectors - k), rows = n - k - 1;
    // V (rows×kb, rows k+1…n−1), T (kb×kb), Y (n×kb), column-major.
    std::vector<float> v(static_cast<std::size_t>(rows * kb), 0.0f), t(static_cast<std::size_t>(kb * kb), 0.0f),
        y(static_cast<std::size_t>(n * kb), 0.0f), c(static_cast<std::size_t>(n)), w(static_cast<std::size_t>(kb)),
        z(static_cast<std::size_t>(kb));
    const auto V = [&](std::int64_t i, std::int64_t p) -> float& {
      return v[static_cast<std::size_t>(i - k - 1 + p * rows)];
    };
    const auto Tm = [&](std::int64_t p, std::int64_t q) -> float& { return t[static_cast<std::size_t>(p + q * kb)]; };
    const auto Y = [&](std::int64_t i, std::int64_t p) -> float& { return y[static_cast<std::size_t>(i + p * n)]; };
    for (std::int64_t jj = 0; jj < kb; ++jj) {
      const std::int64_t j = k + jj;
      // c = A₀(:, j) − Y·V(j, :)ᵀ (V(j, p) is zero unless j ≥ k + 1 + p).
      for (std::int64_t i = 0; i < n; ++i) {
        float s = at(i, j);
        for (std::int64_t p = 0; p < jj; ++p)
          if (j >= k + 1 + p) s -= Y(i, p) * V(j, p);
        c[static_cast<std::size_t>(i)] = s;
      }
      // c(k+1:n) −= V·(Tᵀ·(Vᵀ·c)).
      for (std::int64_t p = 0; p < jj; ++p) {
        float s = 0.0f;
        for (std::int64_t i = k + 1 + p; i < n; ++i) s += V(i, p) * c[static_cast<std::size_t>(i)];
        w[static_cast<std::size_t>(p)] = s;
      }
      for (std::int64_t p = 0; p < jj; ++p) {
        float s = 0.0f;  // (Tᵀ·w)(p) = Σ_{q ≤ p} T(q, p)·w(q)
        for (std::int64_t q = 0; q <= p; ++q) s += Tm(q, p) * w[static_cast<std::size_t>(q)];
        z[static_cast<std::size_t>(p)] = s;
      }
      for (std::int64_t i = k + 1; i < n; ++i) {
        float s = c[static_cast<std::size_t>(i)];
        for (std::int64_t p = 0; p < jj; ++p)
          if (i >= k + 1 + p) s -= V(i, p) * z[static_cast<std::size_t>(p)];
        c[static_cast<std::size_t>(i)] = s;
      }
      // The reflector of c(j+1:n) (larfg: β = −sign(α)‖(α, x)‖, τ = (β − α)/β, v = x/(α − β)).
      const Reflection r = reflect(c[static_cast<std::size_t>(j + 1)], c.data() + j + 2, n - j - 2);
      const float tj = r.tau, beta = r.beta;
      tau[j] = tj;
      for (std::int64_t i = 0; i <= j; ++i) at(i, j) = c[static_cast<std::size_t>(i)];
      at(j + 1, j) = beta;
      V(j + 1, jj) = 1.0f;
      for (std::int64_t i = j + 2; i < n; ++i) at(i, j) = V(i, jj) = tj == 0.0f ? 0.0f : c[static_cast<std::size_t>(i)];
      if (tj == 0.0f)  // H = I: keep the column as it was below the subdiagonal (already zero: xnorm = 0)
        for (std::int64_t i = j + 2; i < n; ++i) at(i, j) = 0.0f;
      // T(0:jj, jj) = −τ·T(0:jj, 0:jj)·(Vᵀ·v), T(jj, jj) = τ; u = Vᵀ·v is reused for Y.
      std::vector<float> u(static_cast<std::size_t>(jj));
      for (std::int64_t p = 0; p < jj; ++p) {
        float s = 0.0f;
        for (std::int64_t i = j + 1; i < n; ++i) s += V(i, p) * V(i, jj);
        u[static_cast<std::size_t>(p)] = s;
      }
      for (std::int64_t p = 0; p < jj; ++p) {
        float s = 0.0f;
        for (std::int64_t q = p; q < jj; ++q) s += Tm(p, q) * u[static_cast<std::size_t>(q)];
        Tm(p, jj) = -tj * s;
      }
      Tm(jj, jj) = tj;
      // Y(:, jj) = τ·(A₀(:, j+1:n)·v − Y·u).
      for (std::int64_t i = 0; i < n; ++i) {
        float s = 0.0f;
        for (std::int64_t q = j + 1; q < n; ++q) s += at(i, q) * V(q, jj);
        float r = 0.0f;
        for (std::int64_t p = 0; p < jj; ++p) r += Y(i, p) * u[static_cast<std::size_t>(p)];
        Y(i, jj) = tj * (s - r);
      }
    }
    // The columns right of the panel: A(:, k+kb:n) −= Y·V(k+kb:n, :)ᵀ, then the left update on rows k+1…n−1.
    const std::int64_t first = k + kb, cols = n - first;
    if (cols <= 0) continue;
    trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::trans, n, cols, kb,
                                            -1.0f, y.data(), n, v.data() + (first - k - 1), rows, 1.0f, a + first * lda,
                                            lda, gemm_options);
    BlockReflector h;
    h.rows = rows;
    h.kb = kb;
    h.v = std::move(v);
    h.t = std::move(t);
    apply_block_reflector(h, true, cols, a + (k + 1) + first * lda, lda, gemm_options);
  }
}

void hessenberg_q(std::int64_t n, const float* a, std::int64_t lda, const float* tau, float* q, std::int64_t ldq,
                  const trncore::Options& gemm_options) {
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) q[i + j * ldq] = i == j ? 1.0f : 0.0f;
  // Reflector j acts on rows j+1…n−1 with its vector below a(j+1, j): the QR-style reflectors of the
  // (n−1)×(n−2) block a(1:n, 0:n−2), applied to rows 1…n−1 of the identity.
  if (n > 2) apply_q(false, n - 1, n - 2, a + 1, lda, tau, n, q + 1, ldq, gemm_options);
}

}  // namespace trnsolver::detail
