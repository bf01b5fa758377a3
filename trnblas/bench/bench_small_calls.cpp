// Per-call overhead of many tiny calls: trnblas::gemm on the sim backend in ozaki mode (what the drop-in
// BLAS routes a dgemm to when asked for ozaki) for n = 2 … 16, against cblas_dgemm on the same operands in
// the same binary. The counter `ratio` is trnblas time / DGEMM time per call; at these sizes it measures
// the fixed cost of a call (option checks, slicing set-up, thread dispatch), not arithmetic.
#include <trnblas/trnblas.hpp>

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <chrono>
#include <random>
#include <vector>

namespace {

std::vector<double> random_matrix(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(n * n));
  for (auto& x : v) x = u(rng);
  return v;
}

// Seconds per cblas_dgemm call, the best of several batches of many calls.
double peer_seconds_per_call(std::int64_t n, const std::vector<double>& a, const std::vector<double>& b,
                             std::vector<double>& c) {
  const int m = static_cast<int>(n);
  constexpr int kCalls = 2000;
  double best = 1e30;
  for (int batch = 0; batch < 5; ++batch) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0, a.data(), m, b.data(), m, 0.0, c.data(), m);
    benchmark::DoNotOptimize(c.data());
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / kCalls);
  }
  return best;
}

void BM_TinyOzakiGemm(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const int threads = static_cast<int>(state.range(1));
  const auto a = random_matrix(n, 1), b = random_matrix(n, 2);
  std::vector<double> c(a.size());
  const double peer = peer_seconds_per_call(n, a, b, c);
  trncore::Options options;
  options.backend = trncore::Backend::sim;
  options.math_mode = trncore::MathMode::ozaki;
  options.threads = threads;
  for (auto _ : state) {
    trnblas::gemm(trncore::Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, n, n, n, 1.0, a.data(), n,
                  b.data(), n, 0.0, c.data(), n, options);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["ratio"] =
      benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["peer_us"] = peer * 1e6;
}
// threads = 0 (the process default) and 1.
BENCHMARK(BM_TinyOzakiGemm)->ArgsProduct({{2, 4, 8, 16}, {0, 1}})->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
