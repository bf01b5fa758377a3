#pragma once
/// @file
/// Memories of the modelled NeuronCore (DESIGN.md §4.2): HBM buffers and on-chip SBUF/PSUM tiles,
/// partition-first 2-D (partitions ≤ 128 × free elements). Tiles are allocated from a NeuronCore, which
/// enforces each memory's per-partition capacity; a tile returns its bytes when destroyed.

#include <trncore/format.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace trncore::sim {

/// Element types of tiles and buffers. Float types hold values exact in their format; int32/uint32 are
/// the GpSimdEngine's integers.
enum class DType : std::uint8_t { fp32, tf32, bf16, fp16, fp8_e4m3, fp8_e5m2, int32, uint32 };

/// "fp32", "bf16", …, "uint32". Never throws.
std::string_view to_string(DType type) noexcept;
/// Bytes one element occupies in the modelled memory (tf32: 4).
int bytes_of(DType type) noexcept;
/// True for the float types.
bool is_float(DType type) noexcept;
/// The FormatSpec of a float type. @throws trncore::InvalidArgument for int32/uint32.
const FormatSpec& format_of(DType type);

/// Where a tile lives.
enum class Memory : std::uint8_t { sbuf, psum };

/// "sbuf" or "psum". Never throws.
std::string_view to_string(Memory memory) noexcept;

class NeuronCore;

namespace detail {
struct TileState;
struct TileAccess;
}  // namespace detail

/// A partitions × free tile in SBUF or PSUM. Move-only; destroying it frees its bytes. Element (p, f)
/// holds a float value (exact in the tile's format) or a 32-bit integer, by the tile's type.
class Tile {
 public:
  /// An empty tile (engine ops reject it); only a NeuronCore makes usable ones.
  Tile() noexcept;
  /// Takes over the other tile's storage and SBUF/PSUM bytes; the other becomes empty.
  Tile(Tile&&) noexcept;
  /// Frees this tile's bytes, then takes over the other's storage; the other becomes empty.
  Tile& operator=(Tile&&) noexcept;
  ~Tile();

  /// The name given at allocation (empty for an empty tile; so are the other accessors' results).
  const std::string& name() const noexcept;
  /// SBUF or PSUM.
  Memory memory() const noexcept;
  /// The element type; every float element is exactly representable in it.
  DType type() const noexcept;
  /// Rows (≤ 128), the partition dimension.
  std::int64_t partitions() const noexcept;
  /// Elements per partition.
  std::int64_t free_size() const noexcept;
  /// Float element (p, f) of a non-empty float tile. Unchecked (precondition: in range).
  float value(std::int64_t p, std::int64_t f) const noexcept;
  /// Integer element (p, f) of a non-empty int32/uint32 tile, as its 32-bit pattern. Unchecked.
  std::uint32_t word(std::int64_t p, std::int64_t f) const noexcept;
  /// All elements, row p at [p·free_size, (p+1)·free_size): float values (float tiles).
  const std::vector<float>& values() const noexcept;
  /// All elements as 32-bit patterns (integer tiles).
  const std::vector<std::uint32_t>& words() const noexcept;

 private:
  friend class NeuronCore;
  friend struct detail::TileAccess;
  explicit Tile(std::unique_ptr<detail::TileState> state) noexcept;
  std::unique_ptr<detail::TileState> state_;
};

/// A buffer in device memory (HBM): a flat array of `size` elements of one type, host-visible.
struct HbmBuffer {
  std::string name;                  ///< a label for error messages
  DType type = DType::fp32;          ///< element type: selects values (float types) or words (integer)
  std::vector<float> values;         ///< float types (each value exact in the type's format)
  std::vector<std::uint32_t> words;  ///< integer types
  /// Number of elements: values.size() for float types, words.size() for integer types.
  std::int64_t size() const noexcept {
    return static_cast<std::int64_t>(is_float(type) ? values.size() : words.size());
  }
};

}  // namespace trncore::sim
