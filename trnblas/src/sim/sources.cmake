# The sim backend: GEMM on the modelled TensorEngine with trnblas's math modes. Included by
# trnblas/CMakeLists.txt after the library target exists.
target_sources(trnblas PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sim_gemm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mode_choice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sim_product.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slices.cpp
  ${CMAKE_CURRENT_LIST_DIR}/exact_digit_product.cpp)
# The bounds assume every operation is rounded separately: no FMA contraction in the fp32 pass sums and
# the output stage.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/sim_gemm.cpp ${CMAKE_CURRENT_LIST_DIR}/sim_product.cpp
  PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
# The digit-group loops (exact operations only) vectorise once the compiler may evaluate both sides of a
# select; -fno-trapping-math allows that and changes no value (nothing reads the FP exception flags).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/exact_digit_product.cpp
  PROPERTIES COMPILE_OPTIONS "-fno-trapping-math")
