// Cyclic two-sided Jacobi (Golub and Van Loan, Matrix Computations 4th ed., §8.5, with Rutishauser's
// update of the diagonal), rounds of disjoint rotations from the circle-method schedule.
#include <trnsolver/jacobi.hpp>

#include <trncore/monitor.hpp>

#include "sim/symmetric_io.hpp"
#include "sim/vector_cost.hpp"

#include <trncore/detail/parallel.hpp>
#include <trncore/error.hpp>
#include <trncore/sim/spec.hpp>
#include <trncore/detail/format_number.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>

namespace trnsolver {

namespace {

using detail::count_vector;

constexpr char kFunction[] = "trnsolver::eigh_jacobi";

using Pair = std::pair<std::int64_t, std::int64_t>;

template <class W>
struct Rotation {
  W c = 1, s = 0, t = 0;
  W app = 0, aqq = 0, apq = 0;  // the 2×2 block before the rotation
  bool active = false;
};

// The rotation that zeroes a_pq (Golub–Van Loan's sym.schur2), or none when |a_pq| ≤ tol·√|a_pp a_qq|.
template <class W>
Rotation<W> rotation(W app, W aqq, W apq, W tol) {
  Rotation<W> r;
  r.app = app;
  r.aqq = aqq;
  r.apq = apq;
  if (apq == W(0) || std::abs(apq) <= tol * std::sqrt(std::abs(app)) * std::sqrt(std::abs(aqq))) return r;
  const W tau = (aqq - app) / (W(2) * apq);
  // For |τ| beyond √(max) the square would overflow; then t = 1/(2τ) to working precision.
  const W big = std::sqrt(std::numeric_limits<W>::max()) / W(4);
  const W abs_tau = std::abs(tau);
  W t = abs_tau > big ? W(1) / (W(2) * abs_tau) : W(1) / (abs_tau + std::sqrt(W(1) + tau * tau));
  if (tau < W(0)) t = -t;
  r.t = t;
  r.c = W(1) / std::sqrt(W(1) + t * t);
  r.s = t * r.c;
  r.active = true;
  return r;
}

template <class W>
JacobiResult run(std::int64_t n, std::vector<W>& a, std::vector<W>& v, const JacobiOptions& o, bool sim) {
  JacobiResult result;
  const auto N = static_cast<std::size_t>(n);
  const W tol = o.tolerance > 0 ? static_cast<W>(o.tolerance) : std::numeric_limits<W>::epsilon() / W(2);
  const auto schedule = jacobi_schedule(n);
  double frob = 0.0;
  for (W x : a) frob += static_cast<double>(x) * static_cast<double>(x);
  frob = std::sqrt(frob);
  const auto& spec = trncore::sim::spec(o.generation);
  trncore::sim::EngineStats stats;
  // Threads only pay off for large rounds; every pair's updates are the same whichever thread runs them.
  const int threads = n >= 256 ? o.threads : 1;
  std::vector<Rotation<W>> rot;
  const trncore::detail::ProgressMonitor monitor(o.monitor, kFunction);
  for (int sweep = 0; sweep < o.max_sweeps; ++sweep) {
    std::int64_t rotated = 0;
    for (const auto& round : schedule) {
      rot.assign(round.size(), {});
      for (std::size_t k = 0; k < round.size(); ++k) {
        const auto [p, q] = round[k];
        const auto P = static_cast<std::size_t>(p), Q = static_cast<std::size_t>(q);
        rot[k] = rotation<W>(a[P * N + P], a[Q * N + Q], a[P * N + Q], tol);
        rotated += rot[k].active ? 1 : 0;
      }
      const auto tasks = static_cast<std::int64_t>(round.size());
      // Rows p and q (Jᵀ·A): disjoint rows for disjoint pairs.
      trncore::detail::parallel_for(tasks, threads, [&](std::int64_t k) {
        const Rotation<W>& r = rot[static_cast<std::size_t>(k)];
        if (!r.active) return;
        W* rp = a.data() + static_cast<std::size_t>(round[static_cast<std::size_t>(k)].first) * N;
        W* rq = a.data() + static_cast<std::size_t>(round[static_cast<std::size_t>(k)].second) * N;
        for (std::size_t j = 0; j < N; ++j) {
          const W x = rp[j], y = rq[j];
          rp[j] = r.c * x - r.s * y;
          rq[j] = r.s * x + r.c * y;
        }
      });
      // Columns p and q (A·J) and, with them, the eigenvector columns.
      trncore::detail::parallel_for(tasks, threads, [&](std::int64_t k) {
        const Rotation<W>& r = rot[static_cast<std::size_t>(k)];
        if (!r.active) return;
        const auto P = static_cast<std::size_t>(round[static_cast<std::size_t>(k)].first);
        const auto Q = static_cast<std::size_t>(round[static_cast<std::size_t>(k)].second);
        for (std::size_t i = 0; i < N; ++i) {
          const W x = a[i * N + P], y = a[i * N + Q];
          a[i * N + P] = r.c * x - r.s * y;
          a[i * N + Q] = r.s * x + r.c * y;
        }
        if (!v.empty())
          for (std::size_t i = 0; i < N; ++i) {
            const W x = v[i * N + P], y = v[i * N + Q];
            v[i * N + P] = r.c * x - r.s * y;
            v[i * N + Q] = r.s * x + r.c * y;
          }
      });
      // Each pair's 2×2 block is touched by its own rotation only: set it as the rotation makes it in exact
      // arithmetic, with Rutishauser's diagonal update a_pp − t·a_pq, a_qq + t·a_pq (one rounding each, which
      // is what keeps the relative accuracy of small eigenvalues) and a zero off the diagonal.
      for (std::size_t k = 0; k < round.size(); ++k) {
        const Rotation<W>& r = rot[k];
        if (!r.active) continue;
        const auto P = static_cast<std::size_t>(round[k].first), Q = static_cast<std::size_t>(round[k].second);
        a[P * N + P] = r.app - r.t * r.apq;
        a[Q * N + Q] = r.aqq + r.t * r.apq;
        a[P * N + Q] = a[Q * N + P] = W(0);
      }
      if (sim) {
        const auto active =
            static_cast<std::int64_t>(std::count_if(rot.begin(), rot.end(), [](const auto& r) { return r.active; }));
        count_vector(stats, spec, 12 * tasks, 12);  // the rotation parameters
        count_vector(stats, spec, 6 * active * n * (v.empty() ? 2 : 3), v.empty() ? 12 : 18);  // rows, columns, V
      }
    }
    result.rotations += rotated;
    double off = 0.0;
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j)
        if (i != j) off += static_cast<double>(a[i * N + j]) * static_cast<double>(a[i * N + j]);
    result.off_history.push_back(frob > 0 ? std::sqrt(off) / frob : 0.0);
    result.sweeps = sweep + 1;
    if (rotated == 0) {
      result.converged = true;
      break;
    }
    if (monitor.stop_requested(result.sweeps, result.off_history.back())) {
      result.stopped_by_monitor = true;
      break;
    }
  }
  if (sim) result.cost = trncore::sim::estimate_cost(stats, o.generation);
  return result;
}

}  // namespace

std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> jacobi_schedule(std::int64_t n) {
  if (n < 0) throw trncore::InvalidArgument("trnsolver::jacobi_schedule", "n = " + std::to_string(n), "pass n >= 0");
  // Circle method on m = n rounded up to even players; player m − 1 stays, the others rotate; a pair with
  // the dummy player n (odd n) is a rest.
  const std::int64_t m = n + (n % 2);
  std::vector<std::vector<Pair>> rounds;
  if (n < 2) return rounds;
  for (std::int64_t r = 0; r < m - 1; ++r) {
    std::vector<Pair> round;
    const auto add = [&](std::int64_t x, std::int64_t y) {
      if (x < n && y < n) round.emplace_back(std::min(x, y), std::max(x, y));
    };
    add(r, m - 1);
    for (std::int64_t k = 1; k < m / 2; ++k) add((r + k) % (m - 1), (r - k + (m - 1)) % (m - 1));
    rounds.push_back(std::move(round));
  }
  return rounds;
}

template <class T>
JacobiResult eigh_jacobi(trncore::Layout layout, std::int64_t n, const T* a, std::int64_t lda, T* w, T* v,
                         std::int64_t ldv, const JacobiOptions& options) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  detail::check_symmetric_eigen_call(kFunction, layout, n, a, lda, w, v, ldv, options);
  if (options.max_sweeps < 1 || !(options.tolerance >= 0.0))
    throw trncore::InvalidArgument(kFunction,
                                   "max_sweeps = " + std::to_string(options.max_sweeps) +
                                       ", tolerance = " + trncore::detail::sci(options.tolerance),
                                   "pass max_sweeps >= 1 and a tolerance >= 0 (0 = the unit roundoff)");
  const bool sim = options.backend == trncore::Backend::sim;
  const auto solve = [&](auto zero) {
    using W = decltype(zero);
    const auto N = static_cast<std::size_t>(n);
    std::vector<W> work = detail::symmetric_copy<W>(kFunction, layout, n, a, lda), vecs;
    if (options.vectors) {
      vecs.assign(N * N, W(0));
      for (std::size_t i = 0; i < N; ++i) vecs[i * N + i] = W(1);
    }
    JacobiResult r = run<W>(n, work, vecs, options, sim);
    std::vector<W> diagonal(N);
    for (std::size_t k = 0; k < N; ++k) diagonal[k] = work[k * N + k];
    detail::write_sorted(layout, n, diagonal, vecs, w, v, ldv);
    return r;
  };
  if (sim || std::is_same_v<T, float>) return solve(float{});
  return solve(double{});
}

template JacobiResult eigh_jacobi<float>(trncore::Layout, std::int64_t, const float*, std::int64_t, float*, float*,
                                         std::int64_t, const JacobiOptions&);
template JacobiResult eigh_jacobi<double>(trncore::Layout, std::int64_t, const double*, std::int64_t, double*, double*,
                                          std::int64_t, const JacobiOptions&);

}  // namespace trnsolver
