#pragma once
/// @file
/// The tables of the suite's modelled scale-out (docs/distributed.md, "The modelled scale-out"): one row per
/// chip count with modelled compute and communication time, and the helpers every package's model uses
/// (the chip counts, the most square grid, device memory). Every number in such a table is MODELLED, never
/// measured; the models themselves live with their algorithms (trnsolver/scaling_model.hpp, …).

#include <trncore/sim/generation.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace trncore::sim {

/// Strong scaling (fixed problem) or weak scaling (the problem grows with the chips).
enum class ScalingKind : std::uint8_t {
  strong,  ///< the problem fixed, more chips
  weak     ///< the problem grows with the chips (memory or work per chip fixed)
};

/// One modelled configuration.
struct ScalingRow {
  std::int64_t chips = 1;        ///< chips used
  std::int64_t grid_rows = 1;    ///< process grid P (HPL-MxP) or chips (rsvd's row distribution)
  std::int64_t grid_cols = 1;    ///< process grid Q (HPL-MxP) or 1 (rsvd)
  std::int64_t n = 0;            ///< the problem's order
  double flops = 0.0;            ///< the credited operation count W (see the model's options)
  double compute_seconds = 0.0;  ///< modelled time of the busiest chip's engines (and the serial parts)
  double comm_seconds = 0.0;     ///< modelled time of the collectives (trncore::sim::collective_cost)
  double total_seconds = 0.0;    ///< compute_seconds + comm_seconds (no overlap)
  double tflops_per_chip = 0.0;  ///< W / (chips · total) / 1e12
  double efficiency = 0.0;       ///< T(n, 1) / (chips · T(n, chips)), ≤ 1 (see the file comment)
};

/// A modelled scaling table: its rows, what was modelled, and the assumptions behind every number.
struct ScalingTable {
  std::string title;                                                     ///< e.g. "HPL-MxP, strong scaling, n = 90624"
  ScalingKind kind = ScalingKind::strong;                                ///< strong or weak
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;  ///< the generation modelled
  std::vector<ScalingRow> rows;                                          ///< one per chip count, in the order asked
  std::vector<std::string> assumptions;                                  ///< every modelling assumption, one per line
  /// A fixed-width table headed "modelled" (never a measurement) followed by the assumptions.
  std::string to_string() const;
};

/// The chip counts of the suite's scaling tables: 1, 2, 4, 8, 16, 32, 64, 128, 144. Never throws.
std::vector<std::int64_t> default_chip_counts();

/// The most square P×Q grid with P ≤ Q and P·Q = chips (as trncore::mpi::ProcessGrid::square).
/// @throws trncore::InvalidArgument for chips < 1.
std::pair<std::int64_t, std::int64_t> square_grid(std::int64_t chips);

/// Device memory per chip, bytes, as published: trn1 32 GiB, trn2 96 GiB, trn3 144 GiB (AWS Neuron
/// architecture pages). @throws trncore::InvalidArgument for an invalid generation.
double device_memory_bytes(trncore::sim::Generation generation);

}  // namespace trncore::sim
