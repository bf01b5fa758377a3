# The simulated NeuronCore. Included by trncore/CMakeLists.txt after the library target exists.
target_sources(trncore PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/generation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tile.cpp
  ${CMAKE_CURRENT_LIST_DIR}/neuron_core.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tensor_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vector_scalar_engines.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpsimd_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/product_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matmul_reference.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matmul.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collectives.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scaling.cpp)
# The bit-exactness argument needs every product rounded before it is added: no FMA contraction. The
# Vector/Scalar engines' documented fp32 operation sequence (e.g. scale·in + bias) needs the same.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/matmul.cpp ${CMAKE_CURRENT_LIST_DIR}/matmul_reference.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vector_scalar_engines.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
