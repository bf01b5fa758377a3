# The sim backend: generators and distributions as engine work on trncore's NeuronCore model. Included by
# trnrand/CMakeLists.txt.
target_sources(trnrand PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/generator_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/distribution_engine.cpp)
