#pragma once
/// @file
/// The modelled NeuronCore (DESIGN.md §4.2–§4.4): SBUF and PSUM allocation with capacity checks, the
/// four engines and DMA as methods, and per-engine statistics with the first-order cost model. Every op
/// validates shapes, memories and types and throws the suite's errors with the sizes in the message.
///
/// Memories (NKI: nki.isa.nc_matmul, tensor_tensor, nc_transpose): the TensorEngine reads SBUF and writes
/// PSUM; the Vector and Scalar engines read and write SBUF or PSUM (a tensor-tensor op reads at most one
/// operand from PSUM); the GpSimdEngine and DMA loads use SBUF only. PSUM tiles are fp32.
///
/// Numerics: TensorEngine as DESIGN.md §4.3 (bit-identical to matmul_psum under the core's product
/// model); Vector/Scalar/GpSimd compute in fp32 (int32 for GpSimd) and write with the op's rounding,
/// stochastic rounding drawing element i's bits from RandomBits{seed, stream}(i) with i the row-major
/// element index of the output tile, so results do not depend on threads.
/// Not modelled: instruction scheduling and overlap, the ScalarEngine's LUT/polynomial approximations
/// (functions are exact values rounded to fp32; see activation), PSUM bank conflicts, SBUF address layout.
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

/// VectorEngine arithmetic (fp32; max/min are IEEE 754-2019 maximumNumber/minimumNumber: a NaN operand
/// loses to a number, −0 < +0).
enum class AluOp : std::uint8_t { add, subtract, multiply, max, min, divide };
/// VectorEngine free-axis reductions (sequential fp32, ascending free index).
enum class ReduceOp : std::uint8_t { sum, max, min };
/// ScalarEngine functions.
enum class Activation : std::uint8_t {
  identity,
  exp,
  log,
  sqrt,
  rsqrt,
  square,
  reciprocal,
  sin,
  cos,
  tanh,
  sigmoid,
  relu,
  gelu,
  silu
};
/// GpSimdEngine 32-bit integer ops (wrap-around arithmetic; multiply_high is the upper half of the unsigned
/// 32×32-bit product; logical shifts; rotates by b mod 32).
enum class IntOp : std::uint8_t {
  add,
  subtract,
  multiply_low,
  multiply_high,
  bit_and,
  bit_or,
  bit_xor,
  shift_left,
  shift_right,
  rotate_left
};

/// How an op writes its result: the rounding (stochastic draws keyed by seed/stream) to the out type.
/// Element i (row-major index in the output tile) of a stochastically rounded write uses the word
/// RandomBits{seed, stream}(i); use a new stream per op for independent draws.
struct WriteOptions {
  Rounding rounding{};       ///< rounding of the fp32 result to the output tile's type
  std::uint64_t seed = 0;    ///< key of the stochastic-rounding bits
  std::uint64_t stream = 0;  ///< stream of the stochastic-rounding bits (a new one per op)
};

/// One modelled NeuronCore: SBUF and PSUM tile allocation, DMA to and from HBM buffers, and the
/// Tensor, Vector, Scalar and GpSimd engines' ops with the numerics of DESIGN.md §4.3, each op adding to
/// the core's EngineStats (cost estimate: report()). Ops throw trncore::Error subclasses for invalid
/// tiles, shapes, memories and capacities. Not thread-safe: one core per thread.
class NeuronCore {
 public:
  /// A core of `generation`, with `product` (default: the generation's) as the TensorEngine product model.
  /// Never throws except std::bad_alloc.
  explicit NeuronCore(Generation generation = Generation::trn2, std::optional<ProductModel> product = std::nullopt);

  /// The spec table entry of the core's generation.
  const GenerationSpec& spec() const noexcept { return *spec_; }
  /// The TensorEngine product model the core's matmuls use.
  ProductModel product_model() const noexcept { return product_; }

  // ---- memory -----------------------------------------------------------------------------------------
  /// A tile of `partitions` × `free_size` elements of `type` in SBUF (zero-filled).
  /// @throws ResourceExhausted naming the tile, its bytes per partition and what is left, when the
  ///         partitions exceed 128 or SBUF lacks the space; InvalidArgument for sizes < 1.
  Tile sbuf(std::string name, std::int64_t partitions, std::int64_t free_size, DType type);
  /// An fp32 tile in PSUM (the TensorEngine's output). Same errors, PSUM's 16 KiB per partition.
  Tile psum(std::string name, std::int64_t partitions, std::int64_t free_size);
  /// Bytes per partition in use in SBUF by live tiles.
  std::int64_t sbuf_bytes_in_use() const noexcept { return (*usage_)[0]; }
  /// Bytes per partition in use in PSUM by live tiles.
  std::int64_t psum_bytes_in_use() const noexcept { return (*usage_)[1]; }

  // ---- DMA ----------------------------------------------------------------------------------------------
  /// tile(p, f) = src[offset + p·partition_stride + f·element_stride]. DMA moves bytes unchanged: src and
  /// the tile must have the same type (convert with a VectorEngine `copy`). Counts the tile's bytes.
  /// @throws InvalidArgument for a negative offset/partition_stride, element_stride < 1, an index past the
  ///         end of src (computed without overflow), different types, or a value of src that the type
  ///         cannot represent exactly (the message names the element); NotSupported for a PSUM tile.
  void dma_to_tile(Tile& tile, const HbmBuffer& src, std::int64_t offset, std::int64_t partition_stride,
                   std::int64_t element_stride = 1);
  /// dst[offset + p·partition_stride + f·element_stride] = tile(p, f) (dst of the tile's type; SBUF or
  /// PSUM source). Counts the tile's bytes. @throws InvalidArgument as dma_to_tile.
  void dma_to_hbm(HbmBuffer& dst, const Tile& tile, std::int64_t offset, std::int64_t partition_stride,
                  std::int64_t element_stride = 1);

  // ---- TensorEngine ------------------------------------------------------------------------------------
  /// psum[M×N] = (accumulate ? psum : 0) + stationaryᵀ·moving with stationary K×M and moving K×N in SBUF
  /// (K partitions ≤ 128, M ≤ 128, N ≤ 512), both of one float type; DESIGN.md §4.3 numerics under the
  /// core's product model, bit-identical to matmul_psum (accumulating matmuls continue one sequence).
  /// @throws InvalidArgument for empty tiles, operands outside SBUF / output outside PSUM, integer or
  ///         mismatched input types; DimensionMismatch when K or the output shape disagree;
  ///         ResourceExhausted for M > 128 or N > 512 (K > 128 cannot be allocated).
  void matmul(Tile& psum, const Tile& stationary, const Tile& moving, bool accumulate);
  /// out[F×P] (PSUM, fp32) = inᵀ for a float SBUF tile in[P×F] with P, F ≤ 128: an exact copy of every
  /// value, −0, inf and NaN included, as NKI documents the TensorEngine transpose to be from NeuronCore-v3
  /// on (on NeuronCore-v2, NaN/Inf inputs are documented as not bit-accurate; that is not modelled).
  /// Counted as the identity matmul it is on hardware (P·F·P multiply-adds).
  /// @throws InvalidArgument for the wrong memories or an integer tile; ResourceExhausted past 128 × 128;
  ///         DimensionMismatch when out is not F × P.
  void transpose(Tile& out, const Tile& in);

  // ---- VectorEngine ------------------------------------------------------------------------------------
  /// out = round(a op b) elementwise: fp32 arithmetic, then one rounding to out's type by w. All three
  /// float tiles of one shape; out in SBUF or PSUM; at most one of a, b in PSUM.
  /// @throws InvalidArgument (empty/integer tile, invalid rounding), DimensionMismatch (shapes),
  ///         NotSupported (both inputs in PSUM).
  void tensor_tensor(Tile& out, const Tile& a, const Tile& b, AluOp op, const WriteOptions& w = {});
  /// out = round(a op scalar) elementwise, as tensor_tensor.
  void tensor_scalar(Tile& out, const Tile& a, float scalar, AluOp op, const WriteOptions& w = {});
  /// out[P×1] = round(reduce over the free axis of in[P×F]): sequential fp32 in ascending free index
  /// (sum: each partial sum rounded to fp32), rounded once into out. @throws as tensor_tensor.
  void reduce(Tile& out, const Tile& in, ReduceOp op, const WriteOptions& w = {});
  /// out = round(in): copy with format conversion, e.g. PSUM fp32 → SBUF bf16 with stochastic rounding.
  /// Exact when out's type holds in's values. An int32/uint32 `in` (SBUF) is converted to a float `out`:
  /// first to fp32 with round-to-nearest-even (exact for |values| ≤ 2^24), then w's rounding to out's type.
  /// @throws as tensor_tensor (an integer `out` is InvalidArgument).
  void copy(Tile& out, const Tile& in, const WriteOptions& w = {});

  // ---- ScalarEngine ------------------------------------------------------------------------------------
  /// out = round(f(scale·in + bias)): x = fl32(fl32(scale·in) + bias), y = the fp32 value of f(x), then w's
  /// rounding into out's type. y is f(x) correctly rounded to fp32 (nearest even) for exp, log, sin, cos
  /// (trncore/correctly_rounded.hpp) and for identity, square, sqrt, reciprocal (one double operation
  /// rounded to fp32, which double rounding cannot spoil as 53 ≥ 2·24 + 2); rsqrt, tanh, sigmoid, relu,
  /// gelu, silu are f evaluated in double and rounded once (within an ulp, not guaranteed nearest).
  /// The hardware's LUT/polynomial approximations are not modelled. Memories as tensor_tensor.
  /// @throws as tensor_tensor.
  void activation(Tile& out, const Tile& in, Activation f, float scale = 1.0f, float bias = 0.0f,
                  const WriteOptions& w = {});

  // ---- GpSimdEngine ------------------------------------------------------------------------------------
  /// out = a op b on 32-bit integers (int32/uint32 tiles of one shape, all in SBUF); see IntOp.
  /// @throws InvalidArgument (float/empty tiles), DimensionMismatch (shapes), NotSupported (PSUM tile).
  void integer_op(Tile& out, const Tile& a, const Tile& b, IntOp op);
  /// out(p, f) = base + p·partition_step + f·free_step (mod 2^32) into an integer SBUF tile.
  /// @throws as integer_op.
  void iota(Tile& out, std::int64_t base, std::int64_t partition_step, std::int64_t free_step);

  // ---- statistics ----------------------------------------------------------------------------------------
  /// The counters of every op run since construction or reset_stats().
  const EngineStats& stats() const noexcept { return stats_; }
  /// The first-order cost estimate of everything run so far.
  CostReport report() const { return estimate_cost(stats_, spec_->generation); }
  /// Zeroes the counters (tiles and memory use are unaffected).
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
