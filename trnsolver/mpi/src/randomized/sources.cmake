# Sources of trnsolver_mpi's randomized part (appended to TRNSOLVER_MPI_SOURCES): distributed rsvd and
# Nyström on row-distributed dense matrices and the matrix-free Gaussian kernel (docs/distributed.md).
list(APPEND TRNSOLVER_MPI_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/work.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernel_entries.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gaussian_kernel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rsvd.cpp)
# No trapping-math: lets GCC if-convert and vectorise exp_fixed's selects; every value stays the same IEEE
# operation (-ffp-contract=off as everywhere), so vector and scalar iterations agree bit for bit.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernel_entries.cpp PROPERTIES COMPILE_OPTIONS -fno-trapping-math)
