# The process-wide thread pool and the default thread count (trncore/threads.hpp, detail/thread_pool.hpp).
target_sources(trncore PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/default_threads.cpp
  ${CMAKE_CURRENT_LIST_DIR}/thread_pool.cpp)
