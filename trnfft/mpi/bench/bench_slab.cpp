// The slab-decomposed distributed FFT against FFTW's MPI interface (fftw_mpi_plan_many_dft, _r2c), same
// sizes, same layouts, same planner rigor (FFTW_ESTIMATE; /measure variants use FFTW_MEASURE for both),
// one thread per rank, in the same run. Every rank runs the same fixed number of iterations; an iteration's
// time is the slowest rank's (manual time). The ratio counter is FFTW-MPI's time / ours, from the
// BM_FftwMpi* run of the same size printed just before (≥ 1: we are faster).
// Run: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe trnfft_mpi_bench_slab
#include <trnfft/mpi/slab.hpp>

#include <trncore/mpi.hpp>

#include <benchmark/benchmark.h>
#include <fftw3-mpi.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <map>
#include <vector>

namespace {

constexpr int kIterations = 5;
std::map<std::pair<int, std::int64_t>, double> g_fftw_seconds;  // (variant, n) → FFTW-MPI's mean time

template <class F>
double timed(benchmark::State& state, const trncore::mpi::Communicator& comm, F&& f) {
  double total = 0;
  for (auto _ : state) {
    comm.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double slowest = comm.allreduce_max(mine);
    state.SetIterationTime(slowest);
    total += slowest;
  }
  const double mean = total / static_cast<double>(state.iterations());
  const double n = static_cast<double>(state.range(0));
  state.counters["GFlops"] = 5.0 * n * n * n * std::log2(n * n * n) / mean * 1e-9;
  return mean;
}

// variant: 0 = c2c normal out, 1 = c2c transposed out, 2 = r2c normal out; rigor: 0 estimate, 1 measure.
void BM_FftwMpi(benchmark::State& state, int variant, int rigor) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto n = static_cast<ptrdiff_t>(state.range(0));
  const ptrdiff_t dims[3] = {n, n, n};
  ptrdiff_t cd[3] = {n, n, variant == 2 ? n / 2 + 1 : n};
  ptrdiff_t ln0, s0, ln1, s1;
  const auto alloc = fftw_mpi_local_size_many_transposed(3, cd, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                         comm.native(), &ln0, &s0, &ln1, &s1);
  auto* in = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  auto* out = fftw_alloc_complex(static_cast<std::size_t>(alloc));
  fftw_plan_with_nthreads(1);  // one thread per rank, as the trnfft plans
  const unsigned flags = (rigor ? FFTW_MEASURE : FFTW_ESTIMATE) | (variant == 1 ? FFTW_MPI_TRANSPOSED_OUT : 0u);
  fftw_plan p = variant == 2 ? fftw_mpi_plan_many_dft_r2c(3, dims, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                                          reinterpret_cast<double*>(in), out, comm.native(), flags)
                             : fftw_mpi_plan_many_dft(3, dims, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, in,
                                                      out, comm.native(), FFTW_FORWARD, flags);
  for (ptrdiff_t i = 0; i < alloc; ++i) {
    in[i][0] = std::sin(0.1 * static_cast<double>(i));
    in[i][1] = variant == 2 ? std::sin(0.1 * static_cast<double>(i) + 1.0) : std::cos(0.3 * static_cast<double>(i));
  }
  g_fftw_seconds[{variant * 2 + rigor, n}] = timed(state, comm, [&] { fftw_execute(p); });
  fftw_destroy_plan(p);
  fftw_free(in);
  fftw_free(out);
}

void BM_Trnfft(benchmark::State& state, int variant, int rigor) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto n = state.range(0);
  const std::vector<std::int64_t> dims{n, n, n};
  const auto options =
      trnfft::PlanOptions{}.with_threads(1).with_rigor(rigor ? trnfft::Rigor::measure : trnfft::Rigor::estimate);
  const trnfft::mpi::SlabOptions slab{false, variant == 1};
  double mean = 0;
  if (variant == 2) {
    auto plan = trnfft::mpi::plan_slab_r2c<double>(comm, dims, options, slab);
    std::vector<double> in(static_cast<std::size_t>(plan.layout().input_size));
    std::vector<std::complex<double>> out(static_cast<std::size_t>(plan.layout().output_size));
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.1 * static_cast<double>(i));
    mean = timed(state, comm, [&] { plan.execute(in, out); });
  } else {
    auto plan = trnfft::mpi::plan_slab_c2c<double>(comm, dims, trnfft::Direction::forward, options, slab);
    std::vector<std::complex<double>> in(static_cast<std::size_t>(plan.layout().input_size));
    std::vector<std::complex<double>> out(static_cast<std::size_t>(plan.layout().output_size));
    for (std::size_t i = 0; i < in.size(); ++i)
      in[i] = {std::sin(0.1 * static_cast<double>(i)), std::cos(0.3 * static_cast<double>(i))};
    mean = timed(state, comm, [&] { plan.execute(in, out); });
  }
  const auto it = g_fftw_seconds.find({variant * 2 + rigor, n});
  if (it != g_fftw_seconds.end()) state.counters["ratio_vs_fftw_mpi"] = it->second / mean;
}

#define TRNFFT_MPI_BENCH(name, variant, rigor)        \
  BENCHMARK_CAPTURE(BM_FftwMpi, name, variant, rigor) \
      ->Arg(32)                                       \
      ->Arg(128)                                      \
      ->Arg(256)                                      \
      ->Iterations(kIterations)                       \
      ->UseManualTime()                               \
      ->Unit(benchmark::kMillisecond);                \
  BENCHMARK_CAPTURE(BM_Trnfft, name, variant, rigor)  \
      ->Arg(32)                                       \
      ->Arg(128)                                      \
      ->Arg(256)                                      \
      ->Iterations(kIterations)                       \
      ->UseManualTime()                               \
      ->Unit(benchmark::kMillisecond);

TRNFFT_MPI_BENCH(c2c_estimate, 0, 0)
TRNFFT_MPI_BENCH(c2c_transposed_out_estimate, 1, 0)
TRNFFT_MPI_BENCH(r2c_estimate, 2, 0)
TRNFFT_MPI_BENCH(c2c_measure, 0, 1)

// What the non-root ranks report: nothing (they take part in every collective, rank 0 prints).
class QuietReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  trncore::mpi::Environment env(argc, argv);
  {  // fftw_init_threads (trnfft's first plan calls it) must precede fftw_mpi_init
    std::vector<std::complex<double>> a(4), b(4);
    trnfft::plan_dft_1d<double>(4, a.data(), b.data(), trnfft::Direction::forward);
  }
  fftw_mpi_init();
  benchmark::Initialize(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    QuietReporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::Shutdown();
  return 0;
}
