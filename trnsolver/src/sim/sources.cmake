# The NeuronCore-model algorithms: the blocked factorizations and reductions whose trailing updates are
# trnblas GEMMs in the caller's options (host fp32, or the sim TensorEngine modes) and whose panels run in
# fp32 with every operation rounded on its own (the VectorEngine's arithmetic; the whole library compiles
# with -ffp-contract=off), the Jacobi and QL eigensolvers, and the dense routines' sim entry points
# (dense_*.cpp) that route getrf … gees to them. Included by trnsolver/CMakeLists.txt.
target_sources(trnsolver PRIVATE
  # The dense routines on Options::backend = sim (declared in dense_routines.hpp).
  ${CMAKE_CURRENT_LIST_DIR}/dense_factorizations.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense_least_squares.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense_schur.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense_tridiagonal_eigen.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense_ldlt.cpp
  # One file per algorithm.
  ${CMAKE_CURRENT_LIST_DIR}/blocked_lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_cholesky.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_householder_qr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/block_reflector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_bunch_kaufman_ldlt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_hessenberg.cpp
  ${CMAKE_CURRENT_LIST_DIR}/francis_double_shift_qr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_tridiagonal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tridiagonal_ql.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cyclic_jacobi_eigen.cpp
  ${CMAKE_CURRENT_LIST_DIR}/one_sided_jacobi_svd.cpp)
