// TensorEngine numerics over whole matrices (trncore::sim::matmul_psum) against OpenBLAS SGEMM in the
// same binary, n×n×n with bf16-valued inputs. The ratio counter is SGEMM time / this time, so
// ratio ≥ 0.5 means at least half of SGEMM's throughput. Also the scalar reference, to show the speed-up.
#include <trncore/format.hpp>
#include <trncore/sim/matmul.hpp>

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <chrono>
#include <random>
#include <vector>

namespace {

struct Inputs {
  std::vector<float> a, b, c;
  explicit Inputs(std::int64_t n) : a(n * n), b(n * n), c(n * n) {
    std::mt19937 rng(42);
    std::normal_distribution<float> normal;
    const auto bf16 = [](float x) {
      return static_cast<float>(
          trncore::decode(trncore::formats::bf16, trncore::encode(trncore::formats::bf16, x, trncore::Rounding())));
    };
    for (auto& x : a) x = bf16(normal(rng));
    for (auto& x : b) x = bf16(normal(rng));
  }
};

double sgemm_seconds(Inputs& in, std::int64_t n, int threads) {
  openblas_set_num_threads(threads);
  const auto call = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(n),
                static_cast<int>(n), 1.0f, in.a.data(), static_cast<int>(n), in.b.data(), static_cast<int>(n), 0.0f,
                in.c.data(), static_cast<int>(n));
  };
  call();  // warm-up: thread start and page faults are not SGEMM's steady state
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

void set_counters(benchmark::State& state, std::int64_t n, double peer_seconds) {
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  state.counters["GFLOPS"] = benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["sgemm_GFLOPS"] = flops * 1e-9 / peer_seconds;
  state.counters["ratio_to_sgemm"] =
      benchmark::Counter(peer_seconds, benchmark::Counter::kIsIterationInvariantRate);  // = peer time / own time
}

void BM_SimMatmul(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const auto model = static_cast<trncore::sim::ProductModel>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  Inputs in(n);
  const double peer = sgemm_seconds(in, n, threads);
  trncore::sim::MatmulOptions options;
  options.product = model;
  options.threads = threads;
  for (auto _ : state) {
    trncore::sim::matmul_psum(n, n, n, in.a.data(), n, in.b.data(), n, in.c.data(), n, options);
    benchmark::DoNotOptimize(in.c.data());
  }
  set_counters(state, n, peer);
  state.SetLabel(std::string(trncore::sim::to_string(model)) + " products, " + std::to_string(threads) + " threads");
}

void BM_SimMatmulReference(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  Inputs in(n);
  const double peer = sgemm_seconds(in, n, 1);
  trncore::sim::MatmulOptions options;
  options.product = trncore::sim::ProductModel::bf16;
  for (auto _ : state) {
    trncore::sim::matmul_psum_reference(n, n, n, in.a.data(), n, in.b.data(), n, in.c.data(), n, options);
    benchmark::DoNotOptimize(in.c.data());
  }
  set_counters(state, n, peer);
  state.SetLabel("scalar reference, bf16 products, 1 thread");
}

}  // namespace

BENCHMARK(BM_SimMatmul)->ArgsProduct({{256, 2048}, {0, 1}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimMatmulReference)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
