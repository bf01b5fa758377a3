#include "sim/tile_state.hpp"

#include <trncore/error.hpp>

namespace trncore::sim {

std::string_view to_string(DType type) noexcept {
  switch (type) {
    case DType::fp32: return "fp32";
    case DType::tf32: return "tf32";
    case DType::bf16: return "bf16";
    case DType::fp16: return "fp16";
    case DType::fp8_e4m3: return "fp8_e4m3";
    case DType::fp8_e5m2: return "fp8_e5m2";
    case DType::int32: return "int32";
    case DType::uint32: return "uint32";
  }
  return "invalid";
}

int bytes_of(DType type) noexcept {
  switch (type) {
    case DType::bf16:
    case DType::fp16: return 2;
    case DType::fp8_e4m3:
    case DType::fp8_e5m2: return 1;
    default: return 4;
  }
}

bool is_float(DType type) noexcept { return type != DType::int32 && type != DType::uint32; }

const FormatSpec& format_of(DType type) {
  switch (type) {
    case DType::fp32: return formats::fp32;
    case DType::tf32: return formats::tf32;
    case DType::bf16: return formats::bf16;
    case DType::fp16: return formats::fp16;
    case DType::fp8_e4m3: return formats::fp8_e4m3;
    case DType::fp8_e5m2: return formats::fp8_e5m2;
    default: break;
  }
  throw InvalidArgument("trncore::sim::format_of", std::string(to_string(type)) + " is not a float type",
                        "pass a float DType");
}

std::string_view to_string(Memory memory) noexcept { return memory == Memory::sbuf ? "sbuf" : "psum"; }

Tile::Tile(std::unique_ptr<detail::TileState> state) noexcept : state_(std::move(state)) {}
Tile::Tile() noexcept = default;
Tile::~Tile() = default;
Tile::Tile(Tile&&) noexcept = default;
Tile& Tile::operator=(Tile&&) noexcept = default;
// Metadata of an empty tile reads as an unnamed 0 × 0 fp32 SBUF tile rather than dereferencing null.
namespace {
const detail::TileState& or_empty(const std::unique_ptr<detail::TileState>& s) noexcept {
  static const detail::TileState kEmpty{};
  return s ? *s : kEmpty;
}
}  // namespace

const std::string& Tile::name() const noexcept { return or_empty(state_).name; }
Memory Tile::memory() const noexcept { return or_empty(state_).memory; }
DType Tile::type() const noexcept { return or_empty(state_).type; }
std::int64_t Tile::partitions() const noexcept { return or_empty(state_).partitions; }
std::int64_t Tile::free_size() const noexcept { return or_empty(state_).free_size; }
float Tile::value(std::int64_t p, std::int64_t f) const noexcept {
  return state_->values[static_cast<std::size_t>(p * state_->free_size + f)];
}
std::uint32_t Tile::word(std::int64_t p, std::int64_t f) const noexcept {
  return state_->words[static_cast<std::size_t>(p * state_->free_size + f)];
}
const std::vector<float>& Tile::values() const noexcept { return or_empty(state_).values; }
const std::vector<std::uint32_t>& Tile::words() const noexcept { return or_empty(state_).words; }

}  // namespace trncore::sim
