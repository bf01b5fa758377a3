# The sim backend's symmetric eigensolvers: cyclic Jacobi, and Householder tridiagonalization + implicit QL.
# Included by trnsolver/CMakeLists.txt.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/jacobi.cpp ${CMAKE_CURRENT_LIST_DIR}/tridiagonal_ql.cpp)
# The sim backend models the VectorEngine: every fp32 operation rounded on its own, no FMA contraction.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/jacobi.cpp ${CMAKE_CURRENT_LIST_DIR}/tridiagonal_ql.cpp
  PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
