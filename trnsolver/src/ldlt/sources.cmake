# The sim backend's LDLᵀ: blocked Bunch–Kaufman with GEMM trailing updates. Included by
# trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/blocked_ldlt.cpp)
# The panels model the VectorEngine: every fp32 operation rounded on its own.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/blocked_ldlt.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
