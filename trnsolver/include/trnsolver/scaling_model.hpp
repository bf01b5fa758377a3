#pragma once
/// @file
/// Modelled scale-out of HPL-MxP and of the randomized SVD of a Gaussian kernel matrix from 1 to many
/// Trainium chips: compute time from the NeuronCore spec table (trncore/sim/spec.hpp) and communication
/// time from the chip-to-chip link model (trncore/sim/collectives.hpp). Every number this file produces is
/// MODELLED, never measured: it is a first-order estimate whose uncertain inputs (link latencies, usable
/// link fractions, the instruction overhead, the fp64 emulation cost) are estimates, listed with every
/// table. Nothing here runs the algorithms; the MPI routines that do live in trnsolver_mpi.
///
/// Common conventions: chips are placed consecutively (collectives.hpp); each chip contributes
/// cores_per_chip NeuronCores whose TensorEngines run full 128×128×512 tiles at the spec's rate times
/// 512 / (512 + instruction overhead); compute and communication are not overlapped (total = compute +
/// comm: a pessimistic bound on an implementation with look-ahead); work is split evenly with the busiest
/// chip's share rounded up. Efficiency is the parallel efficiency at the row's problem size,
/// T(n, 1) / (p · T(n, p)): the speedup over one chip on the same n divided by the chips (for weak-scaling
/// rows the one-chip time of the large n is modelled with memory ignored). Every term of the model costs
/// p chips at least 1/p of its one-chip time, so it is ≤ 1 for every row.

#include <trncore/sim/generation.hpp>
#include <trncore/sim/scaling.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace trnsolver {

// The table types and helpers every modelled scale-out shares live in trncore/sim/scaling.hpp; trnsolver's
// names for them, kept so existing callers compile unchanged.
using trncore::sim::default_chip_counts;
using trncore::sim::device_memory_bytes;
using trncore::sim::ScalingKind;
using trncore::sim::ScalingRow;
using trncore::sim::ScalingTable;
using trncore::sim::square_grid;

/// What the HPL-MxP model assumes. The algorithm: bf16 right-looking block LU without pivoting on a P×Q
/// block-cyclic grid (block `block`); per step the diagonal block is factored on one NeuronCore's
/// VectorEngine (the serial critical path, no look-ahead) and broadcast along its process row and column,
/// the L panel is broadcast along process rows and the U panel along process columns (bf16, 2 bytes), the
/// panel solves and the trailing update run on the TensorEngines. Then GMRES-IR in fp64 with the LU as
/// preconditioner: `refinement_iterations` iterations, each one fp64 residual matvec (the fp64 matrix in
/// device memory, fp64 emulated on the VectorEngines with double-fp32 arithmetic at `fp64_emulation_ops`
/// fp32 operations per fp64 flop; time = max(HBM read, vector work)) and one LU solve (bf16 factors applied
/// in fp32 on the VectorEngines), on vectors replicated on every chip as trnsolver_mpi runs it: the
/// residual's block partials summed in block order along the process row (trncore::sim::ordered_sum_cost)
/// and allgathered along the column; each LU solve takes 2·⌈n/nb⌉ block steps, each an ordered sum of the
/// eliminated blocks' products along the process row, the diagonal block's solve on its owner's
/// VectorEngine and a broadcast of the solved piece to every chip (latency bound); the Gram-Schmidt work
/// is replicated and needs no communication. Credited work W = 2/3·n³ + 2·n² (HPL-MxP's rule).
struct HplMxpModelOptions {
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;  ///< the chips modelled
  std::int64_t block = 512;                                              ///< block size nb (≥ 1)
  std::int64_t refinement_iterations = 5;  ///< GMRES-IR iterations to fp64 accuracy (estimate; ≥ 0)
  double fp64_emulation_ops = 20.0;        ///< fp32 vector ops per emulated fp64 flop (estimate; > 0)
  /// Bytes per matrix entry held per chip: bf16 factors (2) + the fp64 matrix for the residual (8).
  double bytes_per_entry = 10.0;
  double memory_fraction = 0.8;  ///< the fraction of device memory the matrix may fill, in (0, 1]
};

/// The largest n (a multiple of options.block) whose matrix fits `chips` chips' memory_fraction of device
/// memory at bytes_per_entry. @throws trncore::InvalidArgument for chips < 1 or invalid options.
std::int64_t hpl_mxp_memory_order(std::int64_t chips, const HplMxpModelOptions& options = {});

/// The modelled HPL-MxP run of order n on `chips` chips (grid square_grid(chips)), with its efficiency
/// against the one-chip model of the same n. @throws trncore::InvalidArgument for n < 1, chips < 1 or invalid options (block < 1,
/// refinement_iterations < 0, a non-positive or non-finite rate or fraction, memory_fraction > 1),
/// naming the values.
ScalingRow model_hpl_mxp(std::int64_t n, std::int64_t chips, const HplMxpModelOptions& options = {});

/// The HPL-MxP scaling table over `chips` (each ≥ 1; default_chip_counts() when empty). Strong: n fixed
/// (0: hpl_mxp_memory_order(1), the largest that fits one chip). Weak: memory per chip fixed, n(p) =
/// ⌊√p · n(1) / block⌋ · block with n(1) = `n` (0: as strong). @throws as model_hpl_mxp.
ScalingTable hpl_mxp_scaling(ScalingKind kind, std::span<const std::int64_t> chips, std::int64_t n = 0,
                             const HplMxpModelOptions& options = {});

/// What the kernel-rsvd model assumes. The algorithm: HMT randomized SVD (rsvd's, randomized.hpp) of the
/// n×n Gaussian kernel matrix K_ij = exp(−‖x_i − x_j‖² / (2h²)) of n points in `dimension` dimensions, rows
/// (points) distributed evenly over the chips, K formed block by block and never stored. Every product
/// with K re-forms the chip's rows: squared distances as one TensorEngine pass of the augmented
/// coordinates [x, ‖x‖², 1] (contraction dimension + 2 ≤ 128, 128 entries per cycle per core) and the
/// exponential on the ScalarEngine (one element op); the sketch GEMM K_rows·X on the TensorEngine. The test
/// matrix Ω comes from counter-based trnrand streams, generated where it is needed (no communication); every
/// later product needs the whole current basis: an allgather of n·l values. Products: 2 + 2·q in bf16;
/// with refinement 3 more (one subspace iteration and the projection) whose GEMMs take `refine_passes`
/// TensorEngine passes (MathMode::compensated under the bf16 product model: 21) and whose distances are
/// formed in fp32 on the VectorEngine (3·dimension ops per entry). The points (n·d doubles) are allgathered
/// once. Each basis is orthonormalised by CholeskyQR2: Gram matrices on the TensorEngine at the fp32 rate,
/// one l×l fp64 partial per global block of `block_rows` rows, reduced in block order
/// (trncore::sim::ordered_sum_cost: the reproducible reduction as trncore::mpi::ordered_sum runs it);
/// Cholesky and the final l×l SVD replicated on every chip's host at `host_flops`. Credited work W = products · 2·n²·l (each product
/// once, whatever its passes).
struct KernelRsvdModelOptions {
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;  ///< the chips modelled
  std::int64_t rank = 300;                                               ///< k (≥ 1)
  std::int64_t oversampling = 10;                                        ///< p: l = k + p columns (≥ 0)
  std::int64_t power_iterations = 2;                                     ///< q (≥ 0)
  std::int64_t dimension = 3;                                            ///< point dimension d (1 ≤ d ≤ 126)
  /// Rows of a reduction block (≥ 1): Gram partials are per global block of this many rows, so the
  /// reduction's order and result do not depend on the chip count (trnsolver_mpi's block_rows, 512).
  std::int64_t block_rows = 512;
  bool refine = true;               ///< the fp32-accuracy refinement (3 products in compensated mode)
  std::int64_t refine_passes = 21;  ///< TensorEngine passes per refined GEMM (≥ 1)
  double host_flops = 1e11;         ///< fp64 flop/s of one chip's share of the host (estimate; > 0)
};

/// The modelled kernel rsvd of order n on `chips` chips (grid chips×1), with its efficiency against the
/// one-chip model of the same n.
/// @throws trncore::InvalidArgument for n < 1, chips < 1, l = rank + oversampling > n, or invalid options.
ScalingRow model_kernel_rsvd(std::int64_t n, std::int64_t chips, const KernelRsvdModelOptions& options = {});

/// The kernel-rsvd scaling table over `chips` (default_chip_counts() when empty). Strong: n fixed (0: 10⁶,
/// the flagship). Weak: work per chip fixed, n(p) = ⌊√p · n(1)⌋ with n(1) = `n` (0: 83,334, so that 144
/// chips hold n ≈ 10⁶). @throws as model_kernel_rsvd.
ScalingTable kernel_rsvd_scaling(ScalingKind kind, std::span<const std::int64_t> chips, std::int64_t n = 0,
                                 const KernelRsvdModelOptions& options = {});

}  // namespace trnsolver
