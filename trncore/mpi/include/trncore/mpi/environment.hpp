#pragma once
/// @file
/// MPI initialisation for programs (docs/distributed.md). Libraries never initialise MPI: the program does,
/// once, with an Environment in main().

namespace trncore::mpi {

/// Initialises MPI (MPI_Init_thread with MPI_THREAD_FUNNELED: the suite's thread pools never call MPI)
/// unless it already is, and finalizes it on destruction if it initialised it. One per program, in main().
class Environment {
 public:
  /// @param argc, argv  main()'s arguments (MPI may remove its own).
  /// @throws trncore::mpi::CommunicationError when initialisation fails or the MPI library cannot give
  /// MPI_THREAD_FUNNELED.
  Environment(int& argc, char**& argv);
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  ~Environment();
  /// True when this object initialised MPI (and will finalize it).
  bool owns() const noexcept { return owns_; }

 private:
  bool owns_ = false;
};

}  // namespace trncore::mpi
