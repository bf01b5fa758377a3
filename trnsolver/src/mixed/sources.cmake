# Mixed-precision solve (LU-IR, GMRES-IR) with target_forward_error and its SolveReport. Included by
# trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/solve_names.cpp
  ${CMAKE_CURRENT_LIST_DIR}/factorization.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_cholesky.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_qr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/block_reflector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/residual.cpp
  ${CMAKE_CURRENT_LIST_DIR}/correction_gmres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/norm_estimate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/error_bounds.cpp)
# The panels model the VectorEngine: every fp32 operation rounded on its own, no FMA contraction.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/blocked_lu.cpp ${CMAKE_CURRENT_LIST_DIR}/blocked_cholesky.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blocked_qr.cpp ${CMAKE_CURRENT_LIST_DIR}/block_reflector.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
