# Tests of trnsolver_mpi's distributed Krylov reductions: the Krylov stack on 1-4 ranks against the
# single-process solve.
trnsci_add_mpi_test(trnsolver_mpi_krylov_test SOURCES tests/krylov_test.cpp
  LIBRARIES trnsci::trnsolver_mpi TIMEOUT 120)
