#pragma once
// Helpers the engine sources share: tile state access and checks, result rounding, op counting.

#include "sim/tile_state.hpp"

#include <trncore/error.hpp>
#include <trncore/sim/neuron_core.hpp>

#include <string>

namespace trncore::sim::detail {

/// The state behind a tile. @throws InvalidArgument for an empty (default-constructed or moved-from) tile.
TileState& state(const Tile& tile, const char* function, const char* role);

/// "name (P x F type in memory)", for messages.
std::string describe(const TileState& t);

/// @throws DimensionMismatch naming both tiles when their shapes differ.
void require_same_shape(const char* function, const TileState& a, const TileState& b);
/// @throws InvalidArgument unless the tile holds floats / integers.
void require_float(const char* function, const TileState& t);
void require_integer(const char* function, const TileState& t);
/// @throws NotSupported when tile t (playing `role`) is in PSUM, which `engine` cannot access (NKI: the
/// GpSimdEngine cannot access PSUM; DMA loads go to SBUF).
void require_sbuf(const char* function, const char* engine, const char* role, const TileState& t);

/// Writes fp32-computed value x to element i of float tile t, rounded to t's format by w (stochastic draws
/// keyed by element index i).
void store(TileState& t, std::size_t i, float x, const WriteOptions& w);

}  // namespace trncore::sim::detail
