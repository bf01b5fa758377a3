#pragma once
// One stage of the sim FFTs: `ncur/r · stride` small DFTs of radix r computed as one trnblas sim GEMM (an
// interleaved row times the real-stacked 2r × 2r DFT matrix), then twiddled on the VectorEngine. DFT-as-GEMM
// is one such stage of radix n; Stockham is a chain of them; Bluestein runs two Stockham transforms.
//
// Bounds (normwise, relative; how they compose):
// - One DFT GEMM of radix r on gathered vectors a (r complex values, real-stacked): the GEMM's
//   componentwise bound |ĉ − c| ≤ ε'|G̃||ã| with |G̃| entries |cos|, |sin| gives for each complex output
//   |b̂_k − b_k| ≤ √2·ε'·‖a‖₁ (|cos||x| + |sin||y| ≤ |x + iy|), so ‖b̂ − b‖₂ ≤ √2·r·ε'·‖a‖₂ = √(2r)·ε'·‖b‖₂
//   since ‖b‖₂ = √r·‖a‖₂. Over a stage's vectors the squares add: δ_s = √(2r)·ε'.
// - A stage's twiddles (unit modulus, stored in T): δ_s' = δ_s + τ(1 + δ_s).
// - Stages compose as 1 + ρ = Π(1 + δ_s') because each exact stage scales every norm by √r exactly
//   (Higham, ASNA 2nd ed., proof of Thm 24.2).

#include "sim/common.hpp"

#include <trncore/options.hpp>

#include <complex>
#include <cstdint>
#include <vector>

namespace trnfft::detail::sim {

template <Real T>
struct DftStage {
  std::int64_t r = 1;               // radix: the small DFT's length (n itself for DFT-as-GEMM)
  std::int64_t ncur = 1;            // the sub-transform length this stage splits
  std::int64_t stride = 1;          // product of the earlier radices
  std::vector<T> bt;                // (2r × 2r) row-major: an interleaved row times bt is the row's DFT
  std::vector<std::complex<T>> tw;  // (m × r) twiddles w_ncur^{p·k}, m = ncur/r; empty when m = 1
  double eps = 0;                   // a-priori ε' of the stage's GEMM against the exact DFT matrix
};

/// The stage of radix r splitting a length-ncur sub-transform, with exponent sign `sign`, its ε' a priori
/// for math mode `mode` (options: product model and generation).
template <Real T>
DftStage<T> make_dft_stage(std::int64_t r, std::int64_t ncur, std::int64_t stride, int sign, trncore::MathMode mode,
                           const trncore::Options& options);

/// The stage's GEMM: c (rows × 2r, interleaved) = a (rows × 2r, interleaved) · bt, in options.math_mode
/// (options: backend sim, no target). Adds the GEMM's engine counters to the log and uncertifies it when
/// the GEMM is not certified. Returns the ε' certified for this run.
template <Real T>
double run_dft_gemm(const T* a, T* c, std::int64_t rows, const DftStage<T>& stage, const trncore::Options& options,
                    RunLog& log);

/// ρ with 1 + ρ = Π(1 + δ_s'), δ_s' from the stages' radices and twiddles and the per-stage ε' in `eps`.
template <Real T>
double compose_stages(const std::vector<DftStage<T>>& stages, const std::vector<double>& eps);

/// The options of a transform's GEMMs: backend sim, math mode `mode`, no target (a GEMM's componentwise
/// bound need not meet the FFT's normwise target for the composed bound to meet it).
trncore::Options gemm_options(const trncore::Options& options, trncore::MathMode mode);

}  // namespace trnfft::detail::sim
