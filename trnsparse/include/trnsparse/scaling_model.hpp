#pragma once
/// @file
/// Modelled scale-out of a distributed sparse solve (docs/distributed.md, "The modelled scale-out"): CG on
/// the 7-point Poisson matrix of an N×N×N grid, rows (z-slabs) distributed over chips as trnsparse_mpi's
/// row-distributed CSR runs it, from 1 to 144 chips. Every number is MODELLED, never measured: compute from
/// the NeuronCore spec table's HBM bandwidth (a sparse product moves bytes, it does not fill the
/// TensorEngine), communication from trncore's chip-to-chip link model (trncore/sim/collectives.hpp).

#include <trncore/sim/generation.hpp>
#include <trncore/sim/scaling.hpp>

#include <cstdint>
#include <span>

namespace trnsparse {

/// What the sparse CG model assumes. Per iteration: one SpMV (fp32 values and 32-bit column indices, the
/// vectors in fp32; time = bytes moved / the chip's HBM bandwidth — 8 bytes per nonzero plus 12 per row),
/// the vector updates (three axpy-like passes, 12 bytes per row each), the halo exchange of a z-slab
/// decomposition (two N² planes of fp32 with the neighbouring chips, point to point, concurrently), and
/// three reductions (two dot products and the residual norm) through trncore::mpi::ordered_sum as the Krylov
/// stack runs it distributed: one piece per 1024-row reduction block (block_bytes = 8), so every reduction
/// allgathers the block labels (trncore::sim::ordered_sum_cost). The iteration count is the CG estimate
/// ⌈(√κ/2)·ln(2/rtol)⌉ with κ = cond(A) ≈ 4(N+1)²/π² (an estimate: real counts depend on the right-hand
/// side). Credited work W = iterations · (2·nnz + 10·n).
struct SparseCgModelOptions {
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;  ///< the chips modelled
  double rtol = 1e-6;              ///< the relative residual CG runs to (0 < rtol < 1)
  std::int64_t block_rows = 1024;  ///< rows per reduction block (the Krylov stack's, 1024; ≥ 1)
};

/// The grid edge N whose 7-point Poisson matrix (nnz = 7N³ − 6N²) has at least `nonzeros` nonzeros.
/// @throws trncore::InvalidArgument for nonzeros < 1.
std::int64_t poisson_edge_for_nonzeros(std::int64_t nonzeros);

/// The modelled CG solve of the N×N×N 7-point Poisson system on `chips` chips (N ≥ chips: every chip holds at
/// least one z-plane). @throws trncore::InvalidArgument for N < 2, chips < 1, chips > N, or invalid options,
/// naming the values.
trncore::sim::ScalingRow model_sparse_cg(std::int64_t edge, std::int64_t chips,
                                         const SparseCgModelOptions& options = {});

/// The sparse CG scaling table over `chips` (trncore::sim::default_chip_counts() when empty). Strong: N fixed
/// (0: the edge of a 10⁹-nonzero system, N = 524). Weak: nonzeros per chip fixed, N(p) = ⌊N(1)·p^(1/3)⌋ with
/// N(1) = `edge` (0: 524/144^(1/3), so that 144 chips hold the 10⁹-nonzero system). @throws as model_sparse_cg.
trncore::sim::ScalingTable sparse_cg_scaling(trncore::sim::ScalingKind kind, std::span<const std::int64_t> chips,
                                             std::int64_t edge = 0, const SparseCgModelOptions& options = {});

}  // namespace trnsparse
