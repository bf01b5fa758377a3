#pragma once
/// @file
/// Per-engine counters of the simulated NeuronCore and the first-order cost estimate built from them
/// (DESIGN.md §4.4). Every engine op adds to the counters of the core it runs on; a kernel's
/// CostReport turns them into busy time per engine with a lower bound (the busiest engine, perfect
/// overlap) and an upper bound (the sum, no overlap). It is an estimate from a spec table, never a
/// measurement.

#include <trncore/sim/generation.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace trncore::sim {

/// The engines of a NeuronCore, plus the DMA queues that feed them.
enum class Engine : std::uint8_t { tensor, vector, scalar, gpsimd, dma };

/// Number of values of Engine.
inline constexpr int kEngineCount = 5;

/// "tensor", "vector", "scalar", "gpsimd" or "dma". Never throws.
std::string_view to_string(Engine engine) noexcept;
/// Parses to_string's names. @throws trncore::ParseError naming the text.
Engine parse_engine(std::string_view text);

/// What one engine did: instructions issued, elements processed (for the TensorEngine: multiply-adds),
/// bytes moved (DMA; reads plus writes for the others), and the estimated cycles they cost.
struct EngineCounters {
  std::int64_t instructions = 0;  ///< instructions issued
  std::int64_t elements = 0;      ///< elements processed (TensorEngine: multiply-adds)
  std::int64_t bytes = 0;         ///< bytes moved (DMA) or read plus written (other engines)
  double cycles = 0.0;            ///< estimated engine cycles, from the generation's spec table

  /// Adds other's counters field by field (e.g. to total several kernels); returns *this.
  EngineCounters& operator+=(const EngineCounters& other) noexcept {
    instructions += other.instructions;
    elements += other.elements;
    bytes += other.bytes;
    cycles += other.cycles;
    return *this;
  }
  /// Field-by-field equality (cycles compared as doubles).
  friend bool operator==(const EngineCounters&, const EngineCounters&) = default;
};

/// The counters of every engine of one core.
struct EngineStats {
  /// The counters indexed by static_cast<std::size_t>(Engine).
  std::array<EngineCounters, kEngineCount> engines{};

  /// The counters of engine e (e must be a valid Engine value; not checked).
  EngineCounters& operator[](Engine e) noexcept { return engines[static_cast<std::size_t>(e)]; }
  /// The counters of engine e (e must be a valid Engine value; not checked).
  const EngineCounters& operator[](Engine e) const noexcept { return engines[static_cast<std::size_t>(e)]; }
  /// Adds every engine's counters of other to this one's; returns *this.
  EngineStats& operator+=(const EngineStats& other) noexcept {
    for (std::size_t i = 0; i < engines.size(); ++i) engines[i] += other.engines[i];
    return *this;
  }
  /// Whether every engine's counters are equal.
  friend bool operator==(const EngineStats&, const EngineStats&) = default;
};

/// The first-order cost estimate of a kernel on one generation.
struct CostReport {
  /// The generation whose spec table (clocks, bandwidth) the times are computed from.
  Generation generation = Generation::trn2;
  /// The engine counters the estimate is built from.
  EngineStats stats;
  /// Estimated busy time of each engine, seconds: cycles / clock (DMA: bytes / HBM bandwidth).
  std::array<double, kEngineCount> busy_seconds{};
  /// max over engines of busy_seconds: the time if all engines overlapped perfectly.
  double lower_bound_seconds = 0.0;
  /// sum over engines of busy_seconds: the time if nothing overlapped.
  double upper_bound_seconds = 0.0;

  /// A readable multi-line table (one row per engine, then both bounds), labelled as an estimate.
  std::string to_string() const;
};

/// The cost estimate of `stats` on `generation`, from that generation's spec table.
CostReport estimate_cost(const EngineStats& stats, Generation generation);

}  // namespace trncore::sim
