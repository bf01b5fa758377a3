// The distributed 1-D FFT (six-step, fft1d.hpp) against FFTW's MPI 1-D transform (fftw_mpi_plan_dft_1d),
// each in its own distribution (the two differ, as FFTW-MPI's local_ni/local_no do), same length, same
// planner rigor (FFTW_ESTIMATE), one thread per rank, interleaved in the same iterations. Every rank runs
// the same fixed number of iterations; a timing is the slowest rank's. Counters: both means (ms) and
// ratio = FFTW-MPI's time / ours (≥ 1: ours is faster).
// BM_R2cVsC2c: the distributed r2c against the distributed c2c and FFTW-MPI's c2c of the same length (below).
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe trnfft_mpi_bench_fft1d
#include <trnfft/mpi/fft1d.hpp>

#include <trncore/mpi.hpp>

#include <benchmark/benchmark.h>
#include <trnsci_testing/mpi_benchmark.hpp>
#include <fftw3-mpi.h>

#include "fft_mpi_bench_support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <functional>
#include <vector>

namespace {

using fft_mpi_bench::slowest_seconds;
using fft_mpi_bench::Timing;

void BM_Fft1dVsFftwMpi(benchmark::State& state) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto n = static_cast<std::int64_t>(state.range(0));
  auto value = [](std::int64_t g) {
    return std::complex<double>(std::sin(0.001 * static_cast<double>(g)), std::cos(0.003 * static_cast<double>(g)));
  };
  const fft_mpi_bench::FftwMpi1d fftw(comm, n, value);
  auto plan =
      trnfft::mpi::plan_dft_1d<double>(comm, n, trnfft::Direction::forward, trnfft::PlanOptions{}.with_threads(1));
  const auto& L = plan.layout();
  std::vector<std::complex<double>> in(static_cast<std::size_t>(L.input_size)),
      out(static_cast<std::size_t>(L.output_size));
  for (std::int64_t i = 0; i < L.input_size; ++i) in[static_cast<std::size_t>(i)] = value(L.input_start * L.n1 + i);
  Timing fftw_t, ours_t;
  for (auto _ : state) {
    fftw_t.add(slowest_seconds(comm, [&] { fftw.execute(); }));
    const double ours = slowest_seconds(comm, [&] { plan.execute(in, out); });
    ours_t.add(ours);
    state.SetIterationTime(ours);
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["fftw_mpi_ms"] = 1e3 * fftw_t.total / iters;
  state.counters["trnfft_ms"] = 1e3 * ours_t.total / iters;
  state.counters["ratio_vs_fftw_mpi"] = fftw_t.total / ours_t.total;
  state.counters["min_ratio_vs_fftw_mpi"] = fftw_t.best / ours_t.best;  // best iteration of each
}

BENCHMARK(BM_Fft1dVsFftwMpi)
    ->Arg(1 << 12)
    ->Arg(1 << 20)
    ->Arg(1 << 22)
    ->Arg(1 << 24)
    ->Iterations(10)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// The distributed r2c of N reals against the distributed c2c of the same N points ((x, 0)) and FFTW-MPI's 1-D c2c
// of N points (FFTW-MPI has no 1-D r2c: fftw_mpi_plan_dft_r2c_1d does not exist, its r2c is multi-dimensional
// only), same rigor (FFTW_ESTIMATE), one thread per rank, interleaved in the same iterations. Counters: the three
// means (ms, slowest rank) and the ratios c2c / r2c and FFTW-MPI c2c / r2c (> 1: the r2c is faster), and the same
// from the best iteration of each (min_*).
void BM_R2cVsC2c(benchmark::State& state) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto n = static_cast<std::int64_t>(state.range(0));
  const auto options = trnfft::PlanOptions{}.with_threads(1);
  auto r2c = trnfft::mpi::plan_dft_r2c_1d<double>(comm, n, options);
  auto c2c = trnfft::mpi::plan_dft_1d<double>(comm, n, trnfft::Direction::forward, options);
  const auto& R = r2c.layout();
  const auto& C = c2c.layout();
  auto value = [](std::int64_t g) { return std::sin(0.001 * static_cast<double>(g)) + 0.25; };
  std::vector<double> rin(static_cast<std::size_t>(R.input_size));
  std::vector<std::complex<double>> rout(static_cast<std::size_t>(R.output_size));
  for (std::int64_t i = 0; i < R.input_size; ++i) rin[static_cast<std::size_t>(i)] = value(R.input_offset + i);
  std::vector<std::complex<double>> cin(static_cast<std::size_t>(C.input_size)),
      cout(static_cast<std::size_t>(C.output_size));
  for (std::int64_t i = 0; i < C.input_size; ++i) cin[static_cast<std::size_t>(i)] = {value(C.input_offset + i), 0.0};
  const fft_mpi_bench::FftwMpi1d fftw(comm, n, [&](std::int64_t g) { return std::complex<double>(value(g), 0.0); });
  Timing r2c_t, c2c_t, fftw_t;
  for (auto _ : state) {
    const double t = slowest_seconds(comm, [&] { r2c.execute(rin, rout); });
    r2c_t.add(t);
    c2c_t.add(slowest_seconds(comm, [&] { c2c.execute(cin, cout); }));
    fftw_t.add(slowest_seconds(comm, [&] { fftw.execute(); }));
    state.SetIterationTime(t);
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["r2c_ms"] = 1e3 * r2c_t.total / iters;
  state.counters["c2c_ms"] = 1e3 * c2c_t.total / iters;
  state.counters["fftw_mpi_c2c_ms"] = 1e3 * fftw_t.total / iters;
  state.counters["c2c_over_r2c"] = c2c_t.total / r2c_t.total;
  state.counters["fftw_mpi_c2c_over_r2c"] = fftw_t.total / r2c_t.total;
  // Best of the iterations (robust on a shared machine): the same ratios from the minima.
  state.counters["min_r2c_ms"] = 1e3 * r2c_t.best;
  state.counters["min_c2c_ms"] = 1e3 * c2c_t.best;
  state.counters["min_fftw_mpi_c2c_ms"] = 1e3 * fftw_t.best;
  state.counters["min_c2c_over_r2c"] = c2c_t.best / r2c_t.best;
  state.counters["min_fftw_mpi_c2c_over_r2c"] = fftw_t.best / r2c_t.best;
}

BENCHMARK(BM_R2cVsC2c)
    ->Arg(1 << 12)
    ->Arg(1 << 20)
    ->Arg(1 << 21)
    ->Arg(1 << 22)
    ->Iterations(20)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  trncore::mpi::Environment env(argc, argv);
  fft_mpi_bench::init_fftw_mpi();
  return trnsci_testing::run_mpi_benchmarks(argc, argv);
}
