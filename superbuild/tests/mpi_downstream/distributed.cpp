// Links <pkg>_mpi from the install and uses the trncore MPI layer it brings: a process grid and the
// reproducible sum of each rank's block, compared with the serial sum.
#include <trncore/mpi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  trncore::mpi::Environment environment(argc, argv);
  const auto comm = trncore::mpi::Communicator::world();
  const auto grid = trncore::mpi::ProcessGrid::square(comm);
  const std::vector<std::int64_t> blocks{comm.rank()};
  const std::vector<double> partial{0.1 * (comm.rank() + 1)};
  const auto sum =
      trncore::mpi::ordered_sum(comm, std::span<const std::int64_t>(blocks), std::span<const double>(partial), 1);
  double serial = 0.1;
  for (int r = 1; r < comm.size(); ++r) serial += 0.1 * (r + 1);
  if (comm.rank() == 0)
    std::printf("grid %d x %d, ordered sum %.17g, serial %.17g\n", grid.rows(), grid.cols(), sum[0], serial);
  return sum[0] == serial ? 0 : 1;
}
