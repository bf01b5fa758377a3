// The slab-decomposed distributed FFT against FFTW's MPI interface (fftw_mpi_plan_many_dft, _r2c), same
// sizes, same layouts, same input, same planner rigor (FFTW_ESTIMATE; the _measure variant FFTW_MEASURE for
// both), one thread per rank, in the same run and the same iterations. Every rank runs the same fixed number
// of iterations; a timing is the slowest rank's.
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe trnfft_mpi_bench_slab
#include <trnfft/mpi/slab.hpp>

#include <trncore/mpi.hpp>

#include <benchmark/benchmark.h>
#include <trnsci_testing/mpi_benchmark.hpp>
#include <fftw3-mpi.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <functional>
#include <vector>

namespace {

constexpr int kIterations = 5;

double slowest_seconds(const trncore::mpi::Communicator& comm, const std::function<void()>& f) {
  comm.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return comm.allreduce_max(mine);
}

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
