// Bulk fp32 → bf16 conversion per dispatch target and thread count, against memcpy of the same input
// bytes (4 bytes per element) timed in the same binary, and against a plain loop calling encode() per
// element. Issue targets: nearest-even ≥ 0.5× memcpy, SR(32) ≥ 0.2× memcpy, on 1 and 2 threads.
//
// Counters: bytes_per_second counts input bytes (n·4). ratio_to_memcpy = memcpy time / conversion time
// for the same n, where the memcpy peer runs on the same number of threads (each copying its own
// contiguous part, threads started per call exactly as convert() starts them); ratio_to_memcpy_1t
// uses a single-threaded memcpy. Google Benchmark prints both ratios with a "/s" suffix because they
// are computed as rates (peer seconds per iteration / measured seconds per iteration).
#include <trncore/convert.hpp>
#include <trncore/format.hpp>
#include <trncore/philox.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using trncore::Isa;

// The benchmark's input: normally distributed values (the common case; no special values), built once
// per size so every benchmark of that size converts the same bytes.
const std::vector<float>& input(std::size_t n) {
  static std::vector<std::vector<float>> cache;
  for (const auto& v : cache)
    if (v.size() == n) return v;
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  std::vector<float> x(n);
  for (auto& v : x) v = normal(rng);
  cache.push_back(std::move(x));
  return cache.back();
}

// memcpy of n floats split over `threads` contiguous parts (threads started for the call, as convert()
// does, so start-up costs are on both sides of the ratio).
void threaded_memcpy(float* dst, const float* src, std::size_t n, int threads) {
  if (threads <= 1) {
    std::memcpy(dst, src, n * sizeof(float));
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t part = (n + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
  for (int t = 0; t < threads; ++t) {
    const std::size_t begin = std::min(n, part * static_cast<std::size_t>(t)), end = std::min(n, begin + part);
    pool.emplace_back([=] { std::memcpy(dst + begin, src + begin, (end - begin) * sizeof(float)); });
  }
  for (auto& th : pool) th.join();
}

// Seconds per memcpy of the input bytes: the best of seven after a warm-up that faults the pages in.
double memcpy_seconds(const std::vector<float>& in, int threads) {
  std::vector<float> copy(in.size());
  double best = 1e30;
  for (int rep = 0; rep < 8; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    threaded_memcpy(copy.data(), in.data(), in.size(), threads);
    benchmark::ClobberMemory();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rep > 0) best = std::min(best, s);
  }
  return best;
}

void set_counters(benchmark::State& state, std::size_t n, int threads) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n * sizeof(float)));
  const auto& in = input(n);
  const double peer = memcpy_seconds(in, threads);
  const double peer_1t = threads == 1 ? peer : memcpy_seconds(in, 1);
  state.counters["ratio_to_memcpy"] = benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["ratio_to_memcpy_1t"] = benchmark::Counter(peer_1t, benchmark::Counter::kIsIterationInvariantRate);
}

// The peer itself, so its bytes/s appear in the same table.
void BM_Memcpy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const auto& in = input(n);
  std::vector<float> copy(n);
  threaded_memcpy(copy.data(), in.data(), n, threads);  // fault the destination in
  for (auto _ : state) {
    threaded_memcpy(copy.data(), in.data(), n, threads);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n * sizeof(float)));
  state.SetLabel(std::to_string(threads) + " thread(s)");
}

// Arguments: n, stochastic (0/1), threads, isa (Isa enumerator value).
void BM_Fp32ToBf16(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bool stochastic = state.range(1) != 0;
  trncore::ConvertOptions o;
  o.rounding = trncore::Rounding(stochastic ? trncore::RoundingMode::stochastic : trncore::RoundingMode::nearest_even);
  o.threads = static_cast<int>(state.range(2));
  o.isa = static_cast<Isa>(state.range(3));
  o.seed = 5;
  if (!trncore::cpu_supports(o.isa)) {
    state.SkipWithError("this CPU lacks the requested code path");
    return;
  }
  const auto& in = input(n);
  std::vector<trncore::bf16> out(n);
  trncore::convert(std::span<const float>(in), std::span<trncore::bf16>(out), o);  // fault the output in
  for (auto _ : state) {
    trncore::convert(std::span<const float>(in), std::span<trncore::bf16>(out), o);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, o.threads);
  state.SetLabel(std::string(stochastic ? "SR(32)" : "nearest_even") + ", " + std::to_string(o.threads) +
                 " thread(s), " + std::string(trncore::to_string(o.isa)));
}

// The plain loop a user would write without the library's bulk path: encode() per element.
void BM_Fp32ToBf16EncodeLoop(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bool stochastic = state.range(1) != 0;
  const trncore::Rounding r(stochastic ? trncore::RoundingMode::stochastic : trncore::RoundingMode::nearest_even);
  const trncore::RandomBits bits{5, 0};
  const auto& in = input(n);
  std::vector<trncore::bf16> out(n);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i)
      out[i] = trncore::bf16::from_bits(static_cast<std::uint16_t>(
          trncore::encode(trncore::formats::bf16, static_cast<double>(in[i]), r, stochastic ? bits(i) : 0)));
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 1);
  state.SetLabel(std::string(stochastic ? "SR(32)" : "nearest_even") + ", loop over encode()");
}

constexpr std::int64_t kAuto = static_cast<std::int64_t>(Isa::automatic);
constexpr std::int64_t kScalar = static_cast<std::int64_t>(Isa::scalar);
constexpr std::int64_t kAvx2 = static_cast<std::int64_t>(Isa::avx2);
constexpr std::int64_t kAvx512 = static_cast<std::int64_t>(Isa::avx512);

}  // namespace

BENCHMARK(BM_Memcpy)->ArgsProduct({{1 << 22, 1 << 24}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
// Every dispatch target on one thread; the default (automatic) target on 1 and 2 threads.
BENCHMARK(BM_Fp32ToBf16)
    ->ArgsProduct({{1 << 22, 1 << 24}, {0, 1}, {1}, {kScalar, kAvx2, kAvx512}})
    ->ArgsProduct({{1 << 22, 1 << 24}, {0, 1}, {1, 2}, {kAuto}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Fp32ToBf16EncodeLoop)->ArgsProduct({{1 << 22}, {0, 1}})->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
