# The sim backend's scalable symmetric eigensolver: blocked Householder tridiagonalization (GEMM updates),
# then the implicit QL of src/jacobi. Included by trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/blocked_tridiagonal.cpp)
# The panels model the VectorEngine: every fp32 operation rounded on its own.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/blocked_tridiagonal.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
