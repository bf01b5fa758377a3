#pragma once
/// @file
/// trnfft's option enums and the geometry type of its plans (docs/trnfft.md, "Conventions").

#include <trncore/options.hpp>

#include <complex>
#include <concepts>
#include <cstdint>
#include <string_view>
#include <utility>

namespace trnfft {

/// The real types trnfft transforms: float and double (FFTW's fftwf_ and fftw_ precisions).
template <class T>
concept Real = std::same_as<T, float> || std::same_as<T, double>;

/// Sign of the exponent of a complex DFT: forward computes y_k = Σ_j x_j·exp(−2πi·jk/n), backward
/// y_k = Σ_j x_j·exp(+2πi·jk/n). Neither scales (FFTW's FFTW_FORWARD and FFTW_BACKWARD); the free functions
/// scale by their Norm.
enum class Direction : std::int8_t { forward = -1, backward = +1 };

/// How hard the planner searches for a fast algorithm (FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT,
/// FFTW_EXHAUSTIVE). estimate never touches the arrays passed at plan creation; the others time
/// candidate algorithms on them and overwrite their contents (initialise the data after planning).
enum class Rigor : std::uint8_t { estimate, measure, patient, exhaustive };

/// How the complex side of a transform is stored: interleaved std::complex<T> (re, im adjacent), or
/// split into separate real and imaginary arrays of T (FFTW's guru split interface).
enum class ComplexLayout : std::uint8_t { interleaved, split };

/// What kind of transform a plan computes: complex to complex, real to half-spectrum (n/2 + 1 complex
/// values along the last transformed dimension), or half-spectrum to real.
enum class Kind : std::uint8_t { c2c, r2c, c2r };

/// numpy's `norm` of the free functions: which direction carries the 1/N (N = product of the transform
/// lengths): backward (the default) scales the inverse by 1/N, forward scales the forward transform by 1/N,
/// ortho scales both by 1/√N (unitary).
enum class Norm : std::uint8_t { backward, ortho, forward };

/// "forward" or "backward". Never throws.
std::string_view to_string(Direction direction) noexcept;
/// "estimate", "measure", "patient" or "exhaustive". Never throws.
std::string_view to_string(Rigor rigor) noexcept;
/// "interleaved" or "split". Never throws.
std::string_view to_string(ComplexLayout layout) noexcept;
/// "c2c", "r2c" or "c2r". Never throws.
std::string_view to_string(Kind kind) noexcept;
/// "backward", "ortho" or "forward" (numpy's spelling). Never throws.
std::string_view to_string(Norm norm) noexcept;

/// Parses to_string's name of a Direction. @throws trncore::ParseError naming the text and the accepted names.
Direction parse_direction(std::string_view text);
/// Parses to_string's name of a Rigor. @throws trncore::ParseError naming the text and the accepted names.
Rigor parse_rigor(std::string_view text);
/// Parses to_string's name of a ComplexLayout. @throws trncore::ParseError naming the text and the accepted names.
ComplexLayout parse_complex_layout(std::string_view text);
/// Parses to_string's name of a Kind. @throws trncore::ParseError naming the text and the accepted names.
Kind parse_kind(std::string_view text);
/// Parses numpy's norm names. @throws trncore::ParseError naming the text and the accepted names.
Norm parse_norm(std::string_view text);

/// One dimension of a plan's geometry, as FFTW's fftw_iodim64: `n` points, the input `is` and output `os`
/// elements apart. Strides count elements of the array's own type: T for real arrays and for both arrays
/// of a split complex layout, std::complex<T> for interleaved complex arrays. For r2c and c2r the last
/// transform dimension's `n` is the logical real length; its complex side holds n/2 + 1 points.
struct IoDim {
  std::int64_t n = 1;   ///< number of points along the dimension (≥ 1)
  std::int64_t is = 1;  ///< input stride, in elements of the input array's type
  std::int64_t os = 1;  ///< output stride, in elements of the output array's type
  /// Whether n, is and os are all equal.
  friend bool operator==(const IoDim&, const IoDim&) = default;
};

/// The options of plan creation (docs/trnfft.md, "Plans"): trncore::Options — backend, math_mode,
/// target_forward_error, threads, generation and product model — and FFTW's planner flags, plus the sim
/// backend's refinement. Any trncore::Options converts to PlanOptions with the planner defaults below;
/// every with_*() setter, trncore::Options's included (through trncore::OptionsFor), returns PlanOptions&.
struct PlanOptions : trncore::OptionsFor<PlanOptions> {
  using OptionsFor::OptionsFor;

  /// Sets rigor = r; returns *this.
  PlanOptions& with_rigor(Rigor r) {
    rigor = r;
    return *this;
  }
  /// Sets preserve_input = p; returns *this.
  PlanOptions& with_preserve_input(bool p = true) {
    preserve_input = p;
    return *this;
  }
  /// Sets unaligned = u; returns *this.
  PlanOptions& with_unaligned(bool u = true) {
    unaligned = u;
    return *this;
  }
  /// Sets refine = r; returns *this.
  PlanOptions& with_refine(bool r = true) {
    refine = r;
    return *this;
  }

  /// The planner's effort; see Rigor. Ignored by sim plans.
  Rigor rigor = Rigor::estimate;
  /// Guarantee that execution leaves the input unchanged (FFTW_PRESERVE_INPUT). c2c and r2c out-of-place
  /// plans always preserve their input; c2r plans overwrite it unless this is set, and multi-dimensional
  /// c2r cannot preserve it (creation then throws NotSupported). Sim plans never modify their input.
  bool preserve_input = false;
  /// Let new-array execute take arrays of any alignment (FFTW_UNALIGNED), at some cost in speed. Without
  /// it, arrays passed to execute must share the SIMD alignment of those the plan was created with (sim
  /// plans have no alignment rule).
  bool unaligned = false;
  /// Sim backend with math_mode bf16 only: one refinement step (docs/trnfft.md, "Precision modes"): a bf16
  /// transform, its residual through an fp32-mode inverse transform, and a second bf16 transform of the
  /// residual ("bf16_refined"). Other math modes: InvalidArgument; host plans: NotSupported.
  bool refine = false;
};

}  // namespace trnfft
