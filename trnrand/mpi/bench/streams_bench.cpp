// trnrand::mpi fills against the serial single-process fill of the same total, timed in the same run
// (run with mpirun -np P; docs/benchmarks.md). Each iteration: barrier, every rank fills its slice (1 thread
// per rank), the time is the slowest rank's (allreduce_max), argument check included. The peer is the
// serial trnrand fill of all `total` values with 1 thread, run on every rank at the same time (best of 3,
// slowest rank), so speedup_vs_serial = serial time / distributed time (ideal: P on P free cores). The result is bitwise the
// serial fill (tests/streams_test.cpp); here only speed is measured. Iteration counts are fixed so every
// rank runs the same collectives; rank 0 prints.
#include <trncore/mpi.hpp>
#include <trnsci_testing/mpi_benchmark.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/mpi/streams.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace {

using trncore::mpi::Communicator;
namespace samplers = trnrand::mpi::samplers;

const trncore::Options kOneThread = trncore::Options{}.with_threads(1);

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The serial peer: prepare() once (allocation and first touch, not timed), then the best of 3 runs of
// serial() — on every rank at once, so that the peer runs under the same load as the distributed fill (a
// rank waiting in a collective would otherwise spin on a core the peer needs); the slowest rank's time.
template <class P, class F>
double serial_seconds(const Communicator& comm, P&& prepare, F&& serial) {
  prepare();
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    comm.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    serial();
    benchmark::ClobberMemory();
    best = std::min(best, comm.allreduce_max(seconds_since(t0)));
  }
  return best;
}

// Times `distributed` (slowest rank per iteration) and reports the speedup over `serial`.
template <class D>
void run(benchmark::State& state, const Communicator& comm, double serial, std::uint64_t values, D&& distributed) {
  double sum = 0;
  for (auto _ : state) {
    comm.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    distributed();
    benchmark::ClobberMemory();
    const double t = comm.allreduce_max(seconds_since(t0));
    sum += t;
    state.SetIterationTime(t);
  }
  const double mean = sum / static_cast<double>(state.iterations());
  state.counters["ranks"] = comm.size();
  state.counters["serial_ms"] = serial * 1e3;
  state.counters["speedup_vs_serial"] = serial / mean;
  state.counters["values_per_s"] = static_cast<double>(values) / mean;
}

template <class T>
void fill_case(benchmark::State& state, const trnrand::mpi::Sampler<T>& sampler) {
  const Communicator comm = Communicator::world();
  const auto total = static_cast<std::uint64_t>(state.range(0));
  const trnrand::Stream s = trnrand::make_stream(2026);
  std::vector<T> all;
  const double serial = serial_seconds(
      comm, [&] { all.assign(total * sampler.width(), T(1)); },
      [&] {
        sampler(s, std::span<T>(all), kOneThread);
        benchmark::DoNotOptimize(all.data());
      });
  all = {};
  std::vector<T> local(trnrand::mpi::local_slice(comm, total).count * sampler.width());
  run(state, comm, serial, total,
      [&] { trnrand::mpi::fill(comm, s, total, sampler, std::span<T>(local), kOneThread); });
}

void BM_fill_normal_float(benchmark::State& state) { fill_case(state, samplers::normal(0.0f, 1.0f)); }
void BM_fill_normal_double(benchmark::State& state) { fill_case(state, samplers::normal(0.0, 1.0)); }
void BM_fill_uniform_float(benchmark::State& state) { fill_case(state, samplers::uniform<float>()); }
void BM_fill_gamma_double(benchmark::State& state) { fill_case(state, samplers::gamma(2.5)); }

// An n×n block-cyclic matrix (64×64 blocks) on the most square grid, against the serial fill of n² values.
void BM_fill_block_cyclic_normal_double(benchmark::State& state) {
  const Communicator comm = Communicator::world();
  const std::int64_t n = state.range(0);
  const auto sampler = samplers::normal(0.0, 1.0);
  const trnrand::Stream s = trnrand::make_stream(2026);
  std::vector<double> all;
  const double serial = serial_seconds(
      comm, [&] { all.assign(static_cast<std::size_t>(n * n), 1.0); },
      [&] {
        sampler(s, std::span<double>(all), kOneThread);
        benchmark::DoNotOptimize(all.data());
      });
  all = {};
  const trncore::mpi::ProcessGrid grid = trncore::mpi::ProcessGrid::square(comm);
  const auto desc = trncore::mpi::make_descriptor(grid, n, n, 64, 64);
  std::vector<double> local(static_cast<std::size_t>(trncore::mpi::local_size(desc, grid)));
  run(state, comm, serial, static_cast<std::uint64_t>(n * n), [&] {
    trnrand::mpi::fill_block_cyclic(grid, desc, s, sampler, std::span<double>(local),
                                    trnrand::mpi::Layout::column_major, kOneThread);
  });
}

void BM_randperm(benchmark::State& state) {
  const Communicator comm = Communicator::world();
  const auto total = static_cast<std::uint64_t>(state.range(0));
  const trnrand::Stream s = trnrand::make_stream(2026);
  std::vector<std::int64_t> all;
  const double serial = serial_seconds(
      comm, [&] { all.assign(total, 1); },
      [&] {
        trnrand::randperm(s, std::span<std::int64_t>(all), kOneThread);
        benchmark::DoNotOptimize(all.data());
      });
  all = {};
  std::vector<std::int64_t> local(trnrand::mpi::local_slice(comm, total).count);
  run(state, comm, serial, total,
      [&] { trnrand::mpi::randperm(comm, s, total, std::span<std::int64_t>(local), kOneThread); });
}

// The large sizes are the measurement; the 4096-value (n = 64) ones are ctest's smoke run (SMOKE_ARGS
// filters them).
BENCHMARK(BM_fill_normal_float)->Arg(4096)->Arg(1 << 24)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fill_normal_double)
    ->Arg(4096)
    ->Arg(1 << 23)
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fill_uniform_float)
    ->Arg(4096)
    ->Arg(1 << 25)
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fill_gamma_double)->Arg(4096)->Arg(1 << 22)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fill_block_cyclic_normal_double)
    ->Arg(64)
    ->Arg(2048)
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_randperm)->Arg(4096)->Arg(1 << 22)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  trncore::mpi::Environment environment(argc, argv);
  return trnsci_testing::run_mpi_benchmarks(argc, argv);
}
