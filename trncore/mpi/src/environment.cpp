#include <trncore/mpi/communicator.hpp>
#include <trncore/mpi/environment.hpp>

#include <string>

namespace trncore::mpi {

Environment::Environment(int& argc, char**& argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  detail::check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  owns_ = true;
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    owns_ = false;
    throw CommunicationError(
        "trncore::mpi::Environment",
        "the MPI library provides thread level " + std::to_string(provided) + ", below MPI_THREAD_FUNNELED",
        "use an MPI built with thread support (Debian's OpenMPI has it)");
  }
}

Environment::~Environment() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_ && !finalized) MPI_Finalize();
}

}  // namespace trncore::mpi
