# Sources of trnsolver_mpi's randomized part (appended to TRNSOLVER_MPI_SOURCES).
