# Bulk span conversions with runtime SIMD dispatch (convert.hpp). Included by trncore/CMakeLists.txt.
target_sources(trncore PRIVATE ${CMAKE_CURRENT_LIST_DIR}/convert.cpp)
