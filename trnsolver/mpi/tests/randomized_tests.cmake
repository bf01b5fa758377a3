# Tests of trnsolver_mpi's randomized part: rsvd / Nyström / GaussianKernel on 1-4 ranks (bitwise across rank
# counts and layouts, fp64 LAPACK oracle, kernel operator = explicit matrix, bad input), and the example
# examples/rsvd_mpi.cpp on 2 ranks (ci/demo runs it on 4).
trnsci_add_mpi_test(trnsolver_mpi_randomized_test SOURCES tests/randomized_test.cpp
  LIBRARIES trnsci::trnsolver_mpi RANKS 1 2 3 4 TIMEOUT 120)

trnsci_mpi_test_environment(_rsvd_example_env)  # what trnsci_add_mpi_test gives its runs
add_executable(trnsolver_mpi_rsvd_example examples/rsvd_mpi.cpp)
target_link_libraries(trnsolver_mpi_rsvd_example PRIVATE trnsci::trnsolver_mpi)  # MPI comes with it
trnsci_target_defaults(trnsolver_mpi_rsvd_example)
add_test(NAME trnsolver.mpi.example.rsvd_mpi.np2
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe ${MPIEXEC_PREFLAGS}
                 $<TARGET_FILE:trnsolver_mpi_rsvd_example> ${MPIEXEC_POSTFLAGS} 3000 40)
set_tests_properties(trnsolver.mpi.example.rsvd_mpi.np2 PROPERTIES ENVIRONMENT "${_rsvd_example_env}"
                     TIMEOUT 120 PROCESSORS 2 LABELS mpi)

# ScaLAPACK interop: a matrix laid out by DESCINIT in, U handed back to PDGEMM (tests only link ScaLAPACK).
trnsci_require_scalapack()
trnsci_add_mpi_test(trnsolver_mpi_randomized_scalapack_test SOURCES tests/randomized_scalapack_test.cpp
  LIBRARIES trnsci::trnsolver_mpi trnsci_test_scalapack RANKS 1 2 3 4 TIMEOUT 60)
