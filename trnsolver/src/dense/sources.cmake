# Dense factorizations and drivers (host: LAPACKE; getrf/potrf on sim: the blocked algorithms of src/mixed). Included by trnsolver/CMakeLists.txt after the
# library target exists.
target_sources(trnsolver PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cholesky.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/svd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eigen.cpp
  ${CMAKE_CURRENT_LIST_DIR}/inv_sqrt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_factor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_least_squares.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_schur.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_tridiagonal_eigen.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_ldlt.cpp)
