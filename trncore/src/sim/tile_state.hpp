#pragma once
// What a Tile owns. Private to the sim sources.

#include <trncore/sim/tile.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace trncore::sim::detail {

struct TileState {
  std::string name;
  Memory memory = Memory::sbuf;
  DType type = DType::fp32;
  std::int64_t partitions = 0, free_size = 0, bytes_per_partition = 0;
  std::vector<float> values;                           // float tiles
  std::vector<std::uint32_t> words;                    // integer tiles
  std::shared_ptr<std::array<std::int64_t, 2>> usage;  // the allocating core's bytes in use

  ~TileState() {
    if (usage) (*usage)[memory == Memory::sbuf ? 0 : 1] -= bytes_per_partition;
  }
  std::int64_t size() const { return partitions * free_size; }
};

struct TileAccess {
  static TileState* get(const Tile& t) noexcept { return t.state_.get(); }
};

}  // namespace trncore::sim::detail
