# The host backend: BLAS levels 1-3 over OpenBLAS's CBLAS. Included by trnblas/CMakeLists.txt after the library target exists.
