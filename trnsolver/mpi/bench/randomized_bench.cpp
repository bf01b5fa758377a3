// Distributed rsvd of a Gaussian kernel matrix (never stored) at a large n, and, in the same run, a
// comparison at a size where the explicit matrix fits one process (docs/benchmarks.md):
//   A. trnsolver::mpi::rsvd(GaussianKernel) at n on all ranks: n, k, achieved error, time;
//   B. at n_cmp: the same routine on all ranks, the same routine on rank 0 alone (a 1-rank communicator:
//      the parallel speedup), and the single-process trnsolver::rsvd (fp32 host, same k, p, q, OpenBLAS with
//      as many threads as there are ranks) on the explicitly formed n_cmp×n_cmp kernel matrix on rank 0
//      (formation timed separately), with the ratios and the singular values' agreement.
//   Run with OMPI_MCA_mpi_yield_when_idle=1 so that ranks waiting in a barrier leave their core to rank 0.
//   mpirun -np 2 ./trnsolver_mpi_randomized_bench [--n N] [--k K] [--compare N_CMP] [--h H] [--block-rows B]
#include <trnsolver/mpi/randomized.hpp>
#include <trnsolver/randomized.hpp>

#include <trncore/mpi.hpp>
#include <trnrand/stream.hpp>

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace tm = trncore::mpi;

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// This process's CPU time: with other jobs on the machine, wall time measures the share the job got, CPU time
// the work (it includes MPI's polling while a rank waits).
double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// This rank's rows of n points in the unit cube: coordinate t of point i is uniform word i + t·n.
std::vector<float> points(const tm::ProcessGrid& grid, const tm::Descriptor& desc, std::int64_t n, std::int64_t d) {
  std::vector<float> local(static_cast<std::size_t>(desc.lld * d));
  const trnrand::Stream stream = trnrand::make_stream(2026);
  for (std::int64_t t = 0; t < d; ++t)
    for (std::int64_t il = 0; il < tm::local_rows(desc, grid); ++il) {
      const std::int64_t i = tm::local_to_global_row(il, desc, grid);
      trnrand::fill_uniform(trnrand::skip_ahead(stream, static_cast<std::uint64_t>(i + t * n)),
                            std::span<float>(&local[static_cast<std::size_t>(il + t * desc.lld)], 1));
    }
  return local;
}

struct Run {
  trnsolver::mpi::RsvdResult<float> r;
  double seconds = 0.0;
  double cpu = 0.0;  // the largest CPU time of a rank
};

Run distributed(const tm::ProcessGrid& grid, std::int64_t n, std::int64_t k, double h,
                const trnsolver::mpi::RandomizedOptions& o) {
  const tm::Descriptor desc = tm::make_descriptor(grid, n, 3, 64, 3);
  const std::vector<float> local = points(grid, desc, n, 3);
  grid.comm().barrier();
  const double t0 = now(), c0 = cpu_now();
  const trnsolver::mpi::GaussianKernel<float> kernel(grid, tm::DistMatrix<const float>{desc, local.data()}, h);
  Run run{trnsolver::mpi::rsvd<float>(grid, kernel, k, o), 0.0, 0.0};
  grid.comm().barrier();
  run.seconds = now() - t0;
  run.cpu = grid.comm().allreduce_max(cpu_now() - c0);
  return run;
}

void print(const char* what, std::int64_t n, std::int64_t k, int ranks, const Run& run) {
  std::printf(
      "%-44s n = %7lld  k = %3lld  ranks = %d  time = %8.3f s (cpu/rank <= %7.3f s)  residual = %.2e  "
      "error estimate = %.2e  refinement change = %.2e  matvecs = %lld\n",
      what, static_cast<long long>(n), static_cast<long long>(k), ranks, run.seconds, run.cpu, run.r.report.residual,
      run.r.report.error_estimate, run.r.report.refinement_change, static_cast<long long>(run.r.report.matvecs));
}

}  // namespace

int main(int argc, char** argv) {
  tm::Environment env(argc, argv);
  std::int64_t n = 20000, k = 100, n_cmp = 4000, block_rows = 512;
  double h = 0.5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--n")
      n = std::atoll(argv[i + 1]);
    else if (a == "--k")
      k = std::atoll(argv[i + 1]);
    else if (a == "--compare")
      n_cmp = std::atoll(argv[i + 1]);
    else if (a == "--h")
      h = std::atof(argv[i + 1]);
    else if (a == "--block-rows")
      block_rows = std::atoll(argv[i + 1]);
  }
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const bool root = world.rank() == 0;
  trnsolver::mpi::RandomizedOptions o;  // bf16 range finder, q = 2, 1 fp32 refinement, p = 10, 10 probes
  o.block_rows = block_rows;
  o.sketch.seed = 1;
  if (root)
    std::printf(
        "Gaussian kernel exp(-|x-y|^2/(2h^2)), h = %.3g, points uniform in [0,1]^3, float, bf16 range finder "
        "+ 1 fp32 refinement, p = %lld, q = %lld, block_rows = %lld\n",
        h, static_cast<long long>(o.oversampling), static_cast<long long>(o.power_iterations),
        static_cast<long long>(block_rows));

  // A. The large run.
  const Run big = distributed(grid, n, k, h, o);
  if (root) print("A. distributed rsvd (matrix-free)", n, k, world.size(), big);

  // B. The comparison size.
  const Run all = distributed(grid, n_cmp, k, h, o);
  const tm::Communicator self = world.split(world.rank() == 0 ? 0 : 1, world.rank());
  Run alone;
  if (root) {
    const tm::ProcessGrid one(self, 1, 1);
    alone = distributed(one, n_cmp, k, h, o);
  }
  world.barrier();
  if (root) {
    print("B1. distributed rsvd, all ranks", n_cmp, k, world.size(), all);
    print("B2. distributed rsvd, rank 0 alone", n_cmp, k, 1, alone);
    bool same = alone.r.s.size() == all.r.s.size() &&
                std::memcmp(alone.r.s.data(), all.r.s.data(), all.r.s.size() * sizeof(float)) == 0;
    std::printf("    B2/B1 time ratio (speedup on %d ranks) = %.2f; singular values bitwise equal: %s\n", world.size(),
                alone.seconds / all.seconds, same ? "yes" : "NO");
    // B3. The single-process rsvd on the explicitly formed matrix.
    const tm::ProcessGrid one(self, 1, 1);
    const tm::Descriptor desc = tm::make_descriptor(one, n_cmp, 3, 64, 3);
    const std::vector<float> local = points(one, desc, n_cmp, 3);
    const trnsolver::mpi::GaussianKernel<float> kernel(one, tm::DistMatrix<const float>{desc, local.data()}, h);
    const double t0 = now();
    std::vector<float> kk(static_cast<std::size_t>(n_cmp * n_cmp));
    kernel.entries(0, n_cmp, 0, n_cmp, kk.data(), n_cmp);
    const double t1 = now();
    trnsolver::RsvdOptions so;
    so.sketch.seed = 1;
    const int saved = openblas_get_num_threads();
    openblas_set_num_threads(world.size());  // the single process gets the cores of all the ranks
    const auto serial = trnsolver::rsvd<float>(
        trncore::MatrixView<const float>(kk.data(), n_cmp, n_cmp, n_cmp, trnsolver::Layout::col_major), k, so);
    const double t2 = now();
    openblas_set_num_threads(saved);
    double worst = 0.0;
    for (std::int64_t i = 0; i < k; ++i)
      worst = std::max(worst, std::abs(static_cast<double>(serial.s[static_cast<std::size_t>(i)]) -
                                       static_cast<double>(all.r.s[static_cast<std::size_t>(i)])));
    std::printf(
        "B3. single-process trnsolver::rsvd (fp32, %d OpenBLAS threads)  n = %7lld  k = %3lld  form K = %.3f s  "
        "rsvd = %.3f s  total = %.3f s\n",
        world.size(), static_cast<long long>(n_cmp), static_cast<long long>(k), t1 - t0, t2 - t1, t2 - t0);
    std::printf("    B3/B1 time ratio = %.2f (rsvd only: %.2f); max_i |s_i(B3) - s_i(B1)| / s_1 = %.2e\n",
                (t2 - t0) / all.seconds, (t2 - t1) / all.seconds, worst / static_cast<double>(serial.s[0]));
  }
  world.barrier();
  return big.r.rank == k ? 0 : 1;  // the numbers are the output; accuracy is tested in randomized_test
}
