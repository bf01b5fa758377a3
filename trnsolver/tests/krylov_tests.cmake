# Tests of trnsolver: Krylov solvers and preconditioners.
trnsci_add_test(trnsolver_krylov_test
  SOURCES krylov_test.cpp krylov_bf16_test.cpp krylov_matrices.cpp
  LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
trnsci_add_test(trnsolver_krylov_richardson_test SOURCES krylov_richardson_test.cpp LIBRARIES trnsci::trnsolver)
