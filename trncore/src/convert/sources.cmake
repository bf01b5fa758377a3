# Bulk span conversions and random-word generation with runtime SIMD dispatch (convert.hpp,
# random_words.hpp). Included by trncore/CMakeLists.txt.
target_sources(trncore PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/convert.cpp
  ${CMAKE_CURRENT_LIST_DIR}/random_words.cpp)
