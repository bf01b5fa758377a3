#pragma once
/// @file
/// MODELLED cost of the distributed 1-D FFT (fft1d.hpp) on 1 to many Trainium chips: compute from the
/// NeuronCore spec table (trncore/sim/spec.hpp) and communication from the chip-to-chip link model
/// (trncore/sim/collectives.hpp). Every number here is modelled, never measured: a first-order estimate whose
/// uncertain inputs (link latencies and usable fractions, the DFT-as-GEMM radix, engine efficiency) are
/// estimates, listed with every table (ScalingTable::assumptions). Nothing here runs an FFT.
///
/// The algorithm modelled is the one fft1d.hpp runs, with the local transforms on the chips' engines as the
/// sim backend computes them (DFT-as-GEMM, docs/trnfft.md): N = n0·n1 points (n0 the largest divisor ≤ √N),
/// complex, `bytes_per_point` each, spread evenly over p chips. Per chip: three all-to-alls of N·bytes/p
/// (trncore::sim::collective_cost, Collective::all_to_all, automatic algorithm over p consecutive chips); two
/// FFT stages (lengths n0 and n1, N/p points each), each a sequence of s = ⌈log_r m⌉ DFT-as-GEMM passes of
/// radix m^{1/s} ≤ r (8·radix real flops per point per pass at the TensorEngine's fp32 rate) of which each
/// also reads and writes the chip's points once from HBM — a pass costs the larger of the two (no overlap
/// between passes); one twiddle pass (6 VectorEngine flops per point, or its HBM traffic if larger); one
/// HBM read+write of the chip's points per all-to-all (pack/unpack). Compute and communication are not
/// overlapped (total = compute + comm). Credited work: 5·N·log2 N (the FFT convention).
#include <trncore/sim/generation.hpp>
#include <trncore/sim/scaling.hpp>

#include <cstdint>
#include <span>

namespace trnfft::mpi {

/// What the distributed-FFT model assumes (see the file comment).
struct FftModelOptions {
  trncore::sim::Generation generation = trncore::sim::Generation::trn2;  ///< the chips modelled
  std::int64_t radix = 128;    ///< the largest DFT-as-GEMM radix (the TensorEngine's 128 partitions; ≥ 2)
  double bytes_per_point = 8;  ///< complex fp32 (8); complex fp64 data would be 16 (> 0)
};

/// The modelled distributed 1-D FFT of n points on `chips` chips (grid_rows = chips, grid_cols = 1), with
/// its efficiency against the one-chip model of the same n.
/// @throws trncore::InvalidArgument for n < 2, chips < 1, radix < 2 or bytes_per_point ≤ 0 (or not finite).
trncore::sim::ScalingRow model_fft_1d(std::int64_t n, std::int64_t chips, const FftModelOptions& options = {});

/// Strong scaling of the distributed 1-D FFT of n points (default 2^30) over `chips` (default
/// trncore::sim::default_chip_counts(): 1 … 144), as a table titled and labelled "modelled" with its
/// assumptions. @throws as model_fft_1d.
trncore::sim::ScalingTable fft_1d_scaling(std::span<const std::int64_t> chips = {},
                                          std::int64_t n = std::int64_t{1} << 30, const FftModelOptions& options = {});

}  // namespace trnfft::mpi
