# Krylov solvers and preconditioners. Included by trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cg.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gmres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bicgstab.cpp
  ${CMAKE_CURRENT_LIST_DIR}/minres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chebyshev_richardson.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eigenvalues.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preconditioners.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cg_bf16.cpp
  ${CMAKE_CURRENT_LIST_DIR}/richardson_bf16.cpp)
# The bf16 variants model the engines' fp32 arithmetic: every operation rounded on its own, no FMA contraction.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/cg_bf16.cpp ${CMAKE_CURRENT_LIST_DIR}/richardson_bf16.cpp
  PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
