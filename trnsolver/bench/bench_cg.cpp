// trnsolver::cg on a dense SPD matrix (n = 512, exactly 100 iterations: rtol = atol = 0) against the same
// CG written over cblas_dgemv/ddot/daxpy in the same binary. Counters: ratio = cg time / peer time (wall
// clock; below 1 = faster than the peer), threads_started = threads the suite's pool created during the timed loop (0 when threads are
// created once and reused, as they must be).
#include <trncore/detail/parallel.hpp>
#include <trnsolver/krylov.hpp>

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

namespace {

constexpr int kIterations = 100;

// A = QᵀQ/n + I: SPD with eigenvalues in [1, ~5], so 100 CG steps stay well-defined.
std::vector<double> spd_matrix(std::int64_t n) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> q(static_cast<std::size_t>(n * n)), a(q.size());
  for (double& v : q) v = u(rng);
  const int m = static_cast<int>(n);
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, m, m, 1.0 / static_cast<double>(n), q.data(), m, q.data(), m,
              0.0, a.data(), m);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i * n + i)] += 1.0;
  return a;
}

// Textbook CG, kIterations steps, on OpenBLAS level-1/2 calls.
void peer_cg(int n, const double* a, const double* b, double* x) {
  std::vector<double> r(b, b + n), p(r), ap(static_cast<std::size_t>(n));
  std::fill(x, x + n, 0.0);
  double rr = cblas_ddot(n, r.data(), 1, r.data(), 1);
  for (int k = 0; k < kIterations; ++k) {
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, a, n, p.data(), 1, 0.0, ap.data(), 1);
    const double alpha = rr / cblas_ddot(n, p.data(), 1, ap.data(), 1);
    cblas_daxpy(n, alpha, p.data(), 1, x, 1);
    cblas_daxpy(n, -alpha, ap.data(), 1, r.data(), 1);
    const double rr_next = cblas_ddot(n, r.data(), 1, r.data(), 1);
    const double beta = rr_next / rr;
    rr = rr_next;
    for (int i = 0; i < n; ++i)
      p[static_cast<std::size_t>(i)] = r[static_cast<std::size_t>(i)] + beta * p[static_cast<std::size_t>(i)];
  }
}

void BM_CgDense(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  const auto a = spd_matrix(n);
  std::vector<double> b(static_cast<std::size_t>(n), 1.0), x(b.size());
  double peer = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    peer_cg(static_cast<int>(n), a.data(), b.data(), x.data());
    peer = std::min(peer, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  trnsolver::KrylovOptions options;
  options.rtol = 0.0;
  options.atol = 0.0;
  options.max_iterations = kIterations;
  options.stagnation_window = 0;
  options.threads = threads;
  const trncore::MatrixView<const double> view(a.data(), n, n, n);
  trnsolver::cg(view, b, x, options);  // warm-up: the pool starts its threads here, once
  const auto started = trncore::detail::threads_started();
  for (auto _ : state) {
    const auto result = trnsolver::cg(view, b, x, options);
    benchmark::DoNotOptimize(result.iterations);
  }
  state.counters["threads_started"] = static_cast<double>(trncore::detail::threads_started() - started);
  state.counters["ratio"] =
      benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CgDense)->Args({512, 2})->Args({512, 1})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
