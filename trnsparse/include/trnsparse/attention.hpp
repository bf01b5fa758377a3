#pragma once
/// @file
/// Block-sparse attention: masks as BSR block patterns and the forward pass
/// O = softmax(Q·Kᵀ·scale + mask)·V over the stored blocks only (docs/trnsparse.md §Attention).
///
/// A mask is a pattern over (query block, key block) pairs of a sequence of L tokens cut into blocks of
/// `block` tokens (the last block may be shorter). Inside a stored block every query attends every key;
/// outside, the mask is −∞. Block rows may hold different numbers of blocks (ragged).

#include <trnsparse/formats.hpp>

#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <span>

namespace trnsparse {

/// Which (query block, key block) pairs attend each other.
struct BlockMask {
  std::int64_t seq_len = 0;                 ///< sequence length L (queries = keys)
  std::int64_t block = default_block_size;  ///< block size along the sequence (128: one TensorEngine tile)
  /// ceil(L/block) × ceil(L/block) canonical pattern (values 1).
  Csr<float, std::int32_t> pattern;
  /// Number of blocks along the sequence, ceil(seq_len / block).
  std::int64_t blocks() const { return block > 0 ? seq_len / block + (seq_len % block != 0 ? 1 : 0) : 0; }
};

/// Local (sliding-window) attention: query block i attends key blocks j with |i − j| ≤ window_blocks.
/// With causal, only j ≤ i (block-level causality; tokens inside a diagonal block all attend each other).
/// @throws trncore::InvalidArgument for seq_len < 0, block < 1, window_blocks < 0, or too many blocks for int32.
BlockMask local_window_mask(std::int64_t seq_len, std::int64_t block, std::int64_t window_blocks, bool causal = false);

/// Dilated attention: query block i attends j with |i − j| ≤ window_blocks·dilation and |i − j| a multiple
/// of dilation. @throws as local_window_mask, and for dilation < 1.
BlockMask dilated_mask(std::int64_t seq_len, std::int64_t block, std::int64_t window_blocks, std::int64_t dilation);

/// Global tokens: the listed blocks attend everything and are attended by everything (their rows and
/// columns are full). @throws as local_window_mask, and for a block index outside [0, blocks).
BlockMask global_tokens_mask(std::int64_t seq_len, std::int64_t block, std::span<const std::int64_t> global_blocks);

/// The union of two masks of the same sequence and block size (e.g. local window + global tokens).
/// @throws trncore::DimensionMismatch when seq_len or block differ.
BlockMask mask_union(const BlockMask& a, const BlockMask& b);

/// Forward block-sparse attention, row-major Q (L×d), K (L×d), V (L×dv), O (L×dv):
/// O_i = Σ_j softmax_j(scale·q_i·k_j) v_j over the keys j in query i's stored blocks. Scores of a query
/// block are formed with trnblas::gemm (so options select host or sim and the sim math mode), then a
/// two-pass softmax in T — the row maximum first, then exp(s − max) and its sum — which cannot overflow;
/// the P·V products run block by block through trnblas::gemm and are normalised at the end. A query
/// whose block row stores no block gets O_i = 0 (an empty softmax). `scale` is used as given (commonly 1/√d).
///
/// Accuracy: with ε_s, ε_o the gemm bounds of the score and P·V products (γ_{d+2}, γ_{K+2} on the host),
/// a score error δ_i = ε_s·|scale|·max_j |q_i|·|k_j| + 2u·max_j|s_ij| perturbs each weight by at most a
/// factor e^{±2δ_i}, so |Ô_ik − O_ik| ≤ (e^{2δ_i + 2ε_o + 4u} − 1)·Σ_j p_ij|v_jk|. The report holds the
/// largest relative factor e^{...} − 1 over rows as its bound, and the engine cost on sim.
/// Certificate (docs/trncore.md, "Certificates"): certified when q, k, v are finite, every GEMM is
/// certified by trnblas and the output is finite; otherwise report.uncertified_reason names the first
/// failure (a GEMM's own reason included), met is false. Never throws for a numerical outcome.
/// @throws trncore::InvalidArgument for an invalid mask, d < 1, dv < 0, nonfinite scale, bad options
///         (e.g. threads < 0); trncore::DimensionMismatch when a span's length is not L·d (L·dv).
template <class T>
void block_sparse_attention(const BlockMask& mask, std::int64_t d, std::int64_t dv, std::span<const T> q,
                            std::span<const T> k, std::span<const T> v, std::span<T> out, double scale,
                            const trncore::Options& options, trncore::AccuracyReport& report);

/// block_sparse_attention without a report: @throws as the report overload, and trncore::TargetNotMet
/// whenever it would return met = false, with or without options.target_forward_error.
template <class T>
void block_sparse_attention(const BlockMask& mask, std::int64_t d, std::int64_t dv, std::span<const T> q,
                            std::span<const T> k, std::span<const T> v, std::span<T> out, double scale,
                            const trncore::Options& options = {});

}  // namespace trnsparse
