# The sim backend's symmetric eigensolvers (cyclic Jacobi; Householder tridiagonalization + implicit QL)
# and its SVD (one-sided Jacobi). Included by trnsolver/CMakeLists.txt.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/jacobi.cpp ${CMAKE_CURRENT_LIST_DIR}/tridiagonal_ql.cpp
  ${CMAKE_CURRENT_LIST_DIR}/one_sided_jacobi.cpp)
# The sim backend models the VectorEngine: every fp32 operation rounded on its own, no FMA contraction.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/jacobi.cpp ${CMAKE_CURRENT_LIST_DIR}/tridiagonal_ql.cpp
  ${CMAKE_CURRENT_LIST_DIR}/one_sided_jacobi.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
