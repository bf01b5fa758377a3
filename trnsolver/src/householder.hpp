#pragma once
// One Householder reflector H = I − τ·v·vᵀ with H·(α, x) = (β, 0) (LAPACK's larfg: β = −sign(α)·‖(α, x)‖,
// τ = (β − α)/β, v = (1, x/(α − β))), in fp32 with each operation rounded as the including translation unit
// compiles it — shared by the sim backend's Hessenberg and tridiagonal reductions.

#include "scaled_norm.hpp"

#include <cmath>
#include <cstdint>

namespace trnsolver::detail {

struct Reflection {
  float beta, tau;  ///< τ = 0 (and β = α) when x = 0: H = I
};

/// Overwrites x (len entries) with v's tail x/(α − β) and returns β and τ; x is left as it is when it is zero.
inline Reflection reflect(float alpha, float* x, std::int64_t len) {
  const float xnorm = len > 0 ? scaled_norm2(x, len) : 0.0f;
  if (xnorm == 0.0f) return {alpha, 0.0f};
  const float norm = std::hypot(alpha, xnorm);
  const float beta = alpha >= 0.0f ? -norm : norm;
  const float scale = 1.0f / (alpha - beta);
  for (std::int64_t i = 0; i < len; ++i) x[i] *= scale;
  return {beta, (beta - alpha) / beta};
}

}  // namespace trnsolver::detail
