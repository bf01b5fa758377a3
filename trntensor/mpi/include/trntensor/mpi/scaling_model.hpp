#pragma once
/// @file
/// The MODELLED scale-out of the distributed DF-MP2 energy (df_mp2.hpp, occupied split) from 1 to many
/// Trainium chips: compute from the NeuronCore spec table (trncore/sim/spec.hpp), communication from the
/// chip-to-chip link model (trncore/sim/collectives.hpp). Every number is modelled, never measured; the
/// assumptions are listed with every table. Nothing here runs DF-MP2.

#include <trncore/sim/generation.hpp>
#include <trncore/sim/scaling.hpp>

#include <cstdint>
#include <span>

namespace trntensor::mpi {

/// What the DF-MP2 model assumes. The algorithm as df_mp2_energy's occupied split runs it: B[i][a][Q]
/// (fp64) split evenly over the chips by occupied orbital; ⌊p/2⌋ exchange steps, at step t every chip sends its
/// block to the chip t places before it (point to point, the link tier of a span of t + 1 chips); each pair
/// (i ≤ j) formed once, the pairs balanced (the busiest chip forms ⌈pairs/p⌉); each pair product
/// (ia|jb) = Σ_Q B_iaQ B_jbQ (2·nvir²·naux flop) fp64-accurate by Ozaki slicing on the TensorEngines at
/// `ozaki_passes` bf16 passes per product at the bf16 rate × 512 / (512 + instruction overhead); the energy
/// terms on the VectorEngines at `stage_ops` fp32 ops per (a, b) term; the pair records (64 bytes each)
/// allgathered. Compute and communication are not overlapped.
struct DfMp2ModelOptions {
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;  ///< the chips modelled
  std::int64_t nocc = 300;                                               ///< occupied orbitals
  std::int64_t nvir = 4000;                                              ///< virtual orbitals
  std::int64_t naux = 12000;     ///< auxiliary functions (B = nocc·nvir·naux·8 bytes = 107 GiB > one trn2 chip)
  double ozaki_passes = 21;      ///< bf16 TensorEngine passes per fp64-accurate product (estimate: 6 slices)
  double stage_ops = 40;         ///< VectorEngine fp32 ops per energy term (estimate: float-float terms and sums)
  double memory_fraction = 0.8;  ///< the fraction of device memory B's block and buffers may fill, (0, 1]
};

/// Bytes one chip holds in the occupied split on `chips` chips: its block of B (⌈nocc/p⌉ orbitals), one
/// visiting orbital and one pair tile. @throws trncore::InvalidArgument for chips < 1 or invalid options.
double df_mp2_bytes_per_chip(std::int64_t chips, const DfMp2ModelOptions& options = {});

/// The fewest chips whose memory_fraction of device memory holds df_mp2_bytes_per_chip.
/// @throws as df_mp2_bytes_per_chip.
std::int64_t df_mp2_min_chips(const DfMp2ModelOptions& options = {});

/// The modelled strong-scaling table over `chips` (default_chip_counts() when empty): n = nocc in the rows,
/// flops = the pair products' 2·pairs·nvir²·naux, efficiency against the one-chip model with memory
/// ignored; the assumptions list each row's bytes per chip and whether it fits. Labelled modelled.
/// @throws trncore::InvalidArgument for chips < 1, sizes < 1 or a non-positive or non-finite rate or
///         fraction, naming the values.
trncore::sim::ScalingTable df_mp2_scaling(std::span<const std::int64_t> chips = {},
                                          const DfMp2ModelOptions& options = {});

}  // namespace trntensor::mpi
