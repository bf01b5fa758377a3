# Correctly rounded binary32 elementary functions (the ScalarEngine's exp/log/sin/cos). Included by
# trncore/CMakeLists.txt. The rounding test compares sums and products as written: no FMA contraction.
target_sources(trncore PRIVATE ${CMAKE_CURRENT_LIST_DIR}/correctly_rounded.cpp)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/correctly_rounded.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
