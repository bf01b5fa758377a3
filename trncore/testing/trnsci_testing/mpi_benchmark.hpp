#pragma once
// Running Google Benchmark programs under mpiexec (trnsci_add_mpi_benchmark): every rank runs every
// benchmark — they take part in each other's collectives — and rank 0 alone reports. The benchmarks
// themselves must fix their iteration counts (->Iterations(n)): Google Benchmark's adaptive count could
// differ between ranks and leave one waiting in a collective.

#include <benchmark/benchmark.h>
#include <mpi.h>

#include <vector>

namespace trnsci_testing {

/// A reporter that prints nothing: what the ranks other than 0 use.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

/// benchmark::Initialize, then every registered benchmark on every rank of MPI_COMM_WORLD with rank 0
/// reporting, then benchmark::Shutdown. MPI must be initialised (a trncore::mpi::Environment in main).
/// Returns main's exit status.
inline int run_mpi_benchmarks(int& argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  return 0;
}

}  // namespace trnsci_testing
