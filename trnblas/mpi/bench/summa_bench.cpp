// trnblas::mpi::gemm (SUMMA) against ScaLAPACK's pdgemm in the same run, on the same distributed fp64 matrices
// (n×n, square grid over the ranks, nb×nb blocks), host backend. Run (docs/benchmarks.md):
//   OPENBLAS_NUM_THREADS=1 mpirun -np 2 --oversubscribe trnblas_mpi_summa_bench
// Each iteration times both (barrier, call, barrier; the slowest rank's time) and the counters report both
// times, their ratio (pdgemm / SUMMA: > 1 means SUMMA is faster), GFLOP/s and the largest difference between
// the two results relative to |A||B| (both are within their bounds). The sim benchmark times SUMMA with bf16
// local products (information: the sim backend models the TensorEngine on the CPU).
#include <trnblas/mpi/gemm.hpp>
#include <trncore/mpi.hpp>

#include <benchmark/benchmark.h>
#include <trnsci_testing/mpi_benchmark.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int context);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
}

namespace {

namespace tm = trncore::mpi;

constexpr std::int64_t kBlock = 128;

double entry(std::int64_t seed, std::int64_t i, std::int64_t j) {
  std::uint64_t x = static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ull +
                    static_cast<std::uint64_t>(i) * 0xBF58476D1CE4E5B9ull +
                    static_cast<std::uint64_t>(j) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86657A7F1ull;
  x ^= x >> 29;
  return static_cast<double>(x >> 11) * 0x1p-52 - 1.0;
}

template <class T>
std::vector<T> local_matrix(const tm::ProcessGrid& grid, const tm::Descriptor& d, std::int64_t seed) {
  const std::int64_t lr = tm::local_rows(d, grid), lc = tm::local_cols(d, grid);
  std::vector<T> out(static_cast<std::size_t>(std::max<std::int64_t>(1, d.lld * lc)));
  for (std::int64_t jl = 0; jl < lc; ++jl)
    for (std::int64_t il = 0; il < lr; ++il)
      out[static_cast<std::size_t>(il + jl * d.lld)] =
          static_cast<T>(entry(seed, tm::local_to_global_row(il, d, grid), tm::local_to_global_col(jl, d, grid)));
  return out;
}

// The slowest rank's wall time of f() between two barriers.
template <class F>
double timed(const tm::Communicator& comm, F&& f) {
  comm.barrier();
  const double t0 = MPI_Wtime();
  f();
  const double t = MPI_Wtime() - t0;
  return comm.allreduce_max(t);
}

void BM_summa_vs_pdgemm(benchmark::State& state) {
  const auto world = tm::Communicator::world();
  const auto grid = tm::ProcessGrid::square(world);
  const std::int64_t n = state.range(0);
  const auto d = tm::make_descriptor(grid, n, n, kBlock, kBlock);
  const auto a = local_matrix<double>(grid, d, 1), b = local_matrix<double>(grid, d, 2),
             c0 = local_matrix<double>(grid, d, 3);
  std::vector<double> ours = c0, theirs = c0;
  int context = Csys2blacs_handle(MPI_COMM_WORLD);
  Cblacs_gridinit(&context, "Row", grid.rows(), grid.cols());
  const std::array<int, 9> desc = tm::to_scalapack(d, context);
  const int ni = static_cast<int>(n), one = 1;
  const double alpha = 1.0, beta = 0.0;
  double summa_s = 0, pdgemm_s = 0;
  trncore::AccuracyReport report;
  const auto summa = [&] {
    trnblas::mpi::gemm(grid, trnblas::Op::no_trans, trnblas::Op::no_trans, alpha, {d, a.data()}, {d, b.data()}, beta,
                       {d, ours.data()}, {}, report);
  };
  const auto pdgemm = [&] {
    pdgemm_("N", "N", &ni, &ni, &ni, &alpha, a.data(), &one, &one, desc.data(), b.data(), &one, &one, desc.data(),
            &beta, theirs.data(), &one, &one, desc.data());
  };
  summa();  // warm-up of both (first touches, BLACS buffers), untimed
  pdgemm();
  for (auto _ : state) {
    const double ts = timed(world, summa);
    const double tp = timed(world, pdgemm);
    summa_s += ts;
    pdgemm_s += tp;
    state.SetIterationTime(ts);
  }
  // |ours − pdgemm| relative to |A||B| ≤ n (entries in [-1, 1)): a coarse check that both computed the product.
  double diff = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) diff = std::max(diff, std::abs(ours[i] - theirs[i]));
  diff = world.allreduce_max(diff) / static_cast<double>(n);
  Cblacs_gridexit(context);
  const double iters = static_cast<double>(state.iterations());
  const double flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  state.counters["P"] = grid.rows();
  state.counters["Q"] = grid.cols();
  state.counters["summa_s"] = summa_s / iters;
  state.counters["pdgemm_s"] = pdgemm_s / iters;
  state.counters["ratio_pdgemm_over_summa"] = pdgemm_s / summa_s;
  state.counters["summa_GFLOPs"] = flops / (summa_s / iters) * 1e-9;
  state.counters["pdgemm_GFLOPs"] = flops / (pdgemm_s / iters) * 1e-9;
  state.counters["max_diff_rel"] = diff;
  state.counters["summa_bound"] = report.a_priori_bound;
}
BENCHMARK(BM_summa_vs_pdgemm)
    ->Arg(500)
    ->Arg(2000)
    ->Arg(4000)
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_summa_sim_bf16(benchmark::State& state) {
  const auto world = tm::Communicator::world();
  const auto grid = tm::ProcessGrid::square(world);
  const std::int64_t n = state.range(0);
  const auto d = tm::make_descriptor(grid, n, n, kBlock, kBlock);
  const auto a = local_matrix<float>(grid, d, 1), b = local_matrix<float>(grid, d, 2);
  std::vector<float> c(a.size());
  const auto options =
      trnblas::mpi::GemmOptions{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::bf16);
  trncore::AccuracyReport report;
  for (auto _ : state) {
    state.SetIterationTime(timed(world, [&] {
      trnblas::mpi::gemm(grid, trnblas::Op::no_trans, trnblas::Op::no_trans, 1.0f, {d, a.data()}, {d, b.data()}, 0.0f,
                         {d, c.data()}, options, report);
    }));
  }
  state.counters["bound"] = report.a_priori_bound;
  state.counters["modelled_s"] = report.cost ? report.cost->lower_bound_seconds : 0.0;
}
BENCHMARK(BM_summa_sim_bf16)->Arg(1000)->Iterations(2)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  tm::Environment environment(argc, argv);
  return trnsci_testing::run_mpi_benchmarks(argc, argv);
}
