// sim bsr_spmm (one TensorEngine GEMM per stored 128x128 block) against densify-and-GEMM (to_dense, then
// one trnblas sim GEMM over the whole matrix), across block densities, in the same binary. Reported per
// run: host wall time of the simulation and the modelled trn2 time (the cost report's lower bound, an
// estimate from the spec table, not a measurement) as the counter model_us. The crossover is the block
// density where the modelled times meet (docs/trnsparse.md, docs/benchmarks.md).
#include <trnsparse/sim.hpp>

#include <trnblas/gemm.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <algorithm>
#include <random>
#include <vector>

namespace {

constexpr std::int64_t kBlocks = 8, kBlock = 128, kSize = kBlocks * kBlock, kN = 128;

// kSize x kSize with `stored` of the 64 128x128 blocks full (random positions, diagonal first).
trnsparse::Bsr<float> block_matrix(std::int64_t stored) {
  std::mt19937_64 gen(7);
  std::vector<std::pair<std::int64_t, std::int64_t>> slots;
  for (std::int64_t i = 0; i < kBlocks; ++i) slots.emplace_back(i, i);
  std::vector<std::pair<std::int64_t, std::int64_t>> off;
  for (std::int64_t i = 0; i < kBlocks; ++i)
    for (std::int64_t j = 0; j < kBlocks; ++j)
      if (i != j) off.emplace_back(i, j);
  std::shuffle(off.begin(), off.end(), gen);
  slots.insert(slots.end(), off.begin(), off.end());
  slots.resize(static_cast<std::size_t>(stored));
  std::uniform_real_distribution<float> d(-1, 1);
  trnsparse::Coo<float> coo;
  coo.rows = coo.cols = kSize;
  for (auto [bi, bj] : slots)
    for (std::int64_t i = 0; i < kBlock; ++i)
      for (std::int64_t j = 0; j < kBlock; ++j) {
        coo.row.push_back(static_cast<int>(bi * kBlock + i));
        coo.col.push_back(static_cast<int>(bj * kBlock + j));
        coo.values.push_back(d(gen));
      }
  return trnsparse::to_bsr(trnsparse::to_csr(coo), kBlock, kBlock);
}

const trncore::Options& sim_options() {
  static const trncore::Options o =
      trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::bf16);
  return o;
}

// The peer: densify A, then one sim GEMM over the whole matrix; C = A·B, the run's cost in `report`.
void densify_gemm(const trnsparse::Bsr<float>& a, const std::vector<float>& b, std::vector<float>& c,
                  trncore::AccuracyReport& report) {
  const std::vector<float> dense = trnsparse::to_dense(a);
  trnblas::gemm<float>(trnblas::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, kSize, kN, kSize, 1.0f,
                       dense.data(), kSize, b.data(), kN, 0.0f, c.data(), kN, sim_options(), report);
}

// Counters: model_us (bsr_spmm's modelled time) and model_speedup = densify-and-GEMM modelled time /
// bsr_spmm modelled time (> 1: BSR wins; the crossover is where it passes 1).
void BM_sim_bsr_spmm(benchmark::State& state) {
  const auto a = block_matrix(state.range(0));
  std::vector<float> b(static_cast<std::size_t>(kSize * kN), 0.5f), c(static_cast<std::size_t>(kSize * kN));
  trncore::AccuracyReport report;
  for (auto _ : state) {
    trnsparse::bsr_spmm<float, std::int32_t>(1.0f, a, kN, b, kN, 0.0f, c, kN, sim_options(), report);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["block_density"] = static_cast<double>(state.range(0)) / (kBlocks * kBlocks);
  state.counters["model_us"] = report.cost->lower_bound_seconds * 1e6;
  trncore::AccuracyReport peer;
  densify_gemm(a, b, c, peer);
  state.counters["model_speedup"] = peer.cost->lower_bound_seconds / report.cost->lower_bound_seconds;
}

void BM_sim_densify_gemm(benchmark::State& state) {
  const auto a = block_matrix(state.range(0));
  std::vector<float> b(static_cast<std::size_t>(kSize * kN), 0.5f), c(static_cast<std::size_t>(kSize * kN));
  trncore::AccuracyReport report;
  for (auto _ : state) {
    densify_gemm(a, b, c, report);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["block_density"] = static_cast<double>(state.range(0)) / (kBlocks * kBlocks);
  state.counters["model_us"] = report.cost->lower_bound_seconds * 1e6;
}

}  // namespace

// range(0): stored 128x128 blocks out of 64 (1024 x 1024 matrix), times a dense 1024 x 128 B, bf16 mode.
BENCHMARK(BM_sim_bsr_spmm)->Arg(8)->Arg(16)->Arg(24)->Arg(32)->Arg(48)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sim_densify_gemm)->Arg(8)->Arg(16)->Arg(24)->Arg(32)->Arg(48)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
