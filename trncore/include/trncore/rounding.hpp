#pragma once
/// @file
/// Rounding modes and overflow policies for every format conversion in the suite (DESIGN.md §4.1).

#include <cstdint>
#include <string_view>

namespace trncore {

/// How a value that is not representable in the target format is rounded.
enum class RoundingMode : std::uint8_t {
  nearest_even,  ///< IEEE roundTiesToEven.
  toward_zero,   ///< IEEE roundTowardZero (truncation).
  up,            ///< IEEE roundTowardPositive.
  down,          ///< IEEE roundTowardNegative.
  to_odd,        ///< Truncate, then set the last kept bit if anything nonzero was discarded (von Neumann
                 ///< rounding); makes a later round-to-nearest in a narrower format free of double rounding.
  stochastic,    ///< SR(r): round away from zero with probability equal to the discarded fraction,
                 ///< resolved to r random bits (Rounding::sr_bits); see docs/numerics.md.
};

/// What happens to a finite value whose rounded magnitude exceeds the format's largest finite value,
/// and to an infinite input.
enum class Overflow : std::uint8_t {
  /// IEEE 754: round-to-nearest, stochastic rounding and rounding away from zero give infinity; rounding
  /// toward zero gives the largest finite value. A format without infinity (fp8_e4m3) gives NaN
  /// instead, and a format without infinity and NaN (fp4_e2m1) saturates.
  standard,
  /// Always the largest finite value of the right sign; infinite inputs too. NaN stays NaN.
  saturate,
};

/// A complete rounding specification: mode, overflow policy and, for stochastic rounding, the number r
/// of random bits the hardware compares against (1 ≤ r ≤ 32; 32 models exact-probability SR).
struct Rounding {
  RoundingMode mode = RoundingMode::nearest_even;  ///< the rounding mode
  Overflow overflow = Overflow::standard;          ///< what an overflowing or infinite value becomes
  int sr_bits = 32;                                ///< r of SR(r), 1 … 32 (used only by RoundingMode::stochastic)

  /// Nearest-even, standard overflow, sr_bits 32.
  constexpr Rounding() = default;
  /// Mode m with overflow policy o and r random bits for stochastic rounding. Implicit, so a RoundingMode
  /// converts to a Rounding; not validated here (see validate()).
  constexpr Rounding(RoundingMode m, Overflow o = Overflow::standard, int r = 32) : mode(m), overflow(o), sr_bits(r) {}
};

/// The lower-case name of a rounding mode, e.g. "nearest_even". Never throws.
std::string_view to_string(RoundingMode mode) noexcept;
/// The lower-case name of an overflow policy: "standard" or "saturate". Never throws.
std::string_view to_string(Overflow overflow) noexcept;

/// Parses the names to_string produces (also "rne", "rz", "ru", "rd", "ro", "sr").
/// @throws trncore::ParseError naming the text and the accepted names.
RoundingMode parse_rounding_mode(std::string_view text);
/// Parses "standard" or "saturate". @throws trncore::ParseError naming the text.
Overflow parse_overflow(std::string_view text);

/// Checks that a Rounding is usable: a valid mode and overflow value and 1 ≤ sr_bits ≤ 32.
/// @param rounding  the specification to check
/// @param function  the public function to name in the error message
/// @throws trncore::InvalidArgument naming the offending field and value.
void validate(const Rounding& rounding, std::string_view function);

}  // namespace trncore
