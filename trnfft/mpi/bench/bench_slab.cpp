// The slab-decomposed distributed FFT against FFTW's MPI interface (fftw_mpi_plan_many_dft, _r2c), same
// sizes, same layouts, same input, same planner rigor (FFTW_ESTIMATE; the _measure variant FFTW_MEASURE for
// both), one thread per rank, in the same run and the same iterations. Every rank runs the same fixed number
// of iterations; a timing is the slowest rank's.
// Also the pencil plan with sim local transforms against the single-process sim plan (BM_PencilSim*).
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe trnfft_mpi_bench_slab
#include <trnfft/mpi/pencil.hpp>
#include <trnfft/mpi/slab.hpp>

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

constexpr int kIterations = 5;

using fft_mpi_bench::slowest_seconds;

// variant: 0 = c2c forward, normal output; 1 = c2c forward, transposed output; 2 = r2c, normal output.
// rigor: 0 = estimate (FFTW_ESTIMATE), 1 = measure (FFTW_MEASURE), for both.
// Each iteration runs FFTW-MPI, then ours, on the same input (interleaved, so load on the machine hits both
// alike); the manual time is ours; counters: both means (ms), ratio = FFTW-MPI's time / ours (≥ 1: ours is
// faster) and the largest relative difference of the two outputs (‖ours − fftw‖∞ / ‖fftw‖∞ over all ranks).
void BM_SlabVsFftwMpi(benchmark::State& state, int variant, int rigor) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto n = static_cast<ptrdiff_t>(state.range(0));
  const ptrdiff_t dims[3] = {n, n, n};
  ptrdiff_t cd[3] = {n, n, variant == 2 ? n / 2 + 1 : n};
  ptrdiff_t ln0, s0, ln1, s1;
  const auto alloc = fftw_mpi_local_size_many_transposed(3, cd, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                         comm.native(), &ln0, &s0, &ln1, &s1);
  auto* fin = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  auto* fout = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan_with_nthreads(1);  // one thread per rank, as the trnfft plans
  const unsigned flags = (rigor ? FFTW_MEASURE : FFTW_ESTIMATE) | (variant == 1 ? FFTW_MPI_TRANSPOSED_OUT : 0u);
  fftw_plan p = variant == 2 ? fftw_mpi_plan_many_dft_r2c(3, dims, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                          reinterpret_cast<double*>(fin), fout, comm.native(), flags)
                             : fftw_mpi_plan_many_dft(3, dims, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, fin,
                                                      fout, comm.native(), FFTW_FORWARD, flags);

  const std::vector<std::int64_t> tdims{n, n, n};
  const auto options =
      trnfft::PlanOptions{}.with_threads(1).with_rigor(rigor ? trnfft::Rigor::measure : trnfft::Rigor::estimate);
  const trnfft::mpi::SlabOptions slab{false, variant == 1};
  trnfft::mpi::SlabPlan<double> plan =
      variant == 2 ? trnfft::mpi::plan_slab_r2c<double>(comm, tdims, options, slab)
                   : trnfft::mpi::plan_slab_c2c<double>(comm, tdims, trnfft::Direction::forward, options, slab);
  const auto& L = plan.layout();
  std::vector<double> rin;
  std::vector<std::complex<double>> cin, out(static_cast<std::size_t>(L.output_size));
  // The same input for both (FFTW's r2c input is padded to 2·(n/2 + 1) reals per row; FFTW_MEASURE planning
  // above has overwritten its arrays, so they are filled now).
  const auto g0 = L.local_0_start;
  auto value = [&](std::int64_t i0, std::int64_t j, std::int64_t k) {
    return std::sin(0.001 * static_cast<double>(((g0 + i0) * n + j) * n + k) + 0.3);
  };
  if (variant == 2) {
    rin.resize(static_cast<std::size_t>(L.input_size));
    auto* fr = reinterpret_cast<double*>(fin);
    for (std::int64_t i = 0; i < L.local_n0; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t k = 0; k < n; ++k) {
          rin[static_cast<std::size_t>((i * n + j) * n + k)] = value(i, j, k);
          fr[(i * n + j) * 2 * cd[2] + k] = value(i, j, k);
        }
  } else {
    cin.resize(static_cast<std::size_t>(L.input_size));
    for (std::int64_t i = 0; i < L.local_n0; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t k = 0; k < n; ++k) {
          const std::complex<double> v{value(i, j, k), value(i, k, j)};
          cin[static_cast<std::size_t>((i * n + j) * n + k)] = v;
          fin[(i * n + j) * n + k][0] = v.real();
          fin[(i * n + j) * n + k][1] = v.imag();
        }
  }
  double fftw_total = 0, ours_total = 0;
  for (auto _ : state) {
    fftw_total += slowest_seconds(comm, [&] { fftw_execute(p); });
    const double ours = slowest_seconds(comm, [&] {
      if (variant == 2)
        plan.execute(rin, out);
      else
        plan.execute(cin, out);
    });
    ours_total += ours;
    state.SetIterationTime(ours);
  }
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    diff = std::max(diff, std::abs(out[i] - std::complex<double>(fout[i][0], fout[i][1])));
    norm = std::max(norm, std::abs(std::complex<double>(fout[i][0], fout[i][1])));
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["fftw_mpi_ms"] = 1e3 * fftw_total / iters;
  state.counters["trnfft_ms"] = 1e3 * ours_total / iters;
  state.counters["ratio_vs_fftw_mpi"] = fftw_total / ours_total;
  state.counters["max_rel_diff"] = comm.allreduce_max(diff) / comm.allreduce_max(norm);
  fftw_destroy_plan(p);
  fftw_free(fin);
  fftw_free(fout);
}

BENCHMARK_CAPTURE(BM_SlabVsFftwMpi, c2c_estimate, 0, 0)
    ->Arg(32)
    ->Arg(128)
    ->Arg(256)
    ->Iterations(kIterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SlabVsFftwMpi, c2c_transposed_out_estimate, 1, 0)
    ->Arg(32)
    ->Arg(128)
    ->Arg(256)
    ->Iterations(kIterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SlabVsFftwMpi, r2c_estimate, 2, 0)
    ->Arg(32)
    ->Arg(128)
    ->Arg(256)
    ->Iterations(kIterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SlabVsFftwMpi, c2c_measure, 0, 1)
    ->Arg(32)
    ->Arg(128)
    ->Arg(256)
    ->Iterations(kIterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// The pencil plan with sim local transforms (float, n³ c2c forward, on the most square P0 × P1 grid, P0 ≤ P1)
// against the single-process trnfft sim plan of the whole array in the same mode, in the same iterations; the
// single-process plan runs on every rank at once (the same load on the machine as the distributed run), one
// thread per rank for both. Sim time is the simulator's host time, not modelled hardware time. Counters: both
// means (ms), speedup = single / pencil, the pencil's composed bound and the single-process plan's bound (equal
// up to evaluation for fp32 and compensated), and max_rel_diff of the two outputs (0: bitwise, as pencil.hpp
// states for these modes).
void BM_PencilSimVsSingleProcess(benchmark::State& state, trncore::MathMode mode) {
  using C = std::complex<float>;
  const auto comm = trncore::mpi::Communicator::world();
  const auto n = static_cast<std::int64_t>(state.range(0));
  const std::vector<std::int64_t> d{n, n, n};
  std::int64_t P0 = 1;
  for (std::int64_t r = 1; r * r <= comm.size(); ++r)
    if (comm.size() % r == 0) P0 = r;
  const auto options = trnfft::PlanOptions{}.with_backend(trncore::Backend::sim).with_math_mode(mode).with_threads(1);
  auto plan = trnfft::mpi::plan_pencil_c2c<float>(comm, P0, comm.size() / P0, d, trnfft::Direction::forward, options);
  const auto& L = plan.layout();
  std::vector<C> x(static_cast<std::size_t>(n * n * n)), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = {static_cast<float>(std::sin(0.001 * static_cast<double>(i) + 0.3)),
            static_cast<float>(std::cos(0.002 * static_cast<double>(i)))};
  auto single = trnfft::plan_dft<float>(d, x.data(), y.data(), trnfft::Direction::forward, options);
  std::vector<C> xl, yl(static_cast<std::size_t>(L.output_size));
  for (std::int64_t i = L.in_0_start; i < L.in_0_start + L.in_n0; ++i)
    for (std::int64_t j = L.in_1_start; j < L.in_1_start + L.in_n1; ++j)
      for (std::int64_t k = 0; k < n; ++k) xl.push_back(x[static_cast<std::size_t>((i * n + j) * n + k)]);
  trncore::AccuracyReport rp, rs;
  double single_total = 0, ours_total = 0;
  for (auto _ : state) {
    single_total += slowest_seconds(comm, [&] { single.execute(x.data(), y.data(), rs); });
    const double ours = slowest_seconds(comm, [&] { plan.execute(xl, yl, rp); });
    ours_total += ours;
    state.SetIterationTime(ours);
  }
  double diff = 0, norm = 0;
  std::size_t at = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = L.out_1_start; j < L.out_1_start + L.out_n1; ++j)
      for (std::int64_t k = L.out_2_start; k < L.out_2_start + L.out_n2; ++k) {
        const auto ref = y[static_cast<std::size_t>((i * n + j) * n + k)];
        diff = std::max(diff, static_cast<double>(std::abs(yl[at++] - ref)));
        norm = std::max(norm, static_cast<double>(std::abs(ref)));
      }
  const double iters = static_cast<double>(state.iterations());
  state.counters["single_ms"] = 1e3 * single_total / iters;
  state.counters["pencil_ms"] = 1e3 * ours_total / iters;
  state.counters["speedup_vs_single"] = single_total / ours_total;
  state.counters["pencil_bound"] = rp.a_priori_bound;
  state.counters["single_bound"] = rs.a_priori_bound;
  state.counters["max_rel_diff"] = comm.allreduce_max(diff) / comm.allreduce_max(norm);
}

BENCHMARK_CAPTURE(BM_PencilSimVsSingleProcess, fp32, trncore::MathMode::fp32)
    ->Arg(32)
    ->Arg(64)
    ->Iterations(kIterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PencilSimVsSingleProcess, compensated, trncore::MathMode::compensated)
    ->Arg(32)
    ->Arg(64)
    ->Iterations(kIterations)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  trncore::mpi::Environment env(argc, argv);
  fft_mpi_bench::init_fftw_mpi();
  return trnsci_testing::run_mpi_benchmarks(argc, argv);
}
