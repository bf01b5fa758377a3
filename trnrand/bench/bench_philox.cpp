// Philox4x32-10 fills against Random123's own Philox4x32-10 called in a plain loop, in one binary.
// ratio_to_random123 = Random123 loop time / fill time (issue target: ≥ 3 per core for uint32).
#include <trnrand/stream.hpp>

#include <Random123/philox.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace {

double random123_seconds(std::vector<std::uint32_t>& out) {
  double best = 1e30;
  for (int rep = 0; rep < 4; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    r123::Philox4x32_R<10> philox;
    r123::Philox4x32_R<10>::key_type key = {{12345u, 0u}};
    for (std::size_t j = 0; j + 4 <= out.size(); j += 4) {
      r123::Philox4x32_R<10>::ctr_type c = {{static_cast<std::uint32_t>(j / 4), 0u, 0u, 0u}};
      const auto r = philox(c, key);
      std::copy(r.v, r.v + 4, out.begin() + static_cast<std::ptrdiff_t>(j));
    }
    benchmark::ClobberMemory();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

void counters(benchmark::State& state, std::size_t n, double peer) {
  state.counters["words_per_s"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["random123_words_per_s"] = static_cast<double>(n) / peer;
  state.counters["ratio_to_random123"] = benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_PhiloxUint32(benchmark::State& state) {
  std::vector<std::uint32_t> out(static_cast<std::size_t>(state.range(0)));
  const int threads = static_cast<int>(state.range(1));
  const double peer = random123_seconds(out);
  const trnrand::Stream s = trnrand::make_stream(12345);
  for (auto _ : state) {
    trnrand::fill_uint32(s, out, threads);
    benchmark::ClobberMemory();
  }
  counters(state, out.size(), peer);
  state.SetLabel(std::to_string(threads) + " thread(s)");
}

void BM_PhiloxUniformFloat(benchmark::State& state) {
  std::vector<float> out(static_cast<std::size_t>(state.range(0)));
  std::vector<std::uint32_t> scratch(out.size());
  const int threads = static_cast<int>(state.range(1));
  const double peer = random123_seconds(scratch);
  const trnrand::Stream s = trnrand::make_stream(12345);
  for (auto _ : state) {
    trnrand::fill_uniform(s, std::span<float>(out), trnrand::Interval::open_closed, threads);
    benchmark::ClobberMemory();
  }
  counters(state, out.size(), peer);
  state.SetLabel(std::to_string(threads) + " thread(s), uniform (0,1]");
}

}  // namespace

BENCHMARK(BM_PhiloxUint32)->ArgsProduct({{1 << 22}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PhiloxUniformFloat)->ArgsProduct({{1 << 22}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
