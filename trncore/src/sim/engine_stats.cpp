// The first-order cost model (DESIGN.md §4.4): each engine's busy time is its counted cycles over the
// clock (the DMA's: bytes over HBM bandwidth); all engines overlapping perfectly gives the lower bound,
// none overlapping the upper bound. Counters are filled by the ops that do the work.
#include <trncore/detail/enum_names.hpp>

#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/spec.hpp>

#include <algorithm>
#include <cstdio>

namespace trncore::sim {

namespace {
constexpr auto kNames = trncore::detail::EnumNames<Engine, 5>{{{{"tensor", Engine::tensor},
                                                                {"vector", Engine::vector},
                                                                {"scalar", Engine::scalar},
                                                                {"gpsimd", Engine::gpsimd},
                                                                {"dma", Engine::dma}}}};
}  // namespace

std::string_view to_string(Engine engine) noexcept { return kNames.name(engine); }
Engine parse_engine(std::string_view text) { return kNames.parse(text, "trncore::sim::parse_engine", "engine"); }

CostReport estimate_cost(const EngineStats& stats, Generation generation) {
  const GenerationSpec& s = spec(generation);
  CostReport r;
  r.generation = generation;
  r.stats = stats;
  for (int e = 0; e < kEngineCount; ++e) {
    const EngineCounters& c = stats.engines[static_cast<std::size_t>(e)];
    const double seconds = static_cast<Engine>(e) == Engine::dma
                               ? static_cast<double>(c.bytes) / s.hbm_bytes_per_s +
                                     static_cast<double>(c.instructions) * s.instruction_overhead_cycles / s.clock_hz
                               : c.cycles / s.clock_hz;
    r.busy_seconds[static_cast<std::size_t>(e)] = seconds;
    r.lower_bound_seconds = std::max(r.lower_bound_seconds, seconds);
    r.upper_bound_seconds += seconds;
  }
  return r;
}

std::string CostReport::to_string() const {
  std::string out = "modelled cost on " + std::string(sim::to_string(generation)) +
                    " (first-order estimate from the spec table, not a measurement):\n";
  char line[160];
  for (int e = 0; e < kEngineCount; ++e) {
    const EngineCounters& c = stats.engines[static_cast<std::size_t>(e)];
    std::snprintf(line, sizeof line, "  %-7s %10lld instr %14lld elements %14lld bytes %12.0f cycles %10.3e s\n",
                  std::string(sim::to_string(static_cast<Engine>(e))).c_str(), static_cast<long long>(c.instructions),
                  static_cast<long long>(c.elements), static_cast<long long>(c.bytes), c.cycles,
                  busy_seconds[static_cast<std::size_t>(e)]);
    out += line;
  }
  std::snprintf(line, sizeof line, "  busy time: %.3e s (engines fully overlapped) to %.3e s (no overlap)\n",
                lower_bound_seconds, upper_bound_seconds);
  return out + line;
}

}  // namespace trncore::sim
