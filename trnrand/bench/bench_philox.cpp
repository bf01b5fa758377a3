// Philox4x32-10 fills against Random123's own Philox4x32-10 called in a plain loop, in one binary.
// ratio_to_random123 = Random123 loop time / fill time (issue target: ≥ 3 per core for uint32). The peer
// is single-threaded, so the 2-thread rows also show the thread scaling. Uniform float fills are timed
// against Random123 words + Random123's u01fixedpt conversion, normal float and double fills (1 thread;
// SLEEF's vectorised log and cospi) against Random123 words + a plain double Box–Muller loop with libm's log,
// sqrt and cos (the cosine half, the same uniforms); the sim normal kernel and its host twin
// normal_engine_order against the host normal() fill.
#include <trnrand/detail/normal_kernel.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/stream.hpp>

#include <Random123/philox.h>
#include <Random123/u01fixedpt.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

// The fastest of `reps` runs of f, in seconds: the peer's best case, so every ratio is conservative.
template <class F>
double best_seconds(int reps, F&& f) {
  double best = 1e30;
  for (int rep = 0; rep < reps; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    benchmark::ClobberMemory();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

// Random123's Philox4x32-10 with key 12345 on counters 0, 1, …, called in a plain loop: emit(j, words)
// receives the four words of positions j … j + 3 of an n-word stream.
template <class Emit>
void random123_blocks(std::size_t n, Emit&& emit) {
  r123::Philox4x32_R<10> philox;
  r123::Philox4x32_R<10>::key_type key = {{12345u, 0u}};
  for (std::size_t j = 0; j + 4 <= n; j += 4) {
    r123::Philox4x32_R<10>::ctr_type c = {{static_cast<std::uint32_t>(j / 4), 0u, 0u, 0u}};
    emit(j, philox(c, key));
  }
}

double random123_seconds(std::vector<std::uint32_t>& out) {
  return best_seconds(4, [&] {
    random123_blocks(out.size(), [&](std::size_t j, const auto& r) {
      std::copy(r.v, r.v + 4, out.begin() + static_cast<std::ptrdiff_t>(j));
    });
  });
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
    trnrand::fill_uint32(s, out, trncore::Options{}.with_threads(threads));
    benchmark::ClobberMemory();
  }
  counters(state, out.size(), peer);
  state.SetLabel(std::to_string(threads) + " thread(s)");
}

// The peer for uniform float fills: Random123's Philox words through Random123's own (0, 1] conversion,
// u01fixedpt_open_closed_32_float ((1 + (w >> 8))·2^-24, the same grid as trnrand's), in a plain loop.
double random123_uniform_seconds(std::vector<float>& out) {
  return best_seconds(4, [&] {
    random123_blocks(out.size(), [&](std::size_t j, const auto& r) {
      for (std::size_t h = 0; h < 4; ++h) out[j + h] = u01fixedpt_open_closed_32_float(r.v[h]);
    });
  });
}

void BM_PhiloxUniformFloat(benchmark::State& state) {
  std::vector<float> out(static_cast<std::size_t>(state.range(0)));
  const int threads = static_cast<int>(state.range(1));
  const double peer = random123_uniform_seconds(out);
  const trnrand::Stream s = trnrand::make_stream(12345);
  for (auto _ : state) {
    trnrand::fill_uniform(s, std::span<float>(out), trnrand::Interval::open_closed,
                          trncore::Options{}.with_threads(threads));
    benchmark::ClobberMemory();
  }
  counters(state, out.size(), peer);
  state.SetLabel(std::to_string(threads) + " thread(s), uniform (0,1]");
}

// The peer for normal fills: Random123's Philox words turned into float normals by Box–Muller in a plain
// loop (two 24-bit uniforms per value, in double, the cosine half, as trnrand's float normal does).
double random123_normal_seconds(std::vector<float>& out) {
  return best_seconds(3, [&] {
    random123_blocks(2 * out.size(), [&](std::size_t j, const auto& r) {
      for (int h = 0; h < 2; ++h) {
        const double u1 = ((r.v[2 * h] >> 8) + 1) * 0x1p-24, u2 = (r.v[2 * h + 1] >> 8) * 0x1p-24;
        const double rad = std::sqrt(-2.0 * std::log(u1)), th = 2.0 * 3.141592653589793 * u2;
        out[j / 2 + static_cast<std::size_t>(h)] = static_cast<float>(rad * std::cos(th));
      }
    });
  });
}

void BM_PhiloxNormalFloat(benchmark::State& state) {
  std::vector<float> out(static_cast<std::size_t>(state.range(0)));
  const double peer = random123_normal_seconds(out);
  const trnrand::Stream s = trnrand::make_stream(12345);
  for (auto _ : state) {
    trnrand::normal(s, std::span<float>(out), 0.0f, 1.0f, trncore::Options{}.with_threads(1));
    benchmark::ClobberMemory();
  }
  counters(state, out.size(), peer);
  state.SetLabel("normal float (Box-Muller), 1 thread");
}

// The peer for double normal fills: Random123's words turned into double normals by the same loop on the
// 53-bit grid (four words per value: u1 ∈ (0, 1], u2 ∈ [0, 1), the cosine half, as trnrand's double normal).
double random123_normal_double_seconds(std::vector<double>& out) {
  return best_seconds(3, [&] {
    random123_blocks(4 * out.size(), [&](std::size_t j, const auto& r) {
      const std::uint64_t a = ((static_cast<std::uint64_t>(r.v[0]) << 32) | r.v[1]) >> 11;
      const std::uint64_t b = ((static_cast<std::uint64_t>(r.v[2]) << 32) | r.v[3]) >> 11;
      const double u1 = static_cast<double>(a + 1) * 0x1p-53, u2 = static_cast<double>(b) * 0x1p-53;
      out[j / 4] = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.141592653589793 * u2);
    });
  });
}

void BM_PhiloxNormalDouble(benchmark::State& state) {
  std::vector<double> out(static_cast<std::size_t>(state.range(0)));
  const double peer = random123_normal_double_seconds(out);
  const trnrand::Stream s = trnrand::make_stream(12345);
  for (auto _ : state) {
    trnrand::normal(s, std::span<double>(out), 0.0, 1.0, trncore::Options{}.with_threads(1));
    benchmark::ClobberMemory();
  }
  counters(state, out.size(), peer);
  state.SetLabel("normal double (Box-Muller), 1 thread");
}

// The transform alone, per SLEEF variant (trnrand/detail/normal_kernel.hpp; every variant gives the same bits),
// on 2^20 values' words made beforehand, against the same words through libm's log, sqrt and cos in a plain
// loop (float grid): what each instruction set contributes without the generator. Variants this CPU lacks
// are skipped.
void BM_NormalKernel(benchmark::State& state) {
  using trnrand::detail::NormalKernel;
  const auto kernel = static_cast<NormalKernel>(state.range(0));
  if (!trnrand::detail::normal_kernel_supported(kernel)) {
    state.SkipWithError("this CPU lacks the variant");
    return;
  }
  const std::size_t n = std::size_t{1} << 20;
  std::vector<std::uint32_t> w(2 * n);
  trnrand::fill_uint32(trnrand::make_stream(12345), w);
  std::vector<double> z(n);
  const double peer = best_seconds(3, [&] {
    for (std::size_t i = 0; i < n; ++i) {
      const double u1 = ((w[2 * i] >> 8) + 1) * 0x1p-24, u2 = (w[2 * i + 1] >> 8) * 0x1p-24;
      z[i] = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.141592653589793 * u2);
    }
  });
  for (auto _ : state) {
    trnrand::detail::standard_normals(kernel, w, 1, z);
    benchmark::ClobberMemory();
  }
  state.counters["values_per_s"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["libm_values_per_s"] = static_cast<double>(n) / peer;
  state.counters["ratio_to_libm"] = benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("transform only, " + std::string(trnrand::detail::to_string(kernel)));
}

// The peer for the sim normal kernel and for its host twin: the host normal() fill (double Box–Muller,
// 1 thread) on the same stream and size. ratio_to_host_normal = host normal() time / this time.
double host_normal_seconds(std::vector<float>& out) {
  return best_seconds(3, [&] {
    trnrand::normal(trnrand::make_stream(12345), std::span<float>(out), 0.0f, 1.0f, trncore::Options{}.with_threads(1));
  });
}

void normal_counters(benchmark::State& state, std::size_t n, double peer) {
  state.counters["values_per_s"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["host_normal_values_per_s"] = static_cast<double>(n) / peer;
  state.counters["ratio_to_host_normal"] = benchmark::Counter(peer, benchmark::Counter::kIsIterationInvariantRate);
}

// sim::normal: the whole kernel (Philox on the GpSimdEngine, Box–Muller on the Vector/Scalar engines) run
// on the NeuronCore model — how long the model takes on this CPU, not how long a NeuronCore would.
void BM_SimNormalFloat(benchmark::State& state) {
  std::vector<float> out(static_cast<std::size_t>(state.range(0)));
  const double peer = host_normal_seconds(out);
  const trnrand::Stream s = trnrand::make_stream(12345);
  for (auto _ : state) {
    trncore::sim::NeuronCore core;
    trnrand::sim::normal(s, out, 0.0f, 1.0f, core);
    benchmark::ClobberMemory();
  }
  normal_counters(state, out.size(), peer);
  state.SetLabel("sim::normal on the NeuronCore model");
}

// normal_engine_order: the kernel's fp32 roundings on the host (bitwise equal to sim::normal).
void BM_NormalEngineOrderFloat(benchmark::State& state) {
  std::vector<float> out(static_cast<std::size_t>(state.range(0)));
  const int threads = static_cast<int>(state.range(1));
  const double peer = host_normal_seconds(out);
  const trnrand::Stream s = trnrand::make_stream(12345);
  for (auto _ : state) {
    trnrand::normal_engine_order(s, out, 0.0f, 1.0f, trncore::Options{}.with_threads(threads));
    benchmark::ClobberMemory();
  }
  normal_counters(state, out.size(), peer);
  state.SetLabel("normal_engine_order, " + std::to_string(threads) + " thread(s)");
}

}  // namespace

BENCHMARK(BM_SimNormalFloat)->Arg(1 << 20)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormalEngineOrderFloat)->ArgsProduct({{1 << 20}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PhiloxNormalFloat)->Arg(1 << 22)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PhiloxNormalDouble)->Arg(1 << 22)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NormalKernel)
    ->DenseRange(static_cast<int>(trnrand::detail::NormalKernel::scalar),
                 static_cast<int>(trnrand::detail::NormalKernel::avx512))
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PhiloxUint32)->ArgsProduct({{1 << 22}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PhiloxUniformFloat)->ArgsProduct({{1 << 22}, {1, 2}})->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
