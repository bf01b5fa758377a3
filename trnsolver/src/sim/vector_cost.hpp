#pragma once
// The modelled VectorEngine cost of an elementwise pass, shared by the sim eigensolvers.

#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/spec.hpp>

#include <cstdint>

namespace trnsolver::detail {

/// Adds `instructions` VectorEngine instructions over `elements` values at the spec's element rate.
inline void count_vector(trncore::sim::EngineStats& stats, const trncore::sim::GenerationSpec& spec,
                         std::int64_t elements, std::int64_t instructions) {
  auto& v = stats[trncore::sim::Engine::vector];
  v.instructions += instructions;
  v.elements += elements;
  v.cycles += static_cast<double>(elements) / trncore::sim::vector_elements_per_cycle(spec) +
              static_cast<double>(instructions) * spec.instruction_overhead_cycles;
}

}  // namespace trnsolver::detail
