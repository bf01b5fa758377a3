#pragma once
// The sim backend's complex FFTs of one length in one TensorEngine math mode (docs/trnfft.md, "Sim
// backend", "Algorithms"): batch rows of n complex values, contiguous, every small DFT a trnblas sim GEMM.
// Three algorithms, one file each:
// - DFT-as-GEMM (dft_as_gemm.cpp): n ≤ 256, the whole DFT as one GEMM by the 2n × 2n real-stacked matrix;
// - Stockham (stockham.cpp): 7-smooth n, mixed-radix autosort stages of radices 8, 4, 2, 3, 5, 7;
// - Bluestein (bluestein.cpp): other n, a chirp convolution through two Stockham transforms of a smooth
//   length m ≥ 2n − 1.
// Bounds are normwise and relative: ‖ŷ − y‖₂ ≤ δ·‖y‖₂ for each transform of a batch (so also for the
// whole batch), derived in dft_stage.hpp and next to each algorithm.

#include "sim/common.hpp"

#include <trncore/math_mode.hpp>
#include <trncore/options.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>

namespace trnfft::detail::sim {

/// A c2c transform of length n with exponent sign −1 (forward) or +1 (backward) in one math mode (fp32,
/// bf16, compensated or ozaki).
template <Real T>
class ComplexFft {
 public:
  virtual ~ComplexFft() = default;
  /// out = transform(in), `batch` rows; in and out must not overlap. Returns the normwise relative bound
  /// certified for this run (the a-priori composition with the ε each GEMM reported).
  virtual double run(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const = 0;
  /// The a-priori bound (per-GEMM ε from the mode's data-independent bound).
  virtual double a_priori() const = 0;
  /// One line: the algorithm, its length, direction, stages and math mode.
  virtual std::string description() const = 0;
};

/// The algorithm for length n: DFT-as-GEMM for n ≤ 256, Stockham for 7-smooth n, Bluestein otherwise.
template <Real T>
std::unique_ptr<ComplexFft<T>> make_complex_fft(std::int64_t n, int sign, trncore::MathMode mode,
                                                const trncore::Options& options);

/// Each algorithm on its own (make_complex_fft chooses among them).
template <Real T>
std::unique_ptr<ComplexFft<T>> make_dft_as_gemm(std::int64_t n, int sign, trncore::MathMode mode,
                                                const trncore::Options& options);
template <Real T>
std::unique_ptr<ComplexFft<T>> make_stockham(std::int64_t n, int sign, trncore::MathMode mode,
                                             const trncore::Options& options);
template <Real T>
std::unique_ptr<ComplexFft<T>> make_bluestein(std::int64_t n, int sign, trncore::MathMode mode,
                                              const trncore::Options& options);

}  // namespace trnfft::detail::sim
