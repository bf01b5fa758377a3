# Krylov solvers and preconditioners. Included by trnsolver/CMakeLists.txt after the library target exists.
target_sources(trnsolver PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cg.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gmres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bicgstab.cpp
  ${CMAKE_CURRENT_LIST_DIR}/minres.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preconditioners.cpp)
