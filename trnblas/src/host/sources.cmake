# The host backend of the BLAS routines other than gemm: checked calls into OpenBLAS's CBLAS. Included by
# trnblas/CMakeLists.txt after the library target exists.
target_sources(trnblas PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/level1.cpp
  ${CMAKE_CURRENT_LIST_DIR}/level2.cpp
  ${CMAKE_CURRENT_LIST_DIR}/level3.cpp
  ${CMAKE_CURRENT_LIST_DIR}/batched.cpp)
