// GpSimdEngine ops: 32-bit integer arithmetic and bit logic, iota.
#include "sim/core_access.hpp"

#include <bit>

namespace trncore::sim {

namespace {

std::uint32_t int_op(IntOp op, std::uint32_t a, std::uint32_t b) {
  switch (op) {
    case IntOp::add: return a + b;
    case IntOp::subtract: return a - b;
    case IntOp::multiply_low: return a * b;
    case IntOp::multiply_high: return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
    case IntOp::bit_and: return a & b;
    case IntOp::bit_or: return a | b;
    case IntOp::bit_xor: return a ^ b;
    case IntOp::shift_left: return b >= 32 ? 0u : a << b;
    case IntOp::shift_right: return b >= 32 ? 0u : a >> b;
    case IntOp::rotate_left: return std::rotl(a, static_cast<int>(b % 32));
  }
  return a;
}

}  // namespace

void NeuronCore::integer_op(Tile& out_tile, const Tile& a_tile, const Tile& b_tile, IntOp op) {
  const char* function = "trncore::sim::NeuronCore::integer_op";
  auto& out = detail::state(out_tile, function, "out");
  const auto& a = detail::state(a_tile, function, "a");
  const auto& b = detail::state(b_tile, function, "b");
  // NKI: the GpSimdEngine cannot access PSUM (nki.isa.tensor_tensor, "NeuronCore-v2 Compute Engines").
  detail::require_sbuf(function, "GpSimdEngine", "out", out);
  detail::require_sbuf(function, "GpSimdEngine", "a", a);
  detail::require_sbuf(function, "GpSimdEngine", "b", b);
  for (const detail::TileState* t : {static_cast<const detail::TileState*>(&out), &a, &b})
    detail::require_integer(function, *t);
  detail::require_same_shape(function, out, a);
  detail::require_same_shape(function, out, b);
  for (std::size_t i = 0; i < out.words.size(); ++i) out.words[i] = int_op(op, a.words[i], b.words[i]);
  count(Engine::gpsimd, out.size(), 12 * out.size(),
        static_cast<double>(out.size()) / gpsimd_elements_per_cycle(*spec_));
}

void NeuronCore::iota(Tile& out_tile, std::int64_t base, std::int64_t partition_step, std::int64_t free_step) {
  const char* function = "trncore::sim::NeuronCore::iota";
  auto& out = detail::state(out_tile, function, "out");
  detail::require_sbuf(function, "GpSimdEngine", "out", out);
  detail::require_integer(function, out);
  // Arithmetic mod 2^64 in unsigned types (signed products could overflow, which is undefined); the low
  // 32 bits are the result mod 2^32 whatever the signs.
  const auto b0 = static_cast<std::uint64_t>(base), ps = static_cast<std::uint64_t>(partition_step),
             fs = static_cast<std::uint64_t>(free_step);
  for (std::int64_t p = 0; p < out.partitions; ++p)
    for (std::int64_t f = 0; f < out.free_size; ++f)
      out.words[static_cast<std::size_t>(p * out.free_size + f)] =
          static_cast<std::uint32_t>(b0 + static_cast<std::uint64_t>(p) * ps + static_cast<std::uint64_t>(f) * fs);
  count(Engine::gpsimd, out.size(), 4 * out.size(),
        static_cast<double>(out.size()) / gpsimd_elements_per_cycle(*spec_));
}

}  // namespace trncore::sim
