# Distributions. Included by trnrand/CMakeLists.txt after the library target exists.
target_sources(trnrand PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/distributions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/continuous.cpp
  ${CMAKE_CURRENT_LIST_DIR}/discrete.cpp
  ${CMAKE_CURRENT_LIST_DIR}/normal_engine_order.cpp)
# normal_engine_order reproduces engine instructions one rounding at a time: no FMA contraction.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/normal_engine_order.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
