#pragma once
/// @file
/// BSR × dense on either backend: the native sparse primitive of the TensorEngine is the 128×128 tile, so a
/// BSR-128 matrix times a dense matrix is one GEMM per stored block — trnblas::gemm on options.backend (sim:
/// the modelled TensorEngine in any of its math modes; host: OpenBLAS) — and the block density decides
/// whether that beats densify-and-GEMM (docs/trnsparse.md §BSR-128 fit assessment). spmm(op, alpha, Bsr,
/// ...) in ops.hpp is the same call under the name the CSR product uses.

#include <trnsparse/formats.hpp>

#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace trnsparse {

/// How well a sparse matrix fills R×C blocks.
struct BlockDensity {
  ///@{
  /// The block size R×C.
  std::int64_t block_rows = 0, block_cols = 0;
  ///@}
  std::int64_t stored_blocks = 0;       ///< blocks holding at least one entry
  std::int64_t total_blocks = 0;        ///< ceil(rows/R)·ceil(cols/C)
  std::int64_t nonzeros = 0;            ///< stored entries of the CSR (after summing duplicates)
  double block_density = 0;             ///< stored_blocks / total_blocks (0 for an empty grid)
  double fill = 0;                      ///< nonzeros / (stored_blocks·R·C): how full the stored blocks are
  std::int64_t max_blocks_per_row = 0;  ///< most stored blocks in one block row
  /// One line, e.g. "128x128 blocks: 12 of 64 stored (18.8%), fill 3.1%, <= 4 per block row".
  std::string to_string() const;
};

/// The block statistics `to_bsr(a, R, C)` would give, without building the BSR.
/// @throws trncore::InvalidArgument for an invalid `a` or block sizes < 1.
template <class T, class I>
BlockDensity block_density(const Csr<T, I>& a, std::int64_t block_rows = default_block_size,
                           std::int64_t block_cols = default_block_size);

/// CSR → BSR (as to_bsr) that also reports the block density of the result.
template <class T, class I>
Bsr<T, I> to_bsr(const Csr<T, I>& a, std::int64_t block_rows, std::int64_t block_cols, BlockDensity& report);

/// C = alpha·A·B + beta·C for BSR A (m×k) and dense row-major B (k×n, ldb ≥ n) and C (m×n, ldc ≥ n), as
/// the TensorEngine would run it: for every stored block (bi, bj), one trnblas::gemm
/// C[bi] += alpha·A_block·B[bj] (the first block of a row applies beta; rows without blocks get beta·C).
/// Backends (options.backend): sim runs each block GEMM on the modelled TensorEngine in any mode trnblas's
/// sim gemm offers (fp32, bf16, tf32, fp16, fp8_*, sr, compensated, ozaki, automatic) and reports the
/// modelled cost; host runs it with OpenBLAS (math_mode automatic or the value type's precision), per-block
/// bound γ_{C+2} (report.cost unset).
///
/// Accuracy (componentwise, the trnblas measure): with ε the largest per-block gemm bound and k the most
/// blocks in one block row, |Ĉ − C| ≤ ((1 + ε)^{k+1} − 1)·(|α||A||B| + |β||C|): each block's gemm adds
/// its bound relative to its own product and the running sum it reads. `report` returns that bound, the
/// per-block method, and the modelled engine cost summed over all block GEMMs. Certificate (docs/trncore.md,
/// "Certificates"): certified when alpha, beta, A's stored values, B and (beta ≠ 0) C are finite, every
/// block GEMM is certified by trnblas and C is finite afterwards; otherwise report.uncertified_reason names
/// the first failure (a block GEMM's own reason included) and met is false. Never throws for these.
/// Determinism: blocks run in storage order; trnblas's sim gemm is bit-identical for any thread count.
/// @throws trncore::InvalidArgument for an invalid A or bad dense arguments; trncore::NotSupported for a
///         mode the backend's gemm lacks; trncore::DimensionMismatch for short spans.
template <class T, class I>
void bsr_spmm(T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
              std::span<T> c, std::int64_t ldc, const trncore::Options& options, trncore::AccuracyReport& report);
/// bsr_spmm without a report: @throws as the report overload, and trncore::TargetNotMet whenever it would
/// return met = false (an uncertified result, or a bound above options.target_forward_error).
template <class T, class I>
void bsr_spmm(T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
              std::span<T> c, std::int64_t ldc, const trncore::Options& options = {});

}  // namespace trnsparse
