# Benchmarks of trnsolver_mpi's randomized part.
