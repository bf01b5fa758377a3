# Tests of trnsolver: the Jacobi eigensolver of the sim backend.
trnsci_add_test(trnsolver_jacobi_test SOURCES jacobi_test.cpp LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
