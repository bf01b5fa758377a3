// Bunch–Kaufman (Bunch and Kaufman, Math. Comp. 31 (1977); Higham, ASNA 2nd ed., §11.1.1) with α = (1 + √17)/8:
// with a_kk the pivot candidate and colmax the largest off-diagonal magnitude of its column (row imax),
// a 1×1 pivot a_kk is taken when |a_kk| ≥ α·colmax, or when |a_kk|·rowmax ≥ α·colmax² (rowmax: the largest
// off-diagonal magnitude of column imax); else a 1×1 pivot a_imax,imax when |a_imax,imax| ≥ α·rowmax; else the
// 2×2 pivot on rows k, imax. Growth per step is bounded (by (1 + 1/α) for 1×1), and the method is backward
// stable with |ΔA| ≤ p(n)·u·(|A| + |L||D||Lᵀ|) (Higham Thm 11.3).
#include "sim/blocked_bunch_kaufman_ldlt.hpp"
#include "internal_gemm.hpp"

#include "sim/blocked_lu.hpp"  // kLuBlock: one TensorEngine tile of 128 partitions

#include <trnblas/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace trnsolver::detail {

namespace {

struct Step {
  std::int64_t k, size, kp;  // first column, 1 or 2, the row interchanged with k + size − 1
};

// Columns k0… of the lower triangle, at most nb of them unless `last` (then all the way to n); W (n×nb,
// column-major) receives L·D of the factored columns, `steps` the pivots taken. Returns the number of columns
// factored; the panel's columns are left in the final row order (see restore_step_coordinates).
std::int64_t panel(std::int64_t n, float* a, std::int64_t lda, std::int64_t k0, std::int64_t nb, bool last,
                   std::vector<float>& w, std::int64_t* ipiv, std::int64_t& info, std::vector<Step>& steps) {
  const auto A = [&](std::int64_t i, std::int64_t j) -> float& { return a[i + j * lda]; };
  const auto Wm = [&](std::int64_t i, std::int64_t j) -> float& { return w[static_cast<std::size_t>(i + j * n)]; };
  const float alpha = (1.0f + std::sqrt(17.0f)) / 8.0f;
  steps.clear();
  // Column `col` of the current matrix into W(:, j): A₀(k:n, col) (lower triangle: row col's left part, then
  // column col) − L(k:n, panel so far)·W(col, :)ᵀ.
  const auto updated_column = [&](std::int64_t k, std::int64_t col, std::int64_t j) {
    for (std::int64_t i = k; i < n; ++i) Wm(i, j) = i < col ? A(col, i) : A(i, col);
    for (std::int64_t q = 0; q < k - k0; ++q) {
      const float f = Wm(col, q);
      for (std::int64_t i = k; i < n; ++i) Wm(i, j) -= A(i, k0 + q) * f;
    }
  };
  std::int64_t k = k0;
  while (k < n && (last || k - k0 < nb - 1)) {
    const std::int64_t j = k - k0;
    updated_column(k, k, j);
    std::int64_t kstep = 1, kp = k;
    const float absakk = std::abs(Wm(k, j));
    std::int64_t imax = k;
    float colmax = 0.0f;
    for (std::int64_t i = k + 1; i < n; ++i)
      if (std::abs(Wm(i, j)) > colmax) colmax = std::abs(Wm(i, j)), imax = i;
    if (std::max(absakk, colmax) == 0.0f) {  // a zero column: D(k, k) = 0, nothing to eliminate
      if (info == 0) info = k + 1;
      for (std::int64_t i = k; i < n; ++i) A(i, k) = Wm(i, j);
    } else {
      if (absakk < alpha * colmax) {
        updated_column(k, imax, j + 1);
        float rowmax = 0.0f;
        for (std::int64_t i = k; i < n; ++i)
          if (i != imax) rowmax = std::max(rowmax, std::abs(Wm(i, j + 1)));
        if (absakk >= alpha * colmax * (colmax / rowmax)) {
          kp = k;
        } else if (std::abs(Wm(imax, j + 1)) >= alpha * rowmax) {
          kp = imax;
          for (std::int64_t i = k; i < n; ++i) Wm(i, j) = Wm(i, j + 1);
        } else {
          kp = imax;
          kstep = 2;
        }
      }
      const std::int64_t kk = k + kstep - 1;
      if (kp != kk) {
        // The panel-start column kk moves to kp (row kp left of the diagonal, column kp below it); the rows
        // kk and kp of the panel's finished columns and of W are exchanged.
        A(kp, kp) = A(kk, kk);
        for (std::int64_t c = kk + 1; c < kp; ++c) A(kp, c) = A(c, kk);
        for (std::int64_t i = kp + 1; i < n; ++i) A(i, kp) = A(i, kk);
        for (std::int64_t c = k0; c < k; ++c) std::swap(A(kk, c), A(kp, c));
        for (std::int64_t c = 0; c < j + kstep; ++c) std::swap(Wm(kk, c), Wm(kp, c));
      }
      if (kstep == 1) {
        for (std::int64_t i = k; i < n; ++i) A(i, k) = Wm(i, j);
        const float r = 1.0f / A(k, k);
        for (std::int64_t i = k + 1; i < n; ++i) A(i, k) *= r;
      } else {
        // [L(i, k) L(i, k+1)] = [W(i, j) W(i, j+1)]·D⁻¹, D = [d_kk d_k1; d_k1 d_11], computed as LAPACK's lasyf
        // (scaled by the off-diagonal entry so that no product over- or underflows).
        if (k + 2 < n) {
          float d21 = Wm(k + 1, j);
          const float d11 = Wm(k + 1, j + 1) / d21, d22 = Wm(k, j) / d21;
          const float t = 1.0f / (d11 * d22 - 1.0f);
          d21 = t / d21;
          for (std::int64_t i = k + 2; i < n; ++i) {
            A(i, k) = d21 * (d11 * Wm(i, j) - Wm(i, j + 1));
            A(i, k + 1) = d21 * (d22 * Wm(i, j + 1) - Wm(i, j));
          }
        }
        A(k, k) = Wm(k, j);
        A(k + 1, k) = Wm(k + 1, j);
        A(k + 1, k + 1) = Wm(k + 1, j + 1);
      }
    }
    if (kstep == 1) {
      ipiv[k] = kp + 1;
    } else {
      ipiv[k] = ipiv[k + 1] = -(kp + 1);
    }
    steps.push_back({k, kstep, kp});
    k += kstep;
  }
  return k - k0;
}

// LAPACK's format keeps each step's multipliers in that step's coordinates: undo, in reverse order, the
// interchanges the panel applied to its own earlier columns (after the trailing update, which needs them in
// the final row order).
void restore_step_coordinates(float* a, std::int64_t lda, std::int64_t k0, const std::vector<Step>& steps) {
  for (auto s = steps.rbegin(); s != steps.rend(); ++s) {
    const std::int64_t kk = s->k + s->size - 1;
    if (s->kp != kk)
      for (std::int64_t c = k0; c < s->k; ++c) std::swap(a[kk + c * lda], a[s->kp + c * lda]);
  }
}

}  // namespace

std::int64_t blocked_ldlt(std::int64_t n, float* a, std::int64_t lda, std::int64_t* ipiv,
                          const trncore::Options& gemm_options) {
  using trncore::Layout;
  std::int64_t info = 0;
  std::vector<float> w(static_cast<std::size_t>(n * std::min(n, kLuBlock)));
  std::vector<Step> steps;
  for (std::int64_t k = 0; k < n;) {
    const bool last = n - k <= kLuBlock;
    const std::int64_t kb = panel(n, a, lda, k, last ? n - k : kLuBlock, last, w, ipiv, info, steps);
    const std::int64_t f = k + kb, rest = n - f;
    // A(f:n, f:n) −= L(f:n, k:f)·W(f:n, 0:kb)ᵀ, lower triangle, one block column at a time (the TensorEngine's
    // share).
    for (std::int64_t j = 0; j < rest; j += kLuBlock) {
      const std::int64_t jb = std::min(kLuBlock, rest - j);
      trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::trans, rest - j,
                                              jb, kb, -1.0f, a + (f + j) + k * lda, lda, w.data() + (f + j), n, 1.0f,
                                              a + (f + j) + (f + j) * lda, lda, gemm_options);
    }
    restore_step_coordinates(a, lda, k, steps);
    k = f;
  }
  return info;
}

}  // namespace trnsolver::detail
