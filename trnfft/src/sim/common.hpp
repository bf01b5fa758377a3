#pragma once
// What every sim FFT algorithm shares (docs/trnfft.md, "Sim backend"): the run log, the precision modes,
// exact unit roots, the complex product and the rounding constants of the bounds, and the engine counters
// of VectorEngine and DMA work.
//
// Notation: u = unit roundoff of T (2^-24 float, 2^-53 double); γ₂ = 2u/(1 − 2u); every complex product
// by a stored constant ĉ (|ĉ − c| ≤ u|c|, |c| = 1) in T arithmetic errs by at most
// τ = u + √2·γ₂·(1 + u) relative to |x| (Higham, ASNA 2nd ed., Lemma 3.5 for the complex product).
// Elementwise steps (twiddles, chirps, packing) are VectorEngine work in T's arithmetic: fp32 for float;
// for double they run in fp64, as trnblas's double output stage does (the hardware VectorEngine is fp32, so
// on a chip these would be multi-word fp32 operations; the counters record one element per operation).

#include <trnfft/types.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/generation.hpp>

#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trnfft::detail::sim {

/// What a run did: the engine counters, whether every hypothesis of its bound held (every GEMM certified,
/// finite input and output), the first failed hypothesis (the report's uncertified_reason), and notes for
/// the trajectory.
struct RunLog {
  trncore::sim::EngineStats stats;
  bool certified = true;
  std::string reason;
  std::vector<std::string> caveats;

  /// Records a failed hypothesis; the first one becomes the reason.
  void uncertify(std::string why) {
    if (certified) reason = why;
    certified = false;
    caveats.push_back(std::move(why));
  }
};

/// The precision a sim transform runs in: one TensorEngine math mode for every DFT GEMM, or bf16_refined
/// (a bf16 transform, its residual through an fp32-mode inverse transform, a second bf16 transform of the
/// residual). Resolved from PlanOptions::math_mode and PlanOptions::refine (sim_executor.cpp).
enum class Precision : std::uint8_t { fp32, bf16, bf16_refined, compensated, ozaki };

/// "fp32", "bf16", "bf16_refined", "compensated" or "ozaki".
std::string_view name(Precision precision) noexcept;

/// The math mode of the GEMMs of a precision (bf16 for bf16_refined).
trncore::MathMode gemm_mode(Precision precision) noexcept;

/// trncore's name of a math mode, as a std::string.
std::string mode_name(trncore::MathMode mode);

/// The unit roundoff of T.
template <Real T>
constexpr double unit() {
  return std::numeric_limits<T>::epsilon() / 2;
}

/// τ: the relative error of one complex product by a stored unit-modulus constant (file header).
template <Real T>
double tau() {
  const double u = unit<T>();
  const double g2 = 2 * u / (1 - 2 * u);
  return u + std::numbers::sqrt2 * g2 * (1 + u);
}

using cld = std::complex<long double>;

/// e^{sign·2πi·a/n}, a reduced mod n exactly in integers, then the angle reduced to a quadrant so that the
/// quarter turns are exact (cos(π/2) is 0, not 6e-17) and evaluated in long double.
cld unit_root(std::int64_t a, std::int64_t n, int sign);

/// z rounded to T.
template <Real T>
std::complex<T> to_t(cld z) {
  return {static_cast<T>(z.real()), static_cast<T>(z.imag())};
}

/// x·c with the four real products and two sums of the textbook formula (no fused or scaled forms).
template <Real T>
inline std::complex<T> cmul(std::complex<T> x, std::complex<T> c) {
  return {x.real() * c.real() - x.imag() * c.imag(), x.real() * c.imag() + x.imag() * c.real()};
}

/// Whether n's prime factors are all 2, 3, 5 or 7 (the lengths Stockham runs).
bool smooth(std::int64_t n);

/// "8x6x5": the lengths of a shape, for messages.
std::string shape_text(const std::vector<std::int64_t>& n);

/// Counts one VectorEngine instruction over `elements` elements.
void count_vector(trncore::sim::EngineStats& stats, trncore::sim::Generation generation, std::int64_t elements);

/// Counts one DMA transfer of `bytes` bytes.
void count_dma(trncore::sim::EngineStats& stats, std::int64_t bytes);

}  // namespace trnfft::detail::sim
