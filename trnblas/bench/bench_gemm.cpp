// trnblas::gemm against OpenBLAS called directly, in one binary; every counter is a ratio to the peer.
// - host overhead: trnblas::gemm (host) time / cblas_?gemm time (issue target ≤ 1.03 at n ≥ 512);
// - sim bf16: sim gemm (bf16 mode, one pass) time vs SGEMM (trncore targets ≥ 0.5× / ≥ 0.25× by product model);
// - ozaki: sim gemm (ozaki, fp64-accurate) time / DGEMM time (issue target ≤ 40) and the modelled passes.
#include <trnblas/trnblas.hpp>

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

namespace {

template <class T>
std::vector<T> random_matrix(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(n * n));
  for (auto& x : v) x = static_cast<T>(u(rng));
  return v;
}

template <class T>
void peer_gemm(std::int64_t n, const T* a, const T* b, T* c) {
  const int m = static_cast<int>(n);
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, a, m, b, m, 0.0f, c, m);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0, a, m, b, m, 0.0, c, m);
}

template <class T>
double peer_seconds(std::int64_t n, const std::vector<T>& a, const std::vector<T>& b, std::vector<T>& c, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    peer_gemm(n, a.data(), b.data(), c.data());
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

template <class T>
void BM_HostGemm(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = random_matrix<T>(n, 1), b = random_matrix<T>(n, 2);
  std::vector<T> c(a.size());
  const double peer = peer_seconds(n, a, b, c, 5);
  for (auto _ : state)
    trnblas::gemm(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, n, n, n, T(1), a.data(), n,
                  b.data(), n, T(0), c.data(), n);
  // time per iteration / peer time: the rate peer·iterations/elapsed, inverted.
  state.counters["overhead_ratio"] =
      benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["GFLOPs"] = benchmark::Counter(2.0 * n * n * n * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// The peer alone, timed by the same loop as BM_HostGemm: the like-for-like denominator of the host overhead
// (BM_HostGemm's own counter divides its mean by the peer's best of 5, which biases it upwards).
template <class T>
void BM_CblasGemm(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto a = random_matrix<T>(n, 1), b = random_matrix<T>(n, 2);
  std::vector<T> c(a.size());
  for (auto _ : state) peer_gemm(n, a.data(), b.data(), c.data());
  state.counters["GFLOPs"] = benchmark::Counter(2.0 * n * n * n * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_SimBf16(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto model = state.range(1) == 0 ? trncore::sim::ProductModel::exact : trncore::sim::ProductModel::bf16;
  const int threads = static_cast<int>(state.range(2));
  const auto a = random_matrix<float>(n, 1), b = random_matrix<float>(n, 2);
  std::vector<float> c(a.size());
  const double peer = peer_seconds(n, a, b, c, 3);
  const auto o = trncore::Options{}
                     .with_backend(trncore::Backend::sim)
                     .with_math_mode(trncore::MathMode::bf16)
                     .with_product(model)
                     .with_threads(threads);
  for (auto _ : state)
    trnblas::gemm(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, n, n, n, 1.0f, a.data(), n,
                  b.data(), n, 0.0f, c.data(), n, o);
  // ratio_to_sgemm = SGEMM time / sim time (higher is better).
  state.counters["ratio_to_sgemm"] = benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string(trncore::sim::to_string(model)) + " products, " + std::to_string(threads) + " thread(s)");
}

void BM_Ozaki(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto model = state.range(1) == 0 ? trncore::sim::ProductModel::exact : trncore::sim::ProductModel::bf16;
  const auto a = random_matrix<double>(n, 1), b = random_matrix<double>(n, 2);
  std::vector<double> c(a.size());
  const double peer = peer_seconds(n, a, b, c, 3);
  const auto o = trncore::Options{}
                     .with_backend(trncore::Backend::sim)
                     .with_math_mode(trncore::MathMode::ozaki)
                     .with_product(model);
  trncore::AccuracyReport report;
  for (auto _ : state)
    trnblas::gemm(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, n, n, n, 1.0, a.data(), n,
                  b.data(), n, 0.0, c.data(), n, o, report);
  // time_vs_dgemm = sim time / DGEMM time (lower is better; target ≤ 40).
  state.counters["time_vs_dgemm"] =
      benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["modelled_passes"] =
      static_cast<double>(report.cost->stats[trncore::sim::Engine::tensor].elements) / static_cast<double>(n * n * n);
  state.SetLabel(report.trajectory.back().description.substr(0, 60));
}

}  // namespace

BENCHMARK_TEMPLATE(BM_HostGemm, float)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_TEMPLATE(BM_HostGemm, double)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_TEMPLATE(BM_CblasGemm, float)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_TEMPLATE(BM_CblasGemm, double)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimBf16)
    ->Args({2048, 0, 2})
    ->Args({2048, 1, 2})
    ->Args({2048, 0, 1})
    ->Args({2048, 1, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_Ozaki)->Args({1024, 0})->Args({1024, 1})->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
