// The price of reproducibility: ordered_sum (partials labelled by global block, summed in block order on
// every rank) against MPI_Allreduce(MPI_SUM) of each rank's own pre-summed partials — the usual reduction,
// whose result depends on the rank count and MPI's order. Same data, same run.
//
// Every rank runs the same fixed number of iterations (Google Benchmark's adaptive count could differ per
// rank and deadlock the collectives); each iteration's time is the slowest rank's (manual time).
// Run: mpirun -np 2 --oversubscribe trncore_mpi_bench_ordered_sum
#include <trncore/mpi.hpp>
#include <trnsci_testing/mpi_benchmark.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <vector>

namespace {

constexpr std::int64_t kBlocksPerRank = 8;

struct Data {
  std::vector<std::int64_t> blocks;
  std::vector<double> partials;
  std::vector<double> local_sum;
};

Data make(const trncore::mpi::Communicator& comm, std::int64_t len) {
  Data d;
  for (std::int64_t b = 0; b < kBlocksPerRank; ++b) d.blocks.push_back(b * comm.size() + comm.rank());
  d.partials.resize(static_cast<std::size_t>(kBlocksPerRank * len));
  for (std::size_t i = 0; i < d.partials.size(); ++i) d.partials[i] = 1.0 / static_cast<double>(i + 1 + comm.rank());
  d.local_sum.assign(static_cast<std::size_t>(len), 0.0);
  for (std::int64_t b = 0; b < kBlocksPerRank; ++b)
    for (std::int64_t e = 0; e < len; ++e)
      d.local_sum[static_cast<std::size_t>(e)] += d.partials[static_cast<std::size_t>(b * len + e)];
  return d;
}

template <class F>
void timed(benchmark::State& state, const trncore::mpi::Communicator& comm, F&& f) {
  for (auto _ : state) {
    comm.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(comm.allreduce_max(mine));
  }
  state.SetBytesProcessed(state.iterations() * state.range(0) * kBlocksPerRank * comm.size() *
                          static_cast<std::int64_t>(sizeof(double)));
}

void BM_OrderedSum(benchmark::State& state) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto d = make(comm, state.range(0));
  timed(state, comm, [&] {
    auto s = trncore::mpi::ordered_sum(comm, std::span<const std::int64_t>(d.blocks),
                                       std::span<const double>(d.partials), state.range(0));
    benchmark::DoNotOptimize(s.data());
  });
}

void BM_MpiAllreduceSum(benchmark::State& state) {
  const auto comm = trncore::mpi::Communicator::world();
  const auto d = make(comm, state.range(0));
  std::vector<double> out(d.local_sum.size());
  timed(state, comm, [&] {
    MPI_Allreduce(d.local_sum.data(), out.data(), static_cast<int>(out.size()), MPI_DOUBLE, MPI_SUM, comm.native());
    benchmark::DoNotOptimize(out.data());
  });
}

// len: a 64×64 Gram matrix, a 256×256 one, a 2^20 vector.
BENCHMARK(BM_OrderedSum)->Arg(64 * 64)->Arg(256 * 256)->Arg(1 << 20)->UseManualTime()->Iterations(20);
BENCHMARK(BM_MpiAllreduceSum)->Arg(64 * 64)->Arg(256 * 256)->Arg(1 << 20)->UseManualTime()->Iterations(20);

}  // namespace

int main(int argc, char** argv) {
  trncore::mpi::Environment environment(argc, argv);
  return trnsci_testing::run_mpi_benchmarks(argc, argv);
}
