# The HPL-MxP benchmark driver's library part. Included by trnsolver/CMakeLists.txt.
target_sources(trnsolver PRIVATE ${CMAKE_CURRENT_LIST_DIR}/hpl_mxp.cpp)
