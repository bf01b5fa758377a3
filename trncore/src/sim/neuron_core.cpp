// The core: allocation with capacity checks, DMA, statistics, and the checks every engine op shares.
#include "sim/core_access.hpp"

#include <trncore/philox.hpp>

#include <cmath>

namespace trncore::sim {

namespace detail {

TileState& state(const Tile& tile, const char* function, const char* role) {
  TileState* s = TileAccess::get(tile);
  if (s == nullptr)
    throw InvalidArgument(function, std::string(role) + " is an empty tile", "pass a tile allocated from a NeuronCore");
  return *s;
}

std::string describe(const TileState& t) {
  return "'" + t.name + "' (" + std::to_string(t.partitions) + "x" + std::to_string(t.free_size) + " " +
         std::string(to_string(t.type)) + " in " + std::string(to_string(t.memory)) + ")";
}

void require_same_shape(const char* function, const TileState& a, const TileState& b) {
  if (a.partitions != b.partitions || a.free_size != b.free_size)
    throw DimensionMismatch(function, "tiles " + describe(a) + " and " + describe(b) + " differ in shape",
                            "pass tiles of the same partitions x free size");
}

void require_float(const char* function, const TileState& t) {
  if (!is_float(t.type))
    throw InvalidArgument(function, "tile " + describe(t) + " holds integers", "pass a float tile");
}

void require_integer(const char* function, const TileState& t) {
  if (is_float(t.type))
    throw InvalidArgument(function, "tile " + describe(t) + " holds floats", "pass an int32 or uint32 tile");
}

void require_sbuf(const char* function, const char* engine, const char* role, const TileState& t) {
  if (t.memory != Memory::sbuf)
    throw NotSupported(
        function, std::string(role) + " tile " + describe(t) + " is in PSUM, which the " + engine + " cannot access",
        "use an SBUF tile");
}

void store(TileState& t, std::size_t i, float x, const WriteOptions& w) {
  if (t.type == DType::fp32 && w.rounding.mode == RoundingMode::nearest_even) {
    t.values[i] = x;
    return;
  }
  const FormatSpec& f = format_of(t.type);
  const std::uint32_t random =
      w.rounding.mode == RoundingMode::stochastic ? RandomBits{w.seed, w.stream}(static_cast<std::uint64_t>(i)) : 0u;
  t.values[i] = static_cast<float>(decode(f, encode(f, static_cast<double>(x), w.rounding, random)));
}

}  // namespace detail

NeuronCore::NeuronCore(Generation generation, std::optional<ProductModel> product)
    : spec_(&sim::spec(generation)),
      product_(product.value_or(sim::spec(generation).default_product)),
      usage_(std::make_shared<std::array<std::int64_t, 2>>(std::array<std::int64_t, 2>{0, 0})) {}

Tile NeuronCore::allocate(std::string name, Memory memory, std::int64_t partitions, std::int64_t free_size,
                          DType type) {
  const char* function = memory == Memory::sbuf ? "trncore::sim::NeuronCore::sbuf" : "trncore::sim::NeuronCore::psum";
  if (partitions < 1 || free_size < 1)
    throw InvalidArgument(
        function, "tile '" + name + "' has size " + std::to_string(partitions) + "x" + std::to_string(free_size),
        "pass partitions >= 1 and free size >= 1");
  if (partitions > spec_->partitions)
    throw ResourceExhausted(function,
                            "tile '" + name + "' has " + std::to_string(partitions) + " partitions, more than the " +
                                std::to_string(spec_->partitions) + " the core has",
                            "split the tile along its partition dimension");
  const std::int64_t capacity =
      memory == Memory::sbuf ? spec_->sbuf_bytes_per_partition : spec_->psum_bytes_per_partition;
  const std::int64_t used = (*usage_)[memory == Memory::sbuf ? 0 : 1];
  // free_size · bytes_of cannot overflow once free_size ≤ capacity; a larger free size is over anyway.
  const bool oversized = free_size > capacity;
  const std::int64_t bytes = oversized ? capacity + 1 : free_size * bytes_of(type);
  const std::string need =
      oversized ? std::to_string(free_size) + " x " + std::to_string(bytes_of(type)) : std::to_string(bytes);
  if (bytes > capacity - used)
    throw ResourceExhausted(function,
                            "tile '" + name + "' needs " + need + " bytes per partition, but " +
                                std::string(to_string(memory)) + " has " + std::to_string(capacity - used) + " of " +
                                std::to_string(capacity) + " left on " + std::string(to_string(spec_->generation)),
                            "free tiles or use smaller ones");
  auto s = std::make_unique<detail::TileState>();
  s->name = std::move(name);
  s->memory = memory;
  s->type = type;
  s->partitions = partitions;
  s->free_size = free_size;
  s->bytes_per_partition = bytes;
  if (is_float(type))
    s->values.assign(static_cast<std::size_t>(partitions * free_size), 0.0f);
  else
    s->words.assign(static_cast<std::size_t>(partitions * free_size), 0u);
  s->usage = usage_;
  (*usage_)[memory == Memory::sbuf ? 0 : 1] += bytes;
  return Tile(std::move(s));
}

Tile NeuronCore::sbuf(std::string name, std::int64_t partitions, std::int64_t free_size, DType type) {
  return allocate(std::move(name), Memory::sbuf, partitions, free_size, type);
}

Tile NeuronCore::psum(std::string name, std::int64_t partitions, std::int64_t free_size) {
  return allocate(std::move(name), Memory::psum, partitions, free_size, DType::fp32);
}

void NeuronCore::count(Engine engine, std::int64_t elements, std::int64_t bytes, double cycles) {
  auto& c = stats_[engine];
  c.instructions += 1;
  c.elements += elements;
  c.bytes += bytes;
  c.cycles += cycles + spec_->instruction_overhead_cycles;
}

namespace {

void check_hbm_range(const char* function, const detail::TileState& t, const HbmBuffer& h, std::int64_t offset,
                     std::int64_t partition_stride, std::int64_t element_stride) {
  if (offset < 0 || partition_stride < 0 || element_stride < 1)
    throw InvalidArgument(function,
                          "offset = " + std::to_string(offset) + ", partition_stride = " +
                              std::to_string(partition_stride) + ", element_stride = " + std::to_string(element_stride),
                          "pass offset >= 0, partition_stride >= 0, element_stride >= 1");
  // The last element read/written: offset + (P−1)·partition_stride + (F−1)·element_stride, in 128-bit to
  // rule out overflow before comparing with the buffer size.
  __extension__ using Wide = __int128;
  const Wide last = static_cast<Wide>(offset) + static_cast<Wide>(t.partitions - 1) * partition_stride +
                    static_cast<Wide>(t.free_size - 1) * element_stride;
  if (last >= h.size())
    throw InvalidArgument(function,
                          "the access pattern of tile " + detail::describe(t) + " reaches element " +
                              std::to_string(static_cast<long long>(last)) + " of HBM buffer '" + h.name +
                              "' of size " + std::to_string(h.size()),
                          "pass an offset and strides that stay inside the buffer");
  if (h.type != t.type)
    throw InvalidArgument(function,
                          "HBM buffer '" + h.name + "' holds " + std::string(to_string(h.type)) + " but tile " +
                              detail::describe(t) + " holds " + std::string(to_string(t.type)),
                          "convert on the VectorEngine (copy) instead; DMA moves bytes unchanged");
}

// Tiles hold only values exact in their type; an HBM buffer is host-written, so a load checks that
// before it copies (DMA moves bytes and cannot round). fp32 holds every float; NaN needs a NaN encoding.
void require_exact_values(const char* function, const detail::TileState& t, const HbmBuffer& src, std::int64_t offset,
                          std::int64_t partition_stride, std::int64_t element_stride) {
  if (!is_float(t.type) || t.type == DType::fp32) return;
  const FormatSpec& f = format_of(t.type);
  for (std::int64_t p = 0; p < t.partitions; ++p)
    for (std::int64_t e = 0; e < t.free_size; ++e) {
      const std::int64_t at = offset + p * partition_stride + e * element_stride;
      const float x = src.values[static_cast<std::size_t>(at)];
      const double back = decode(f, encode(f, static_cast<double>(x), Rounding{}));
      const bool exact =
          std::isnan(x) ? std::isnan(back) : back == static_cast<double>(x) && std::signbit(back) == std::signbit(x);
      if (!exact)
        throw InvalidArgument(function,
                              "element " + std::to_string(at) + " of HBM buffer '" + src.name + "' is " +
                                  std::to_string(x) + ", which " + std::string(to_string(t.type)) +
                                  " cannot represent exactly",
                              "round the values to the buffer's type (trncore::convert) when filling it");
    }
}

}  // namespace

void NeuronCore::dma_to_tile(Tile& tile, const HbmBuffer& src, std::int64_t offset, std::int64_t partition_stride,
                             std::int64_t element_stride) {
  const char* function = "trncore::sim::NeuronCore::dma_to_tile";
  auto& t = detail::state(tile, function, "tile");
  detail::require_sbuf(function, "DMA load", "destination", t);
  check_hbm_range(function, t, src, offset, partition_stride, element_stride);
  require_exact_values(function, t, src, offset, partition_stride, element_stride);
  for (std::int64_t p = 0; p < t.partitions; ++p)
    for (std::int64_t f = 0; f < t.free_size; ++f) {
      const auto at = static_cast<std::size_t>(offset + p * partition_stride + f * element_stride);
      const auto to = static_cast<std::size_t>(p * t.free_size + f);
      if (is_float(t.type))
        t.values[to] = src.values[at];
      else
        t.words[to] = src.words[at];
    }
  const std::int64_t bytes = t.size() * bytes_of(t.type);
  auto& d = stats_[Engine::dma];
  d.instructions += 1;
  d.elements += t.size();
  d.bytes += bytes;
}

void NeuronCore::dma_to_hbm(HbmBuffer& dst, const Tile& tile, std::int64_t offset, std::int64_t partition_stride,
                            std::int64_t element_stride) {
  const char* function = "trncore::sim::NeuronCore::dma_to_hbm";
  const auto& t = detail::state(tile, function, "tile");
  check_hbm_range(function, t, dst, offset, partition_stride, element_stride);
  for (std::int64_t p = 0; p < t.partitions; ++p)
    for (std::int64_t f = 0; f < t.free_size; ++f) {
      const auto at = static_cast<std::size_t>(offset + p * partition_stride + f * element_stride);
      const auto from = static_cast<std::size_t>(p * t.free_size + f);
      if (is_float(t.type))
        dst.values[at] = t.values[from];
      else
        dst.words[at] = t.words[from];
    }
  auto& d = stats_[Engine::dma];
  d.instructions += 1;
  d.elements += t.size();
  d.bytes += t.size() * bytes_of(t.type);
}

}  // namespace trncore::sim
