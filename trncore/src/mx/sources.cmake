# OCP MX block formats (mx.hpp). Included by trncore/CMakeLists.txt.
target_sources(trncore PRIVATE ${CMAKE_CURRENT_LIST_DIR}/mx.cpp)
