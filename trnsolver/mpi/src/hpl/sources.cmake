# Sources of trnsolver_mpi's hpl part (appended to TRNSOLVER_MPI_SOURCES).
