# Distributions. Included by trnrand/CMakeLists.txt after the library target exists.
target_sources(trnrand PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/distributions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/continuous.cpp
  ${CMAKE_CURRENT_LIST_DIR}/discrete.cpp)
