# Benchmarks of trnsolver_mpi's hpl part: distributed HPL-MxP vs ScaLAPACK pdgesv on the same matrix in the
# same run (an HPL-style driver; docs/benchmarks.md: OPENBLAS_NUM_THREADS=1 mpirun -np 2 ... 8000). The smoke
# test runs n = 600 once.
trnsci_require_scalapack()
trnsci_add_mpi_benchmark(trnsolver_mpi_hpl_bench SOURCES bench/hpl_bench.cpp
  LIBRARIES trnsci::trnsolver_mpi trnsci_test_scalapack SMOKE_ARGS 600)
target_include_directories(trnsolver_mpi_hpl_bench PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src"
                                                           "${CMAKE_CURRENT_SOURCE_DIR}/../src")
