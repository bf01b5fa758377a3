# Tests of trnsolver_mpi's hpl part: the distributed HPL-MxP system, LU, solve and driver on 1-4 ranks
# (grids 1x1, 1x2, 2x1, 1x3, 3x1, 2x2, 1x4, 4x1). The test reaches the single-process blocked LU and the
# distributed LU's internals (trnsolver/src, src/) to compare factors bitwise, and ScaLAPACK's pdgesv (the
# interop oracle: the same descriptors, converted with to_scalapack/from_scalapack).
trnsci_require_scalapack()
trnsci_add_mpi_test(trnsolver_mpi_hpl_test SOURCES tests/hpl_test.cpp
  LIBRARIES trnsci::trnsolver_mpi LAPACKE::LAPACKE trnsci_test_scalapack RANKS 1 2 3 4 TIMEOUT 120)
target_include_directories(trnsolver_mpi_hpl_test PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src"
                                                          "${CMAKE_CURRENT_SOURCE_DIR}/../src")
# The example (built in CMakeLists.txt) on 2 ranks (ci/demo runs it on 4): HPL's report with P, Q and PASSED.
add_test(NAME trnsolver.mpi.example.hpl_mxp_mpi.np2
         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe $<TARGET_FILE:trnsolver_hpl_mxp_mpi> 600 --nb 64)
# (TrnsciMpi.cmake's TRNSCI_MPI_TEST_ENVIRONMENT is not in this directory's scope: the same settings.)
set_tests_properties(trnsolver.mpi.example.hpl_mxp_mpi.np2 PROPERTIES
  ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_mpi_yield_when_idle=1;OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1"
  TIMEOUT 120 PROCESSORS 2 LABELS mpi PASS_REGULAR_EXPRESSION "1     2 .*PASSED")
