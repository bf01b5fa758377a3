#pragma once
/// @file
/// The modelled NeuronCore (DESIGN.md §4.2–§4.4): SBUF and PSUM allocation with capacity checks, the
/// four engines and DMA as methods, and per-engine statistics with the first-order cost model. Every op
/// validates shapes, memories and types and throws the suite's errors with the sizes in the message.
///
/// Numerics: TensorEngine as DESIGN.md §4.3 (bit-identical to matmul_psum under the core's product
/// model); Vector/Scalar/GpSimd compute in fp32 (int32 for GpSimd) and write with the op's rounding,
/// stochastic rounding drawing element i's bits from RandomBits{seed, stream}(i) with i the row-major
/// element index of the output tile, so results do not depend on threads.
/// Not modelled: instruction scheduling and overlap, the ScalarEngine's LUT/polynomial approximations
/// (functions are evaluated in double and rounded once), PSUM bank conflicts, SBUF address layout.
/// A NeuronCore is not thread-safe; distinct cores are independent.

#include <trncore/rounding.hpp>
#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/generation.hpp>
#include <trncore/sim/product_model.hpp>
#include <trncore/sim/spec.hpp>
#include <trncore/sim/tile.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace trncore::sim {

/// VectorEngine arithmetic (fp32).
enum class AluOp : std::uint8_t { add, subtract, multiply, max, min, divide };
/// VectorEngine free-axis reductions (sequential fp32, ascending free index).
enum class ReduceOp : std::uint8_t { sum, max, min };
/// ScalarEngine functions.
enum class Activation : std::uint8_t { identity, exp, log, sqrt, rsqrt, square, reciprocal, sin, cos, tanh,
                                       sigmoid, relu, gelu, silu };
/// GpSimdEngine 32-bit integer ops (wrap-around arithmetic; multiply_high is the upper half of the unsigned
/// 32×32-bit product; logical shifts; rotates by b mod 32).
enum class IntOp : std::uint8_t { add, subtract, multiply_low, multiply_high, bit_and, bit_or, bit_xor, shift_left,
                                  shift_right, rotate_left };

/// How an op writes its result: the rounding (stochastic draws keyed by seed/stream) to the out type.
struct WriteOptions {
  Rounding rounding{};
  std::uint64_t seed = 0;
  std::uint64_t stream = 0;
};

class NeuronCore {
public:
  /// A core of `generation`, with `product` (default: the generation's) as the TensorEngine product model.
  explicit NeuronCore(Generation generation = Generation::trn2, std::optional<ProductModel> product = std::nullopt);

  const GenerationSpec& spec() const noexcept { return *spec_; }
  ProductModel product_model() const noexcept { return product_; }

  // ---- memory -----------------------------------------------------------------------------------------
  /// A tile of `partitions` × `free_size` elements of `type` in SBUF (zero-filled).
  /// @throws ResourceExhausted naming the tile, its bytes per partition and what is left, when the
  ///         partitions exceed 128 or SBUF lacks the space; InvalidArgument for sizes < 1.
  Tile sbuf(std::string name, std::int64_t partitions, std::int64_t free_size, DType type);
  /// An fp32 tile in PSUM (the TensorEngine's output). Same errors, PSUM's 16 KiB per partition.
  Tile psum(std::string name, std::int64_t partitions, std::int64_t free_size);
  /// Bytes per partition in use.
  std::int64_t sbuf_bytes_in_use() const noexcept { return (*usage_)[0]; }
  std::int64_t psum_bytes_in_use() const noexcept { return (*usage_)[1]; }

  // ---- DMA ----------------------------------------------------------------------------------------------
  /// tile(p, f) = src[offset + p·partition_stride + f·element_stride], converted exactly (the types must
  /// match, or src is fp32 and the tile's rounding applies nearest-even). Counts bytes read and written.
  /// @throws InvalidArgument when an index leaves src or the types are incompatible; NotSupported for a PSUM tile.
  void dma_to_tile(Tile& tile, const HbmBuffer& src, std::int64_t offset, std::int64_t partition_stride,
                   std::int64_t element_stride = 1);
  /// dst[offset + p·partition_stride + f·element_stride] = tile(p, f) (dst of the tile's type).
  void dma_to_hbm(HbmBuffer& dst, const Tile& tile, std::int64_t offset, std::int64_t partition_stride,
                  std::int64_t element_stride = 1);

  // ---- TensorEngine ------------------------------------------------------------------------------------
  /// psum[M×N] = (accumulate ? psum : 0) + stationaryᵀ·moving with stationary K×M and moving K×N in SBUF
  /// (K partitions ≤ 128, M ≤ 128, N ≤ 512), both of one float type; DESIGN.md §4.3 numerics.
  void matmul(Tile& psum, const Tile& stationary, const Tile& moving, bool accumulate);
  /// out[F×P] (PSUM, fp32) = inᵀ for an SBUF tile in[P×F] with P, F ≤ 128: an exact copy (the hardware
  /// multiplies by an identity, whose products and sums of one nonzero term are exact).
  void transpose(Tile& out, const Tile& in);

  // ---- VectorEngine ------------------------------------------------------------------------------------
  /// out = round(a op b) elementwise (fp32 compute), shapes equal; out in SBUF.
  void tensor_tensor(Tile& out, const Tile& a, const Tile& b, AluOp op, const WriteOptions& w = {});
  /// out = round(a op scalar) elementwise.
  void tensor_scalar(Tile& out, const Tile& a, float scalar, AluOp op, const WriteOptions& w = {});
  /// out[P×1] = round(reduce over the free axis of in[P×F]).
  void reduce(Tile& out, const Tile& in, ReduceOp op, const WriteOptions& w = {});
  /// out = round(in): copy with format conversion (reads SBUF or PSUM, writes SBUF).
  void copy(Tile& out, const Tile& in, const WriteOptions& w = {});

  // ---- ScalarEngine ------------------------------------------------------------------------------------
  /// out = round(f(scale·in + bias)), f evaluated in double on the fp32 value scale·in + bias.
  void activation(Tile& out, const Tile& in, Activation f, float scale = 1.0f, float bias = 0.0f,
                  const WriteOptions& w = {});

  // ---- GpSimdEngine ------------------------------------------------------------------------------------
  /// out = a op b on 32-bit integers (int32/uint32 tiles).
  void integer_op(Tile& out, const Tile& a, const Tile& b, IntOp op);
  /// out(p, f) = base + p·partition_step + f·free_step (mod 2^32).
  void iota(Tile& out, std::int64_t base, std::int64_t partition_step, std::int64_t free_step);

  // ---- statistics ----------------------------------------------------------------------------------------
  const EngineStats& stats() const noexcept { return stats_; }
  /// The first-order cost estimate of everything run so far.
  CostReport report() const { return estimate_cost(stats_, spec_->generation); }
  void reset_stats() noexcept { stats_ = {}; }

private:
  Tile allocate(std::string name, Memory memory, std::int64_t partitions, std::int64_t free_size, DType type);
  void count(Engine engine, std::int64_t elements, std::int64_t bytes, double cycles);

  const GenerationSpec* spec_;
  ProductModel product_;
  // Bytes per partition in use in SBUF [0] and PSUM [1]; shared with live tiles, which give theirs back.
  std::shared_ptr<std::array<std::int64_t, 2>> usage_;
  EngineStats stats_;
};

}  // namespace trncore::sim
