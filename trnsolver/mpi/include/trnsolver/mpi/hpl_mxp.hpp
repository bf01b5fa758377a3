#pragma once
/// @file
/// Multi-rank HPL-MxP (https://hpl-mxp.org) over a P×Q process grid: the single-process benchmark's system,
/// generated block-cyclically with no rank holding the whole matrix, solved by the distributed solve()
/// (low-precision block LU without pivoting, fp64 GMRES-IR), checked with HPL's scaled residual and
/// reported in HPL's format with N, NB, P and Q (docs/distributed.md).

#include <trnsolver/hpl_mxp.hpp>
#include <trnsolver/mpi/solve.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace trnsolver::mpi {

/// What the distributed hpl_mxp() runs: trnsolver::HplMxpOptions (n, factor, seed, backend, math mode,
/// threads per rank) and the block size.
struct HplMxpOptions : trnsolver::HplMxpOptions {
  HplMxpOptions() = default;
  /// `options` with the default block size.
  HplMxpOptions(const trnsolver::HplMxpOptions& options)  // NOLINT(google-explicit-constructor)
      : trnsolver::HplMxpOptions(options) {}
  /// Block size NB of the block-cyclic distribution and of the LU (≥ 1); 128 is one TensorEngine tile and the
  /// single-process blocked LU's block. The result is the same bits on every grid for a given NB.
  std::int64_t nb = 128;
};

/// What one distributed run measured (the same on every rank): the single-process result's fields (seconds
/// is the collective solve, from a barrier before to the end of the refinement, the slowest rank's) plus
/// the grid.
struct HplMxpResult : trnsolver::HplMxpResult {
  std::int64_t nb = 0;  ///< NB
  int p = 1;            ///< P, the process grid's rows
  int q = 1;            ///< Q, the process grid's columns
  /// HPL's report: the T/V line with N, NB, P, Q, time and GFLOP/s, the steps, the residual check with
  /// PASSED or FAILED.
  std::string to_string() const;
};

/// Fills this rank's part of the benchmark's system — the SAME matrix and right-hand side as
/// trnsolver::hpl_mxp_system(n, seed, ...), bitwise: entry (i, j) of A is word 2(i + j·n) of the Philox
/// stream (seed, 0) made uniform on (−0.5, 0.5] exactly as the serial fill, b_i word 2i of (seed, 1); each
/// diagonal entry is its row's sum of |a_ij| (j ≠ i) accumulated in the serial order j = 0, 1, …: the
/// running sums are passed along the process row from one block column's owner to the next, so every
/// rounding is the serial loop's. Collective.
/// @param grid  the process grid (every rank calls)
/// @param a  n×n, square blocks (mb = nb), rsrc = csrc = 0; local array lld × local columns
/// @param b  n×1 with A's row blocking (mb, rsrc); any csrc (only that process column has entries)
/// @param seed  the trnrand Philox seed of the system (as trnsolver::hpl_mxp_system)
/// @throws on every rank (CollectiveCheck): InvalidArgument for n < 1, bad descriptors or null local
/// arrays; DimensionMismatch when the ranks' n, nb or layouts differ or b does not match A.
void hpl_mxp_system(const ProcessGrid& grid, DistMatrix<double> a, DistMatrix<double> b, std::uint64_t seed);

/// Generates the system block-cyclically (nb × nb blocks on `grid`), solves it with the distributed
/// solve() under HPL-MxP's rules (no pivoting, GMRES-IR, fp64 residual, no error bounds: HPL checks the
/// residual), and checks ‖Ax − b‖∞/((‖A‖∞‖x‖∞ + ‖b‖∞)·n·ε) ≤ 16 (ε = 2^-53) with distributed fp64
/// products. Collective; the result is the same on every rank.
/// @throws on every rank: InvalidArgument for n < 1, nb < 1, a bf16 factor on the host backend, invalid
/// options; NotSupported for a target_forward_error (the rules fix the strategy). options.monitor is passed to
/// solve() (set it on every rank or on none).
HplMxpResult hpl_mxp(const ProcessGrid& grid, const HplMxpOptions& options);

}  // namespace trnsolver::mpi
