# Bulk span conversions with runtime SIMD dispatch (convert.hpp) and bulk random words
# (random_words.hpp). Included by trncore/CMakeLists.txt.
# The ISA files use per-function target attributes, never per-file -m flags: a per-file flag would also
# compile the inline functions they include from shared headers with wide instructions, and the linker
# may keep that copy for every caller.
target_sources(trncore PRIVATE ${CMAKE_CURRENT_LIST_DIR}/convert.cpp ${CMAKE_CURRENT_LIST_DIR}/kernels_avx2.cpp
                               ${CMAKE_CURRENT_LIST_DIR}/kernels_avx512.cpp
                               ${CMAKE_CURRENT_LIST_DIR}/random_words.cpp)
