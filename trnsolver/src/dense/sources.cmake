# Dense factorizations and drivers on the host (LAPACKE) and their argument checks; the sim backend's
# versions are in src/sim. Included by trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cholesky.cpp
  ${CMAKE_CURRENT_LIST_DIR}/qr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/svd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eigen.cpp
  ${CMAKE_CURRENT_LIST_DIR}/inv_sqrt.cpp)
