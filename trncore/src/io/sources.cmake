# File formats for fixtures and data exchange (.npy).
target_sources(trncore PRIVATE ${CMAKE_CURRENT_LIST_DIR}/npy.cpp)
