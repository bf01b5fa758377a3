# Benchmarks of trnsolver_mpi's randomized part: distributed rsvd of a never-stored Gaussian kernel matrix at a
# large n, with the same routine on one rank and the single-process trnsolver::rsvd on the explicit matrix at
# a comparison size in the same run (mpirun -np 2; docs/benchmarks.md). The smoke test runs small sizes.
trnsci_add_mpi_benchmark(trnsolver_mpi_randomized_bench SOURCES bench/randomized_bench.cpp
  LIBRARIES trnsci::trnsolver_mpi
  SMOKE_ARGS --n 1500 --k 20 --compare 800)
