# Sources of trnsolver_mpi's distributed Krylov reductions (appended to TRNSOLVER_MPI_SOURCES).
list(APPEND TRNSOLVER_MPI_SOURCES src/krylov/distributed_reduction.cpp)
