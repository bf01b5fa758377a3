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

struct GenerationSpec {
  Generation generation;
  std::int64_t partitions;              ///< SBUF/PSUM partitions (128)
  std::int64_t sbuf_bytes_per_partition;
  std::int64_t psum_bytes_per_partition;
  std::int64_t psum_banks;              ///< PSUM banks per partition (2 KiB each)
  std::int64_t max_k, max_m, max_n;     ///< TensorEngine matmul limits: contraction, stationary, moving
  double clock_hz;                      ///< derived: bf16 TensorEngine FLOP/s / (2 · 128 · 128)
  /// TensorEngine dense rates, FLOP/s (2 per multiply-add) per NeuronCore.
  double tensor_flops_bf16;             ///< also fp16 and tf32
  double tensor_flops_fp8;
  double tensor_flops_fp32;
  double vector_flops;                  ///< VectorEngine fp32 element-ops/s
  double scalar_flops;                  ///< ScalarEngine fp32 element-ops/s
  double gpsimd_ops;                    ///< GpSimdEngine 32-bit integer element-ops/s (estimate)
  double hbm_bytes_per_s;               ///< HBM bandwidth per NeuronCore
  double instruction_overhead_cycles;   ///< fixed cost of issuing one engine instruction (estimate)
  ProductModel default_product;
};

/// TensorEngine multiply-adds per cycle for inputs of `format` (fp8: the fp8 rate; fp32: the fp32 rate;
/// bf16, fp16, tf32: the bf16 rate).
double tensor_macs_per_cycle(const GenerationSpec& spec, const FormatSpec& format) noexcept;
/// VectorEngine elements per cycle.
double vector_elements_per_cycle(const GenerationSpec& spec) noexcept;

/// The spec of a generation. Never throws; the reference stays valid for the program's lifetime.
const GenerationSpec& spec(Generation generation) noexcept;

}  // namespace trncore::sim
