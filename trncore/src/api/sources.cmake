# Cross-suite types: Backend, MathMode, Options, AccuracyReport, the views' argument checks and the dense tensor.
# Included by trncore/CMakeLists.txt after the library target exists.
target_sources(trncore PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/names.cpp
  ${CMAKE_CURRENT_LIST_DIR}/options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/accuracy_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tensor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/checks.cpp)
