# Tests of trnsolver_mpi's hpl part.
