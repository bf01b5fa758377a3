// syevd's scalable sim path: blocked Householder tridiagonalization (trailing rank-2·128 updates as sim GEMMs),
// the implicit QL of eigh_tridiagonal_ql on (d, e) in VectorEngine fp32 with its rotations accumulated into
// an identity (column-major, each sweep's rotations applied in one cache-blocked pass, threaded over rows), then the back transformation V = Q·Z_QL by the reflectors' compact-WY blocks as sim GEMMs
// (the n³ of the vectors on the TensorEngine rather than in the rotations' O(n³) vector work on Q).
#include "sim/dense_routines.hpp"
#include "sim/dense_storage.hpp"

#include "sim/symmetric_io.hpp"
#include "sim/tridiagonal_ql.hpp"
#include "sim/block_reflector.hpp"
#include "sim/blocked_tridiagonal.hpp"

#include <vector>

namespace trnsolver::detail {

std::int64_t sim_syevd_tridiagonal(Layout layout, bool vectors, Uplo uplo, std::int64_t n, float* a, std::int64_t lda,
                                   float* w, const trncore::Options& options) {
  const auto N = static_cast<std::size_t>(n);
  // The full symmetric matrix, column-major, from the `uplo` triangle.
  std::vector<float> s = lower_triangle(layout, uplo, n, a, lda);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j + 1; i < n; ++i)
      s[static_cast<std::size_t>(j + i * n)] = s[static_cast<std::size_t>(i + j * n)];
  std::vector<float> d, e, tau(N);
  blocked_tridiagonal(n, s.data(), n, d, e, tau.data(), options);
  // Z column-major (vector i contiguous) for the QL's rotations (z ← z·G on two contiguous columns).
  std::vector<float> zc, z;
  if (vectors) {
    zc.assign(N * N, 0.0f);
    for (std::size_t i = 0; i < N; ++i) zc[i * N + i] = 1.0f;
  }
  const std::int64_t sweeps = implicit_ql_columns(n, d, e, vectors ? zc.data() : nullptr, options.threads);
  if (vectors) {
    // Apply Q = H_0·…·H_{n−3} to rows 1…n−1 (reflector j acts on rows j+1…n−1 with its vector in s(j+2:n, j):
    // QR-style reflectors of s(1:n, 0:n−2)), then transpose to the row-major Z write_sorted takes.
    if (n > 2) apply_q(false, n - 1, n - 2, s.data() + 1, n, tau.data(), n, zc.data() + 1, n, options);
    z.resize(N * N);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j) z[i * N + j] = zc[i + j * N];
  }
  write_sorted(layout, n, d, z, w, vectors ? a : static_cast<float*>(nullptr), lda);
  return sweeps >= 0 ? 0 : 1;
}

}  // namespace trnsolver::detail
