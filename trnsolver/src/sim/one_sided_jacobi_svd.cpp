#include "sim/one_sided_jacobi_svd.hpp"

#include "scaled_norm.hpp"

#include <trnsolver/jacobi.hpp>

#include <trncore/detail/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace trnsolver::detail {

std::int64_t svd_one_sided_jacobi(trncore::Layout layout, std::int64_t m, std::int64_t n, const float* a,
                                  std::int64_t lda, float* s, float* u, std::int64_t ldu, float* vt, std::int64_t ldvt,
                                  const trncore::Options& options) {
  const bool rm = layout == trncore::Layout::row_major;
  // Work on the tall orientation: G = A (rows ≥ cols) or G = Aᵀ; then A = U·Σ·Vᵀ or Aᵀ = U·Σ·Vᵀ.
  const bool transposed = m < n;
  const std::int64_t rows = transposed ? n : m, cols = transposed ? m : n;
  const auto R = static_cast<std::size_t>(rows), C = static_cast<std::size_t>(cols);
  std::vector<float> g(R * C), v(C * C, 0.0f);  // column-major: column j at g[j·rows]
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const float x = rm ? a[i * lda + j] : a[i + j * lda];
      if (transposed)
        g[static_cast<std::size_t>(j) + static_cast<std::size_t>(i) * R] = x;
      else
        g[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * R] = x;
    }
  for (std::size_t j = 0; j < C; ++j) v[j * C + j] = 1.0f;
  const float tol = std::numeric_limits<float>::epsilon();
  const auto schedule = jacobi_schedule(cols);
  const int threads = rows * cols >= (1 << 16) ? options.threads : 1;
  bool converged = cols < 2;
  for (int sweep = 0; sweep < 60 && !converged; ++sweep) {
    std::vector<char> rotated(static_cast<std::size_t>(cols), 0);
    for (const auto& round : schedule)
      trncore::detail::parallel_for(static_cast<std::int64_t>(round.size()), threads, [&](std::int64_t k) {
        const auto [p, q] = round[static_cast<std::size_t>(k)];
        float* gp = g.data() + static_cast<std::size_t>(p) * R;
        float* gq = g.data() + static_cast<std::size_t>(q) * R;
        float alpha = 0.0f, beta = 0.0f, gamma = 0.0f;
        for (std::size_t i = 0; i < R; ++i) {
          alpha += gp[i] * gp[i];
          beta += gq[i] * gq[i];
          gamma += gp[i] * gq[i];
        }
        if (gamma == 0.0f || std::abs(gamma) <= tol * std::sqrt(alpha) * std::sqrt(beta)) return;
        // The rotation that makes columns p and q orthogonal (the smaller root of t² + 2ζt − 1 = 0).
        const float zeta = (beta - alpha) / (2.0f * gamma);
        const float t = (zeta >= 0.0f ? 1.0f : -1.0f) / (std::abs(zeta) + std::sqrt(1.0f + zeta * zeta));
        const float c = 1.0f / std::sqrt(1.0f + t * t), sn = c * t;
        for (std::size_t i = 0; i < R; ++i) {
          const float x = gp[i], y = gq[i];
          gp[i] = c * x - sn * y;
          gq[i] = sn * x + c * y;
        }
        float* vp = v.data() + static_cast<std::size_t>(p) * C;
        float* vq = v.data() + static_cast<std::size_t>(q) * C;
        for (std::size_t i = 0; i < C; ++i) {
          const float x = vp[i], y = vq[i];
          vp[i] = c * x - sn * y;
          vq[i] = sn * x + c * y;
        }
        rotated[static_cast<std::size_t>(p)] = 1;  // each index belongs to one pair per round: no race
      });
    converged = std::none_of(rotated.begin(), rotated.end(), [](char r) { return r != 0; });
  }
  // σ_j = ‖g_j‖, descending; U's columns g_j/σ_j, and for σ_j = 0 unit vectors orthogonalized (twice) against
  // the columns already chosen, so U stays orthonormal on rank-deficient input.
  std::vector<float> sigma(C);
  for (std::size_t j = 0; j < C; ++j) sigma[j] = scaled_norm2(g.data() + j * R, rows);
  std::vector<std::size_t> order(C);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return sigma[x] > sigma[y]; });
  std::vector<float> uu(R * C, 0.0f);  // the tall factor, column-major, in sorted order
  std::size_t unit = 0;
  for (std::size_t k = 0; k < C; ++k) {
    float* col = uu.data() + k * R;
    const std::size_t j = order[k];
    if (sigma[j] > 0.0f) {
      for (std::size_t i = 0; i < R; ++i) col[i] = g[j * R + i] / sigma[j];
      continue;
    }
    for (; unit < R; ++unit) {
      std::fill(col, col + R, 0.0f);
      col[unit] = 1.0f;
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t p = 0; p < k; ++p) {
          const float* other = uu.data() + p * R;
          float d = 0.0f;
          for (std::size_t i = 0; i < R; ++i) d += other[i] * col[i];
          for (std::size_t i = 0; i < R; ++i) col[i] -= d * other[i];
        }
      const float nrm = scaled_norm2(col, rows);
      if (nrm > 0.5f) {
        for (std::size_t i = 0; i < R; ++i) col[i] /= nrm;
        ++unit;
        break;
      }
    }
  }
  for (std::size_t k = 0; k < C; ++k) s[k] = sigma[order[k]];
  // A = U·Σ·Vᵀ (or Aᵀ = Ũ·Σ·Ṽᵀ, i.e. U = Ṽ, V = Ũ).
  const std::int64_t k = cols;
  const auto put = [&](float* out, std::int64_t ld, std::int64_t i, std::int64_t j, float x) {
    (rm ? out[i * ld + j] : out[i + j * ld]) = x;
  };
  if (u != nullptr && vt != nullptr)
    for (std::int64_t c = 0; c < k; ++c) {
      const std::size_t j = order[static_cast<std::size_t>(c)];
      if (!transposed) {
        for (std::int64_t i = 0; i < m; ++i)
          put(u, ldu, i, c, uu[static_cast<std::size_t>(c) * R + static_cast<std::size_t>(i)]);
        for (std::int64_t i = 0; i < n; ++i) put(vt, ldvt, c, i, v[j * C + static_cast<std::size_t>(i)]);
      } else {
        for (std::int64_t i = 0; i < m; ++i) put(u, ldu, i, c, v[j * C + static_cast<std::size_t>(i)]);
        for (std::int64_t i = 0; i < n; ++i)
          put(vt, ldvt, c, i, uu[static_cast<std::size_t>(c) * R + static_cast<std::size_t>(i)]);
      }
    }
  return converged ? 0 : 1;
}

}  // namespace trnsolver::detail
