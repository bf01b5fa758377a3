# Tests of trnsolver: Dense factorizations and drivers.
trnsci_add_test(trnsolver_dense_test
  SOURCES dense_lu_cholesky_test.cpp dense_qr_svd_test.cpp dense_eigen_test.cpp dense_arguments_test.cpp
  LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
# The dense layer on the sim backend: least squares, full SVD, LDLᵀ, Schur, tridiagonal eigh.
trnsci_add_test(trnsolver_dense_sim_test
  SOURCES dense_sim_least_squares_test.cpp dense_sim_schur_test.cpp dense_sim_eigh_test.cpp dense_sim_ldlt_test.cpp
  LIBRARIES trnsci::trnsolver LAPACKE::LAPACKE)
