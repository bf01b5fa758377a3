# Sources of trnsolver_mpi's randomized part (appended to TRNSOLVER_MPI_SOURCES): distributed rsvd and
# Nyström on row-distributed dense matrices and the matrix-free Gaussian kernel (docs/distributed.md).
list(APPEND TRNSOLVER_MPI_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/work.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gaussian_kernel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rsvd.cpp)
