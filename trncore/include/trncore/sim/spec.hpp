#pragma once
/// @file
/// The per-generation spec table of the modelled NeuronCore (DESIGN.md §4.2/§4.4). Every value and its
/// source is listed in docs/numerics.md ("The NeuronCore spec table"); values marked there as estimates
/// are not published by AWS.

#include <trncore/format.hpp>
#include <trncore/sim/generation.hpp>
#include <trncore/sim/product_model.hpp>

#include <cstdint>

namespace trncore::sim {

/// One generation's figures, per NeuronCore. Rates are published per-chip figures divided by the cores
/// per chip; estimates are marked. Sizes in bytes, rates per second.
struct GenerationSpec {
  Generation generation;                  ///< the generation these figures describe
  std::int64_t partitions;                ///< SBUF/PSUM partitions (128)
  std::int64_t sbuf_bytes_per_partition;  ///< trn1 192 KiB, trn2 224 KiB, trn3 256 KiB
  std::int64_t psum_bytes_per_partition;  ///< 16 KiB
  std::int64_t psum_banks;                ///< PSUM banks per partition (2 KiB each)
  ///@{
  /// TensorEngine matmul limits: contraction K (partitions, 128), stationary free size M (128) and moving
  /// free size N (512).
  std::int64_t max_k, max_m, max_n;
  ///@}
  double clock_hz;  ///< derived: bf16 TensorEngine FLOP/s / (2 · 128 · 128)
  /// TensorEngine dense rates, FLOP/s (2 per multiply-add) per NeuronCore.
  double tensor_flops_bf16;            ///< also fp16 and tf32
  double tensor_flops_fp8;             ///< fp8 (e4m3, e5m2) inputs
  double tensor_flops_fp32;            ///< fp32 inputs
  double vector_flops;                 ///< VectorEngine fp32 element-ops/s
  double scalar_flops;                 ///< ScalarEngine fp32 element-ops/s
  double gpsimd_ops;                   ///< GpSimdEngine 32-bit integer element-ops/s (estimate)
  double hbm_bytes_per_s;              ///< HBM bandwidth per NeuronCore
  double instruction_overhead_cycles;  ///< fixed cost of issuing one engine instruction (estimate)
  ProductModel default_product;        ///< the TensorEngine product model a core of this generation uses
};

/// TensorEngine multiply-adds per cycle for inputs of `format` (fp8: the fp8 rate; fp32: the fp32 rate;
/// bf16, fp16, tf32: the bf16 rate). Never throws.
double tensor_macs_per_cycle(const GenerationSpec& spec, const FormatSpec& format) noexcept;
/// VectorEngine elements per cycle (its fp32 rate over the clock). Never throws.
double vector_elements_per_cycle(const GenerationSpec& spec) noexcept;
/// ScalarEngine elements per cycle. Never throws.
double scalar_elements_per_cycle(const GenerationSpec& spec) noexcept;
/// GpSimdEngine 32-bit elements per cycle (an estimate: see docs/numerics.md). Never throws.
double gpsimd_elements_per_cycle(const GenerationSpec& spec) noexcept;

/// The spec of a generation. Never throws; the reference stays valid for the program's lifetime.
const GenerationSpec& spec(Generation generation) noexcept;

}  // namespace trncore::sim
