# Randomized NLA: sketches, rsvd and the adaptive range finder, trace/diagonal estimation, Nyström and
# eigh_randomized (docs/trnsolver-randomized.md). Included by trnsolver/CMakeLists.txt.
target_sources(trnsolver PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/common.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sketch_draws.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sketch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matrix_operator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/range_finder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rsvd.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trace.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symmetric.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lstsq_sketched.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rayleigh_ritz_sketched.cpp)
