// VectorEngine and ScalarEngine ops: fp32 compute, then the op's rounding into the output type.
// Memories follow NKI (nki.isa.tensor_tensor, nc_transpose): both engines read and write SBUF and PSUM,
// but a tensor-tensor op may read at most one operand from PSUM. PSUM tiles are fp32 here, so a write
// to PSUM is the fp32 result (the write rounding of an fp32 value to fp32 is the identity).
#include "sim/core_access.hpp"

#include <trncore/correctly_rounded.hpp>

#include <algorithm>
#include <utility>
#include <cmath>
#include <numbers>

namespace trncore::sim {

namespace {

// max/min are IEEE 754-2019 maximumNumber/minimumNumber: a NaN operand loses to a number, and −0 < +0.
// NKI does not document the engine's NaN or signed-zero rule; this one is deterministic (std::fmax may
// return either zero) and keeps reductions over padded tiles meaningful.
float maximum_number(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float minimum_number(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

float alu(AluOp op, float a, float b) {
  switch (op) {
    case AluOp::add: return a + b;
    case AluOp::subtract: return a - b;
    case AluOp::multiply: return a * b;
    case AluOp::max: return maximum_number(a, b);
    case AluOp::min: return minimum_number(a, b);
    case AluOp::divide: return a / b;
  }
  return a;
}

double activate(Activation f, double x) {
  switch (f) {
    case Activation::identity: return x;
    case Activation::exp: return std::exp(x);
    case Activation::log: return std::log(x);
    case Activation::sqrt: return std::sqrt(x);
    case Activation::rsqrt: return 1.0 / std::sqrt(x);
    case Activation::square: return x * x;
    case Activation::reciprocal: return 1.0 / x;
    case Activation::sin: return std::sin(x);
    case Activation::cos: return std::cos(x);
    case Activation::tanh: return std::tanh(x);
    case Activation::sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case Activation::relu:
      return x > 0 || std::isnan(x) ? x : 0.0;  // NaN propagates, as through every f here
    // erfc(−x/√2) = 1 + erf(x/√2) without the cancellation that form suffers for x ≪ 0.
    case Activation::gelu: return 0.5 * x * std::erfc(-x / std::numbers::sqrt2);
    case Activation::silu: return x / (1.0 + std::exp(-x));
  }
  return x;
}

float fp32_activation(Activation f, float x) {
  switch (f) {
    case Activation::exp: return cr_exp(x);
    case Activation::log: return cr_log(x);
    case Activation::sin: return cr_sin(x);
    case Activation::cos: return cr_cos(x);
    default: return static_cast<float>(activate(f, static_cast<double>(x)));
  }
}

// The operands of an elementwise float op with one input: both float, same shape, a valid write rounding.
std::pair<detail::TileState&, const detail::TileState&> unary_operands(const char* function, Tile& out_tile,
                                                                       const Tile& in_tile, const WriteOptions& w) {
  auto& out = detail::state(out_tile, function, "out");
  const auto& in = detail::state(in_tile, function, "in");
  detail::require_float(function, out);
  detail::require_float(function, in);
  detail::require_same_shape(function, out, in);
  validate(w.rounding, function);
  return {out, in};
}

}  // namespace

void NeuronCore::tensor_tensor(Tile& out_tile, const Tile& a_tile, const Tile& b_tile, AluOp op,
                               const WriteOptions& w) {
  const char* function = "trncore::sim::NeuronCore::tensor_tensor";
  auto& out = detail::state(out_tile, function, "out");
  const auto& a = detail::state(a_tile, function, "a");
  const auto& b = detail::state(b_tile, function, "b");
  if (a.memory == Memory::psum && b.memory == Memory::psum)
    throw NotSupported(function, "both inputs " + detail::describe(a) + " and " + detail::describe(b) + " are in PSUM",
                       "copy one operand to SBUF first (the VectorEngine reads at most one operand from PSUM)");
  for (const detail::TileState* t : {static_cast<const detail::TileState*>(&out), &a, &b})
    detail::require_float(function, *t);
  detail::require_same_shape(function, out, a);
  detail::require_same_shape(function, out, b);
  validate(w.rounding, function);
  for (std::size_t i = 0; i < out.values.size(); ++i) detail::store(out, i, alu(op, a.values[i], b.values[i]), w);
  count(Engine::vector, out.size(), (a.size() + b.size() + out.size()) * 4,
        static_cast<double>(out.size()) / vector_elements_per_cycle(*spec_));
}

void NeuronCore::tensor_scalar(Tile& out_tile, const Tile& a_tile, float scalar, AluOp op, const WriteOptions& w) {
  auto [out, a] = unary_operands("trncore::sim::NeuronCore::tensor_scalar", out_tile, a_tile, w);
  for (std::size_t i = 0; i < out.values.size(); ++i) detail::store(out, i, alu(op, a.values[i], scalar), w);
  count(Engine::vector, out.size(), (a.size() + out.size()) * 4,
        static_cast<double>(out.size()) / vector_elements_per_cycle(*spec_));
}

void NeuronCore::reduce(Tile& out_tile, const Tile& in_tile, ReduceOp op, const WriteOptions& w) {
  const char* function = "trncore::sim::NeuronCore::reduce";
  auto& out = detail::state(out_tile, function, "out");
  const auto& in = detail::state(in_tile, function, "in");
  detail::require_float(function, out);
  detail::require_float(function, in);
  if (out.partitions != in.partitions || out.free_size != 1)
    throw DimensionMismatch(function,
                            "out " + detail::describe(out) + " is not " + std::to_string(in.partitions) + "x1 for in " +
                                detail::describe(in),
                            "allocate out as in.partitions x 1");
  validate(w.rounding, function);
  for (std::int64_t p = 0; p < in.partitions; ++p) {
    const float* row = in.values.data() + p * in.free_size;
    float acc = row[0];
    for (std::int64_t f = 1; f < in.free_size; ++f)
      acc = alu(op == ReduceOp::sum ? AluOp::add : op == ReduceOp::max ? AluOp::max : AluOp::min, acc, row[f]);
    detail::store(out, static_cast<std::size_t>(p), acc, w);
  }
  count(Engine::vector, in.size(), (in.size() + out.size()) * 4,
        static_cast<double>(in.size()) / vector_elements_per_cycle(*spec_));
}

void NeuronCore::copy(Tile& out_tile, const Tile& in_tile, const WriteOptions& w) {
  const char* function = "trncore::sim::NeuronCore::copy";
  const auto& src = detail::state(in_tile, function, "in");
  if (src.type == DType::int32 || src.type == DType::uint32) {
    // Integer → float: the engine's fp32 conversion (round to nearest even, exact below 2^24), then the
    // write rounding.
    auto& out = detail::state(out_tile, function, "out");
    detail::require_float(function, out);
    detail::require_same_shape(function, out, src);
    validate(w.rounding, function);
    const bool is_signed = src.type == DType::int32;
    for (std::size_t i = 0; i < out.values.size(); ++i) {
      const std::uint32_t word = src.words[i];
      const float x = is_signed ? static_cast<float>(static_cast<std::int32_t>(word)) : static_cast<float>(word);
      detail::store(out, i, x, w);
    }
    count(Engine::vector, out.size(), src.size() * 4 + out.size() * bytes_of(out.type),
          static_cast<double>(out.size()) / vector_elements_per_cycle(*spec_));
    return;
  }
  auto [out, in] = unary_operands(function, out_tile, in_tile, w);
  for (std::size_t i = 0; i < out.values.size(); ++i) detail::store(out, i, in.values[i], w);
  count(Engine::vector, out.size(), in.size() * bytes_of(in.type) + out.size() * bytes_of(out.type),
        static_cast<double>(out.size()) / vector_elements_per_cycle(*spec_));
}

void NeuronCore::activation(Tile& out_tile, const Tile& in_tile, Activation f, float scale, float bias,
                            const WriteOptions& w) {
  auto [out, in] = unary_operands("trncore::sim::NeuronCore::activation", out_tile, in_tile, w);
  for (std::size_t i = 0; i < out.values.size(); ++i) {
    const float x = in.values[i] * scale + bias;  // fp32, two roundings (the engine's affine pre-op)
    // The fp32 value of f(x), then the write rounding. exp/log/sin/cos are correctly rounded (Ziv's test,
    // correctly_rounded.hpp); identity/square/sqrt/reciprocal are too, by one double operation rounded
    // to fp32 (53 ≥ 2·24 + 2: double rounding is innocuous); the rest are f in double rounded once. A model
    // of exact functions, not of the hardware's approximations (docs/numerics.md).
    detail::store(out, i, fp32_activation(f, x), w);
  }
  count(Engine::scalar, out.size(), (in.size() + out.size()) * 4,
        static_cast<double>(out.size()) / scalar_elements_per_cycle(*spec_));
}

}  // namespace trncore::sim
