# DF-MP2: the energy (host and the sim kernel) and the Cholesky fit. Included by trnblas/CMakeLists.txt.
target_sources(trnblas PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/df_mp2.cpp
  ${CMAKE_CURRENT_LIST_DIR}/df_fit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/energy_stage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/float_float_tiles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pair_stage.cpp)
# The double-double host sums and the bounds assume separately rounded operations (no FMA contraction).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/df_mp2.cpp ${CMAKE_CURRENT_LIST_DIR}/pair_stage.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
