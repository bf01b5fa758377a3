# The sim backend's real Schur decomposition: blocked Hessenberg reduction (GEMM updates) and the Francis
# double-shift QR iteration. Included by trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/hessenberg.cpp ${CMAKE_CURRENT_LIST_DIR}/francis.cpp)
# The panels and the QR iteration model the VectorEngine: every fp32 operation rounded on its own.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/hessenberg.cpp ${CMAKE_CURRENT_LIST_DIR}/francis.cpp
  PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
