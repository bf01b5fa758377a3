# Mixed-precision solve (LU-IR, GMRES-IR) with target_forward_error and its SolveReport; the blocked LU it
# factors with is in src/sim. Included by trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/solve_names.cpp
  ${CMAKE_CURRENT_LIST_DIR}/factorization.cpp
  ${CMAKE_CURRENT_LIST_DIR}/residual.cpp
  ${CMAKE_CURRENT_LIST_DIR}/correction_gmres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/refinement_loop.cpp
  ${CMAKE_CURRENT_LIST_DIR}/norm_estimate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/error_bounds.cpp)
