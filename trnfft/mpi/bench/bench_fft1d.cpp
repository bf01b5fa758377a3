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

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <functional>
#include <vector>

namespace {

double slowest_seconds(const trncore::mpi::Communicator& comm, const std::function<void()>& f) {
  comm.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return comm.allreduce_max(mine);
}

void BM_Fft1dVsFftwMpi(benchmark::State& state) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto n = static_cast<ptrdiff_t>(state.range(0));
  ptrdiff_t ni, si, no, so;
  fftw_plan_with_nthreads(1);
  const auto alloc = fftw_mpi_local_size_1d(n, comm.native(), FFTW_FORWARD, FFTW_ESTIMATE, &ni, &si, &no, &so);
  auto* a = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  auto* b = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan p = fftw_mpi_plan_dft_1d(n, a, b, comm.native(), FFTW_FORWARD, FFTW_ESTIMATE);
  for (ptrdiff_t i = 0; i < ni; ++i) {
    a[i][0] = std::sin(0.001 * static_cast<double>(si + i));
    a[i][1] = std::cos(0.003 * static_cast<double>(si + i));
  }
  auto plan =
      trnfft::mpi::plan_dft_1d<double>(comm, n, trnfft::Direction::forward, trnfft::PlanOptions{}.with_threads(1));
  const auto& L = plan.layout();
  std::vector<std::complex<double>> in(static_cast<std::size_t>(L.input_size)),
      out(static_cast<std::size_t>(L.output_size));
  for (std::int64_t i = 0; i < L.input_size; ++i) {
    const auto g = static_cast<double>(L.input_start * L.n1 + i);
    in[static_cast<std::size_t>(i)] = {std::sin(0.001 * g), std::cos(0.003 * g)};
  }
  double fftw_total = 0, ours_total = 0, fftw_min = 1e300, ours_min = 1e300;
  for (auto _ : state) {
    const double f = slowest_seconds(comm, [&] { fftw_execute(p); });
    const double ours = slowest_seconds(comm, [&] { plan.execute(in, out); });
    fftw_total += f;
    ours_total += ours;
    fftw_min = std::min(fftw_min, f);
    ours_min = std::min(ours_min, ours);
    state.SetIterationTime(ours);
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["fftw_mpi_ms"] = 1e3 * fftw_total / iters;
  state.counters["trnfft_ms"] = 1e3 * ours_total / iters;
  state.counters["ratio_vs_fftw_mpi"] = fftw_total / ours_total;
  state.counters["min_ratio_vs_fftw_mpi"] = fftw_min / ours_min;  // best iteration of each
  fftw_destroy_plan(p);
  fftw_free(a);
  fftw_free(b);
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
  ptrdiff_t ni, si, no, so;
  fftw_plan_with_nthreads(1);
  const auto alloc = fftw_mpi_local_size_1d(n, comm.native(), FFTW_FORWARD, FFTW_ESTIMATE, &ni, &si, &no, &so);
  auto* a = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  auto* b = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan p = fftw_mpi_plan_dft_1d(n, a, b, comm.native(), FFTW_FORWARD, FFTW_ESTIMATE);
  for (ptrdiff_t i = 0; i < ni; ++i) {
    a[i][0] = value(si + i);
    a[i][1] = 0.0;
  }
  double r2c_total = 0, c2c_total = 0, fftw_total = 0;
  double r2c_min = 1e300, c2c_min = 1e300, fftw_min = 1e300;
  for (auto _ : state) {
    const double t = slowest_seconds(comm, [&] { r2c.execute(rin, rout); });
    const double c = slowest_seconds(comm, [&] { c2c.execute(cin, cout); });
    const double f = slowest_seconds(comm, [&] { fftw_execute(p); });
    r2c_total += t;
    c2c_total += c;
    fftw_total += f;
    r2c_min = std::min(r2c_min, t);
    c2c_min = std::min(c2c_min, c);
    fftw_min = std::min(fftw_min, f);
    state.SetIterationTime(t);
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["r2c_ms"] = 1e3 * r2c_total / iters;
  state.counters["c2c_ms"] = 1e3 * c2c_total / iters;
  state.counters["fftw_mpi_c2c_ms"] = 1e3 * fftw_total / iters;
  state.counters["c2c_over_r2c"] = c2c_total / r2c_total;
  state.counters["fftw_mpi_c2c_over_r2c"] = fftw_total / r2c_total;
  // Best of the iterations (robust on a shared machine): the same ratios from the minima.
  state.counters["min_r2c_ms"] = 1e3 * r2c_min;
  state.counters["min_c2c_ms"] = 1e3 * c2c_min;
  state.counters["min_fftw_mpi_c2c_ms"] = 1e3 * fftw_min;
  state.counters["min_c2c_over_r2c"] = c2c_min / r2c_min;
  state.counters["min_fftw_mpi_c2c_over_r2c"] = fftw_min / r2c_min;
  fftw_destroy_plan(p);
  fftw_free(a);
  fftw_free(b);
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
  {  // fftw_init_threads (trnfft's first plan calls it) must precede fftw_mpi_init
    std::vector<std::complex<double>> a(4), b(4);
    trnfft::plan_dft_1d<double>(4, a.data(), b.data(), trnfft::Direction::forward);
  }
  fftw_mpi_init();
  return trnsci_testing::run_mpi_benchmarks(argc, argv);
}
