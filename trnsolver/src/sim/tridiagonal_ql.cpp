// Householder tridiagonalization, implicit QL with shifts, back transformation (Golub and Van Loan, Matrix
// Computations 4th ed., §8.3; the QL variant as in Wilkinson and Reinsch's tql2).
#include <trnsolver/jacobi.hpp>

#include "sim/symmetric_io.hpp"
#include "sim/tridiagonal_ql.hpp"
#include "sim/vector_cost.hpp"

#include <trncore/detail/parallel.hpp>
#include <trncore/error.hpp>
#include <trncore/sim/spec.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace trnsolver {

namespace {

using detail::count_vector;

constexpr char kFunction[] = "trnsolver::eigh_tridiagonal_ql";

// a: n×n row-major symmetric (full). On return d, e hold the tridiagonal (e[i] couples i and i+1), the
// reflector k (acting on rows k+1…n−1) has its vector in a(k+1…, k) (head 1 implicit) and scalar tau[k].
template <class W>
void tridiagonalize(std::int64_t n, std::vector<W>& a, std::vector<W>& d, std::vector<W>& e, std::vector<W>& tau,
                    trncore::sim::EngineStats* stats, const trncore::sim::GenerationSpec& spec) {
  const auto N = static_cast<std::size_t>(n);
  const auto at = [&](std::int64_t i, std::int64_t j) -> W& {
    return a[static_cast<std::size_t>(i) * N + static_cast<std::size_t>(j)];
  };
  std::vector<W> v(N), p(N);
  for (std::int64_t k = 0; k + 2 < n; ++k) {
    const std::int64_t len = n - k - 1;  // rows k+1 … n−1
    const W alpha = at(k + 1, k);
    W scale = 0;
    for (std::int64_t i = k + 2; i < n; ++i) scale = std::max(scale, std::abs(at(i, k)));
    if (scale == W(0)) {  // already tridiagonal in this column
      tau[static_cast<std::size_t>(k)] = 0;
      e[static_cast<std::size_t>(k)] = alpha;
      continue;
    }
    W ss = 0;
    for (std::int64_t i = k + 2; i < n; ++i) ss += (at(i, k) / scale) * (at(i, k) / scale);
    const W norm = std::hypot(alpha, scale * std::sqrt(ss));
    const W beta = alpha >= W(0) ? -norm : norm;
    const W t = (beta - alpha) / beta;
    const W inv = W(1) / (alpha - beta);
    v[0] = 1;
    for (std::int64_t i = 1; i < len; ++i) v[static_cast<std::size_t>(i)] = at(k + 1 + i, k) * inv;
    tau[static_cast<std::size_t>(k)] = t;
    e[static_cast<std::size_t>(k)] = beta;
    // p = τ·A22·v, K = −(τ/2)·pᵀv, w = p + K·v, A22 −= v·wᵀ + w·vᵀ.
    W pv = 0;
    for (std::int64_t i = 0; i < len; ++i) {
      W s = 0;
      for (std::int64_t j = 0; j < len; ++j) s += at(k + 1 + i, k + 1 + j) * v[static_cast<std::size_t>(j)];
      p[static_cast<std::size_t>(i)] = t * s;
    }
    for (std::int64_t i = 0; i < len; ++i) pv += p[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(i)];
    const W kk = -t / W(2) * pv;
    for (std::int64_t i = 0; i < len; ++i) p[static_cast<std::size_t>(i)] += kk * v[static_cast<std::size_t>(i)];
    for (std::int64_t i = 0; i < len; ++i)
      for (std::int64_t j = 0; j < len; ++j)
        at(k + 1 + i, k + 1 + j) -= v[static_cast<std::size_t>(i)] * p[static_cast<std::size_t>(j)] +
                                    p[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(j)];
    for (std::int64_t i = 1; i < len; ++i) at(k + 1 + i, k) = v[static_cast<std::size_t>(i)];  // keep the vector
    if (stats != nullptr) {
      count_vector(*stats, spec, 2 * len * len, 2);  // the matrix-vector product (multiply, reduce)
      count_vector(*stats, spec, 4 * len * len, 4);  // the rank-2 update
    }
  }
  for (std::int64_t k = 0; k < n; ++k) d[static_cast<std::size_t>(k)] = at(k, k);
  if (n >= 2) e[static_cast<std::size_t>(n - 2)] = at(n - 1, n - 2);
  if (n >= 1) e[static_cast<std::size_t>(n - 1)] = 0;
}

}  // namespace

namespace detail {

namespace {

// Implicit QL with shifts on (d, e). Each sweep's rotations (rotation i acts on columns i and i+1 of Z, i from
// m−1 down to the last one computed) are passed to rotate(lo, hi, c, s) as c[i], s[i] for i in [lo, hi) after the
// sweep: they depend on (d, e) only, so applying them afterwards gives every entry of Z the same operations in
// the same order as applying each at once. Returns the sweep count, or −1 when an eigenvalue did not deflate
// within 30·n sweeps.
template <class W, class Rotate>
std::int64_t ql_sweeps(std::int64_t n, std::vector<W>& d, std::vector<W>& e, bool vectors,
                       trncore::sim::EngineStats* stats, const trncore::sim::GenerationSpec& spec, Rotate&& rotate) {
  const auto N = static_cast<std::size_t>(n);
  const W eps = std::numeric_limits<W>::epsilon();
  std::vector<W> cs(vectors ? N : 0), sn(vectors ? N : 0);
  std::int64_t sweeps = 0;
  for (std::int64_t l = 0; l < n; ++l) {
    for (std::int64_t iter = 0;; ++iter) {
      std::int64_t m = l;
      for (; m + 1 < n; ++m) {
        const W dd = std::abs(d[static_cast<std::size_t>(m)]) + std::abs(d[static_cast<std::size_t>(m + 1)]);
        if (std::abs(e[static_cast<std::size_t>(m)]) <= eps * dd) break;
      }
      if (m == l) break;
      if (iter == 30 * n) return -1;
      ++sweeps;
      // Shift from the leading 2×2 block (the eigenvalue of it closer to d[l]).
      W g = (d[static_cast<std::size_t>(l + 1)] - d[static_cast<std::size_t>(l)]) /
            (W(2) * e[static_cast<std::size_t>(l)]);
      W r = std::hypot(g, W(1));
      g = d[static_cast<std::size_t>(m)] - d[static_cast<std::size_t>(l)] +
          e[static_cast<std::size_t>(l)] / (g + (g >= W(0) ? r : -r));
      W s = 1, c = 1, p = 0;
      std::int64_t i = m - 1;
      bool deflated = false;
      for (; i >= l; --i) {
        const W f = s * e[static_cast<std::size_t>(i)], b = c * e[static_cast<std::size_t>(i)];
        r = std::hypot(f, g);
        e[static_cast<std::size_t>(i + 1)] = r;
        if (r == W(0)) {  // underflow: split the problem here
          d[static_cast<std::size_t>(i + 1)] -= p;
          e[static_cast<std::size_t>(m)] = 0;
          deflated = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[static_cast<std::size_t>(i + 1)] - p;
        r = (d[static_cast<std::size_t>(i)] - g) * s + W(2) * c * b;
        p = s * r;
        d[static_cast<std::size_t>(i + 1)] = g + p;
        g = c * r - b;
        if (vectors) {
          cs[static_cast<std::size_t>(i)] = c;
          sn[static_cast<std::size_t>(i)] = s;
        }
      }
      // Rotations i+1 … m−1 were computed (i is where the loop stopped: l − 1, or the split).
      if (vectors && i + 1 < m) rotate(i + 1, m, cs.data(), sn.data());
      if (stats != nullptr) count_vector(*stats, spec, (m - l) * (vectors ? 12 + 6 * n : 12), 16);
      if (deflated) continue;
      d[static_cast<std::size_t>(l)] -= p;
      e[static_cast<std::size_t>(l)] = g;
      e[static_cast<std::size_t>(m)] = 0;
    }
  }
  return sweeps;
}

}  // namespace

template <class W>
std::int64_t implicit_ql(std::int64_t n, std::vector<W>& d, std::vector<W>& e, std::vector<W>& z,
                         trncore::sim::EngineStats* stats, const trncore::sim::GenerationSpec& spec) {
  const auto N = static_cast<std::size_t>(n);
  return ql_sweeps<W>(n, d, e, !z.empty(), stats, spec, [&](std::int64_t lo, std::int64_t hi, const W* c, const W* s) {
    for (std::int64_t i = hi - 1; i >= lo; --i)
      for (std::size_t k = 0; k < N; ++k) {
        const W zi = z[k * N + static_cast<std::size_t>(i)], zi1 = z[k * N + static_cast<std::size_t>(i + 1)];
        z[k * N + static_cast<std::size_t>(i + 1)] = s[i] * zi + c[i] * zi1;
        z[k * N + static_cast<std::size_t>(i)] = c[i] * zi - s[i] * zi1;
      }
  });
}

namespace {

// Rotations i = hi−1 … lo of one sweep on rows [0, kn) of Z's columns lo … hi (column i at z + i·ldz).
__attribute__((always_inline)) inline void rotate_rows_body(std::int64_t lo, std::int64_t hi, const float* c,
                                                            const float* s, float* z, std::size_t ldz, std::int64_t kn,
                                                            float* carry) {
  const float* zm = z + static_cast<std::size_t>(hi) * ldz;
  for (std::int64_t t = 0; t < kn; ++t) carry[t] = zm[t];
  for (std::int64_t i = hi - 1; i >= lo; --i) {
    const float* zi = z + static_cast<std::size_t>(i) * ldz;
    float* zi1 = z + static_cast<std::size_t>(i + 1) * ldz;
    const float ci = c[i], si = s[i];
    for (std::int64_t t = 0; t < kn; ++t) {
      const float x = zi[t], y = carry[t];
      zi1[t] = si * x + ci * y;
      carry[t] = ci * x - si * y;
    }
  }
  float* zl = z + static_cast<std::size_t>(lo) * ldz;
  for (std::int64_t t = 0; t < kn; ++t) zl[t] = carry[t];
}

// The same code for AVX2's 8-lane registers (no FMA: each product and sum rounds on its own, as in the
// baseline build compiled with -ffp-contract=off), so the two give the same bits.
__attribute__((target("avx2"))) void rotate_rows_avx2(std::int64_t lo, std::int64_t hi, const float* c, const float* s,
                                                      float* z, std::size_t ldz, std::int64_t kn, float* carry) {
  rotate_rows_body(lo, hi, c, s, z, ldz, kn, carry);
}

void rotate_rows_baseline(std::int64_t lo, std::int64_t hi, const float* c, const float* s, float* z, std::size_t ldz,
                          std::int64_t kn, float* carry) {
  rotate_rows_body(lo, hi, c, s, z, ldz, kn, carry);
}

}  // namespace

std::int64_t implicit_ql_columns(std::int64_t n, std::vector<float>& d, std::vector<float>& e, float* z, int threads) {
  // Row block by row block (kRows rows of every column): column m's entries are carried through the sweep in
  // an L1-resident buffer, so each column's slice is read once and written once per sweep. The carry is
  // z(k, i+1) before rotation i, exactly the value the rotation-at-once order would read.
  constexpr std::int64_t kRows = 64;
  const auto N = static_cast<std::size_t>(n);
  const std::int64_t blocks = (n + kRows - 1) / kRows;
  const bool avx2 = __builtin_cpu_supports("avx2");
  // (No engine counters here, so the generation's spec is never read.)
  return ql_sweeps<float>(n, d, e, z != nullptr, nullptr, trncore::sim::spec(trncore::sim::Generation{}),
                          [&](std::int64_t lo, std::int64_t hi, const float* c, const float* s) {
                            const std::int64_t work = (hi - lo) * n;
                            trncore::detail::parallel_for(
                                blocks, work >= (std::int64_t{1} << 15) ? threads : 1, [&](std::int64_t b) {
                                  const std::int64_t k0 = b * kRows, kn = std::min(kRows, n - k0);
                                  float carry[kRows];
                                  (avx2 ? rotate_rows_avx2 : rotate_rows_baseline)(lo, hi, c, s, z + k0, N, kn, carry);
                                });
                          });
}

template std::int64_t implicit_ql<float>(std::int64_t, std::vector<float>&, std::vector<float>&, std::vector<float>&,
                                         trncore::sim::EngineStats*, const trncore::sim::GenerationSpec&);
template std::int64_t implicit_ql<double>(std::int64_t, std::vector<double>&, std::vector<double>&,
                                          std::vector<double>&, trncore::sim::EngineStats*,
                                          const trncore::sim::GenerationSpec&);

}  // namespace detail

template <class T>
TridiagonalResult eigh_tridiagonal_ql(trncore::Layout layout, std::int64_t n, const T* a, std::int64_t lda, T* w, T* v,
                                      std::int64_t ldv, const JacobiOptions& options) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  detail::check_symmetric_eigen_call(kFunction, layout, n, a, lda, w, v, ldv, options);
  const bool sim = options.backend == trncore::Backend::sim;
  const auto solve = [&](auto zero) {
    using W = decltype(zero);
    const auto N = static_cast<std::size_t>(n);
    std::vector<W> m = detail::symmetric_copy<W>(kFunction, layout, n, a, lda), d(N), e(N), tau(N), z;
    const auto& spec = trncore::sim::spec(options.generation);
    trncore::sim::EngineStats stats;
    trncore::sim::EngineStats* counters = sim ? &stats : nullptr;
    tridiagonalize<W>(n, m, d, e, tau, counters, spec);
    if (options.vectors) {
      z.assign(N * N, W(0));
      for (std::size_t i = 0; i < N; ++i) z[i * N + i] = W(1);
    }
    TridiagonalResult r;
    const std::int64_t sweeps = detail::implicit_ql<W>(n, d, e, z, counters, spec);
    r.converged = sweeps >= 0;
    r.iterations = std::max<std::int64_t>(sweeps, 0);
    if (options.vectors) {
      // Z ← H_0·H_1·…·H_{n−3}·Z: the reflectors in reverse order, each on rows k+1 … n−1.
      std::vector<W> y(N);
      for (std::int64_t k = n - 3; k >= 0; --k) {
        const W t = tau[static_cast<std::size_t>(k)];
        if (t == W(0)) continue;
        const auto vk = [&](std::int64_t i) {
          return i == k + 1 ? W(1) : m[static_cast<std::size_t>(i) * N + static_cast<std::size_t>(k)];
        };
        std::fill(y.begin(), y.end(), W(0));
        for (std::int64_t i = k + 1; i < n; ++i)
          for (std::size_t c = 0; c < N; ++c) y[c] += vk(i) * z[static_cast<std::size_t>(i) * N + c];
        for (std::int64_t i = k + 1; i < n; ++i)
          for (std::size_t c = 0; c < N; ++c) z[static_cast<std::size_t>(i) * N + c] -= t * vk(i) * y[c];
        if (sim) count_vector(stats, spec, 4 * (n - k - 1) * n, 4);
      }
    }
    detail::write_sorted(layout, n, d, z, w, v, ldv);
    if (sim) r.cost = trncore::sim::estimate_cost(stats, options.generation);
    return r;
  };
  if (sim || std::is_same_v<T, float>) return solve(float{});
  return solve(double{});
}

template TridiagonalResult eigh_tridiagonal_ql<float>(trncore::Layout, std::int64_t, const float*, std::int64_t, float*,
                                                      float*, std::int64_t, const JacobiOptions&);
template TridiagonalResult eigh_tridiagonal_ql<double>(trncore::Layout, std::int64_t, const double*, std::int64_t,
                                                       double*, double*, std::int64_t, const JacobiOptions&);

}  // namespace trnsolver
