# Sources of trnsolver_mpi's hpl part (appended to TRNSOLVER_MPI_SOURCES): the distributed LU without
# pivoting, its triangular solves and row products (dist_lu), solve() with GMRES-IR and its report, and
# HPL-MxP (system generation, driver, report). They reuse trnsolver's internal GMRES and error-bound
# estimators (trnsolver/src/mixed), hence the private include of trnsolver/src in CMakeLists.txt.
list(APPEND TRNSOLVER_MPI_SOURCES
  src/hpl/dist_lu.cpp
  src/hpl/solve.cpp
  src/hpl/hpl_mxp.cpp)
