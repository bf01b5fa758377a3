// Bulk fp32 → bf16 conversion against memcpy of the same input bytes, in one binary. The ratio counter
// is memcpy time / conversion time (so 0.5 means half of memcpy's throughput over the input bytes).
// Issue targets: nearest-even ≥ 0.5×, SR(32) ≥ 0.2×. Also a plain scalar loop over encode().
#include <trncore/convert.hpp>
#include <trncore/philox.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <vector>

namespace {

struct Buffers {
  std::vector<float> in;
  std::vector<trncore::bf16> out;
  std::vector<float> copy;
  explicit Buffers(std::size_t n) : in(n), out(n), copy(n) {
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    for (auto& x : in) x = normal(rng);
  }
};

// memcpy of the input bytes: best of five, after a warm-up that faults the pages in.
double memcpy_seconds(Buffers& b) {
  double best = 1e30;
  for (int rep = 0; rep < 6; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.copy.data(), b.in.data(), b.in.size() * sizeof(float));
    benchmark::ClobberMemory();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep > 0) best = std::min(best, s);
  }
  return best;
}

void finish(benchmark::State& state, const Buffers& b, double peer) {
  const double bytes = static_cast<double>(b.in.size() * sizeof(float));
  state.counters["input_GB_per_s"] = benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["memcpy_GB_per_s"] = bytes * 1e-9 / peer;
  state.counters["ratio_to_memcpy"] = benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Fp32ToBf16(benchmark::State& state) {
  Buffers b(static_cast<std::size_t>(state.range(0)));
  const bool stochastic = state.range(1) != 0;
  trncore::ConvertOptions o;
  o.rounding = trncore::Rounding(stochastic ? trncore::RoundingMode::stochastic : trncore::RoundingMode::nearest_even);
  o.threads = static_cast<int>(state.range(2));
  o.seed = 5;
  const double peer = memcpy_seconds(b);
  for (auto _ : state) {
    trncore::convert(std::span<const float>(b.in), std::span<trncore::bf16>(b.out), o);
    benchmark::ClobberMemory();
  }
  finish(state, b, peer);
  state.SetLabel(std::string(stochastic ? "SR(32)" : "nearest_even") + ", " + std::to_string(o.threads) +
                 " thread(s), " + std::string(trncore::to_string(trncore::detected_isa())));
}

void BM_Fp32ToBf16ScalarLoop(benchmark::State& state) {
  Buffers b(static_cast<std::size_t>(state.range(0)));
  const bool stochastic = state.range(1) != 0;
  const trncore::Rounding r(stochastic ? trncore::RoundingMode::stochastic : trncore::RoundingMode::nearest_even);
  const trncore::RandomBits bits{5, 0};
  const double peer = memcpy_seconds(b);
  for (auto _ : state) {
    for (std::size_t i = 0; i < b.in.size(); ++i)
      b.out[i] = trncore::bf16::from_float(b.in[i], r, stochastic ? bits(i) : 0);
    benchmark::ClobberMemory();
  }
  finish(state, b, peer);
  state.SetLabel(std::string(stochastic ? "SR(32)" : "nearest_even") + ", plain loop over from_float");
}

}  // namespace

BENCHMARK(BM_Fp32ToBf16)->ArgsProduct({{1 << 22, 1 << 24}, {0, 1}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Fp32ToBf16ScalarLoop)->ArgsProduct({{1 << 22}, {0, 1}})->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
