# Tests of trnsolver: Mixed-precision solve with target_forward_error.
trnsci_require_adversarial()  # the binary128 oracle and hard-matrix generators of the regression tests
trnsci_add_test(trnsolver_mixed_solve_test SOURCES mixed_solve_test.cpp
  LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE trnsci_test_adversarial)
# The blocked LU is internal: the test includes it from the source tree.
target_include_directories(trnsolver_mixed_solve_test PRIVATE "${PROJECT_SOURCE_DIR}/src")
# getrf/potrf on the sim backend (the blocked algorithms behind the dense API).
trnsci_add_test(trnsolver_sim_factor_test SOURCES sim_factor_test.cpp LIBRARIES trnsci::trnsolver)
