# Tests of trnsolver: Dense factorizations and drivers.
trnsci_add_test(trnsolver_dense_test
  SOURCES dense_lu_cholesky_test.cpp dense_qr_svd_test.cpp dense_eigen_test.cpp dense_arguments_test.cpp
  LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
