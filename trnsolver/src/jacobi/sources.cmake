# The sim backend's symmetric eigensolver (cyclic Jacobi). Included by trnsolver/CMakeLists.txt.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/jacobi.cpp)
# The sim backend models the VectorEngine: every fp32 operation rounded on its own, no FMA contraction.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/jacobi.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
