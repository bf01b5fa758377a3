# Distributions. Included by trnrand/CMakeLists.txt after the library target exists.
target_sources(trnrand PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/distributions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/continuous.cpp
  ${CMAKE_CURRENT_LIST_DIR}/discrete.cpp
  ${CMAKE_CURRENT_LIST_DIR}/normal_engine_order.cpp
  ${CMAKE_CURRENT_LIST_DIR}/normal_kernel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_muller_scalar.cpp)
# normal_engine_order reproduces engine instructions one rounding at a time: no FMA contraction.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/normal_engine_order.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
# The normal kernel's SLEEF variants, one translation unit per instruction set, each compiled for its ISA and
# called only on CPUs that have it (normal_kernel.cpp). SSE2 is the x86-64 baseline.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  target_sources(trnrand PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/box_muller_sse2.cpp
    ${CMAKE_CURRENT_LIST_DIR}/box_muller_avx.cpp
    ${CMAKE_CURRENT_LIST_DIR}/box_muller_avx512.cpp)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/box_muller_avx.cpp PROPERTIES COMPILE_OPTIONS "-mavx")
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/box_muller_avx512.cpp PROPERTIES COMPILE_OPTIONS "-mavx512f")
endif()
