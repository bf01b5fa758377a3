#pragma once
/// @file
/// Binary floating-point format descriptions and the one conversion algorithm every format uses: a
/// double (exactly representing any fp32 or fp64 input) rounded to a format in any RoundingMode, and an
/// encoding decoded exactly. The value types (small_float.hpp), the MX block formats and the bulk
/// conversions are all built on encode()/decode() here, and the bulk fast paths are tested bit for bit
/// against them.

#include <trncore/rounding.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string_view>

namespace trncore {

/// How a format encodes NaN.
enum class NanEncoding : std::uint8_t {
  ieee,      ///< exponent all ones, mantissa nonzero (quiet bit = top mantissa bit); infinities exist
  all_ones,  ///< only S.1…1.1…1 is NaN; no infinities (OCP fp8_e4m3 "FN")
  none,      ///< no NaN and no infinities (OCP fp4_e2m1): overflow always saturates
};

/// A sign–exponent–mantissa binary format: value = (-1)^s · 2^(e − bias) · 1.m for normal encodings and
/// (-1)^s · 2^(1 − bias) · 0.m for subnormal ones (exponent field 0).
struct FormatSpec {
  std::string_view name;  ///< the format's name as the suite prints it, e.g. "bf16", "fp8_e4m3"
  int exponent_bits;      ///< width of the exponent field
  int mantissa_bits;      ///< explicit (stored) mantissa bits
  int bias;               ///< exponent bias: an exponent field e encodes 2^(e − bias)
  NanEncoding nan;        ///< how NaN (and whether infinity) is encoded

  /// Total bits of an encoding: sign + exponent + mantissa.
  constexpr int width() const noexcept { return 1 + exponent_bits + mantissa_bits; }
  /// The sign bit of an encoding (bit width() − 1).
  constexpr std::uint32_t sign_mask() const noexcept { return std::uint32_t{1} << (exponent_bits + mantissa_bits); }
  /// The exponent and mantissa bits of an encoding (everything but the sign).
  constexpr std::uint32_t magnitude_mask() const noexcept { return sign_mask() - 1; }
  /// The mantissa field of an encoding (the low mantissa_bits bits).
  constexpr std::uint32_t mantissa_mask() const noexcept { return (std::uint32_t{1} << mantissa_bits) - 1; }
  /// The largest exponent field value, 2^exponent_bits − 1 (all ones).
  constexpr std::uint32_t exponent_field_max() const noexcept { return (std::uint32_t{1} << exponent_bits) - 1; }
  /// Whether the format has ±infinity (only NanEncoding::ieee formats do).
  constexpr bool has_infinity() const noexcept { return nan == NanEncoding::ieee; }
  /// Whether the format has a NaN encoding (all but NanEncoding::none).
  constexpr bool has_nan() const noexcept { return nan != NanEncoding::none; }
  /// Exponent of the smallest normal number.
  constexpr int emin() const noexcept { return 1 - bias; }
  /// Magnitude bits of the largest finite value.
  constexpr std::uint32_t max_finite_magnitude() const noexcept {
    switch (nan) {
      case NanEncoding::ieee: return ((exponent_field_max() - 1) << mantissa_bits) | mantissa_mask();
      case NanEncoding::all_ones: return magnitude_mask() - 1;
      case NanEncoding::none: return magnitude_mask();
    }
    return 0;
  }
  /// Exponent of the largest finite value.
  constexpr int emax() const noexcept { return static_cast<int>(max_finite_magnitude() >> mantissa_bits) - bias; }
  /// Magnitude bits of +infinity (formats with infinities only).
  constexpr std::uint32_t infinity_magnitude() const noexcept { return exponent_field_max() << mantissa_bits; }
  /// Magnitude bits of the canonical quiet NaN.
  constexpr std::uint32_t quiet_nan_magnitude() const noexcept {
    return nan == NanEncoding::ieee ? infinity_magnitude() | (std::uint32_t{1} << (mantissa_bits - 1))
                                    : magnitude_mask();
  }
};

/// The formats of DESIGN.md §4.1. fp32 is here so that fp64 → fp32 can be rounded in any mode too.
namespace formats {
/// IEEE binary32: u = 2^-24, largest finite ≈ 3.40e38.
inline constexpr FormatSpec fp32{"fp32", 8, 23, 127, NanEncoding::ieee};
/// TensorFloat-32 (19 significant bits stored in 32): fp32's range, u = 2^-11.
inline constexpr FormatSpec tf32{"tf32", 8, 10, 127, NanEncoding::ieee};
/// bfloat16: fp32's range (largest finite ≈ 3.39e38), u = 2^-8.
inline constexpr FormatSpec bf16{"bf16", 8, 7, 127, NanEncoding::ieee};
/// IEEE binary16: u = 2^-11, largest finite 65504, smallest normal 2^-14.
inline constexpr FormatSpec fp16{"fp16", 5, 10, 15, NanEncoding::ieee};
/// OCP fp8 E4M3 ("FN"): u = 2^-4, largest finite 448, no infinities, one NaN per sign.
inline constexpr FormatSpec fp8_e4m3{"fp8_e4m3", 4, 3, 7, NanEncoding::all_ones};
/// OCP fp8 E5M2 (IEEE-like): u = 2^-3, largest finite 57344, infinities and NaNs.
inline constexpr FormatSpec fp8_e5m2{"fp8_e5m2", 5, 2, 15, NanEncoding::ieee};
/// OCP fp4 E2M1 (MX element format): values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives; no NaN, no
/// infinity.
inline constexpr FormatSpec fp4_e2m1{"fp4_e2m1", 2, 1, 1, NanEncoding::none};
}  // namespace formats

namespace detail {

inline constexpr std::uint64_t kDoubleMantissaMask = (std::uint64_t{1} << 52) - 1;

// Encoding of a result whose magnitude overflowed (or an infinite input), per Overflow and mode.
constexpr std::uint32_t overflow_magnitude(const FormatSpec& f, const Rounding& r, bool negative) noexcept {
  bool to_max = r.overflow == Overflow::saturate || f.nan == NanEncoding::none;
  if (!to_max) {
    switch (r.mode) {
      case RoundingMode::toward_zero:
      case RoundingMode::to_odd: to_max = true; break;
      case RoundingMode::up: to_max = negative; break;
      case RoundingMode::down: to_max = !negative; break;
      case RoundingMode::nearest_even:
      case RoundingMode::stochastic: break;
    }
  }
  if (to_max) return f.max_finite_magnitude();
  return f.has_infinity() ? f.infinity_magnitude() : f.quiet_nan_magnitude();
}

// Whether to increment the kept significand, given the discarded bits rem (out of `shift` bits).
constexpr bool round_up(std::uint64_t kept, std::uint64_t rem, int shift, bool negative, const Rounding& r,
                        std::uint32_t random) noexcept {
  switch (r.mode) {
    case RoundingMode::nearest_even: {
      if (shift > 64) return false;  // rem < 2^53 < half
      const std::uint64_t half = std::uint64_t{1} << (shift - 1);
      return rem > half || (rem == half && (kept & 1) != 0);
    }
    case RoundingMode::toward_zero:
    case RoundingMode::to_odd: return false;
    case RoundingMode::up: return rem != 0 && !negative;
    case RoundingMode::down: return rem != 0 && negative;
    case RoundingMode::stochastic: {
      // The discarded fraction rem / 2^shift truncated to r bits, plus r random bits: a carry out of
      // the r bits rounds up, so P(up) = floor(fraction · 2^r) / 2^r.
      const int rb = r.sr_bits;
      std::uint64_t frac_r;
      if (shift >= rb)
        frac_r = (shift - rb >= 64) ? 0 : rem >> (shift - rb);
      else
        frac_r = rem << (rb - shift);
      const std::uint64_t rnd = std::uint64_t{random} >> (32 - rb);
      return ((frac_r + rnd) >> rb) != 0;
    }
  }
  return false;
}

}  // namespace detail

/// Rounds x to format f: returns the encoding (sign in bit f.width() − 1).
///
/// The result is the correctly rounded value in the given mode, computed from the exact input (no
/// double rounding), with subnormals, signed zeros and overflow as documented on Overflow. NaN inputs
/// give a quiet NaN of the same sign; IEEE-style formats keep the most significant payload bits (as
/// x86 F16C and AVX512-BF16 do). For stochastic rounding, the top r.sr_bits bits of `random` are used.
/// Formats without NaN (fp4_e2m1) map NaN to +0 — callers that can see NaN (the MX quantizer)
/// handle it before calling; the value types reject it.
/// Preconditions: r is valid (see validate()). constexpr, noexcept, thread-safe.
constexpr std::uint32_t encode(const FormatSpec& f, double x, const Rounding& r, std::uint32_t random = 0) noexcept {
  const std::uint64_t xb = std::bit_cast<std::uint64_t>(x);
  const bool negative = (xb >> 63) != 0;
  const std::uint32_t sign = negative ? f.sign_mask() : 0;
  const int biased = static_cast<int>((xb >> 52) & 0x7FF);
  const std::uint64_t fraction = xb & detail::kDoubleMantissaMask;

  if (biased == 0x7FF) {
    if (fraction != 0) {
      if (f.nan != NanEncoding::ieee) return f.has_nan() ? sign | f.quiet_nan_magnitude() : 0;
      return sign | f.quiet_nan_magnitude() | static_cast<std::uint32_t>(fraction >> (52 - f.mantissa_bits));
    }
    return sign | detail::overflow_magnitude(f, r, negative);
  }
  if (biased == 0 && fraction == 0) return sign;

  // |x| = sig · 2^e2 exactly, and E = floor(log2 |x|).
  const std::uint64_t sig = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  const int e2 = (biased == 0 ? 1 : biased) - 1075;
  const int exponent = (63 - std::countl_zero(sig)) + e2;
  // The target's quantum at this magnitude: subnormal spacing below emin.
  const int quantum = std::max(exponent, f.emin()) - f.mantissa_bits;
  const int shift = quantum - e2;

  std::uint64_t m;
  if (shift <= 0) {
    m = sig << -shift;  // exact; -shift ≤ mantissa_bits, so no bit is lost
  } else {
    std::uint64_t kept = shift >= 64 ? 0 : sig >> shift;
    const std::uint64_t rem = shift >= 64 ? sig : sig & ((std::uint64_t{1} << shift) - 1);
    const bool up = detail::round_up(kept, rem, shift, negative, r, random);
    if (r.mode == RoundingMode::to_odd && rem != 0) kept |= 1;
    m = kept + (up ? 1 : 0);
  }
  // m includes the hidden bit for normal results, so adding it to (field − 1) << mantissa_bits gives
  // the encoding, and a carry out of the mantissa (or out of the subnormal range) bumps the exponent.
  const std::uint64_t field_minus_one = static_cast<std::uint64_t>(std::max(exponent + f.bias, 1) - 1);
  const std::uint64_t magnitude = (field_minus_one << f.mantissa_bits) + m;
  if (magnitude > f.max_finite_magnitude()) return sign | detail::overflow_magnitude(f, r, negative);
  return sign | static_cast<std::uint32_t>(magnitude);
}

/// The exact value of encoding `bits` of format f, as a double. NaN encodings give a quiet NaN with
/// the same sign (and, for IEEE-style formats, the payload in the top fraction bits). constexpr, noexcept.
constexpr double decode(const FormatSpec& f, std::uint32_t bits) noexcept {
  const std::uint64_t sign = static_cast<std::uint64_t>((bits & f.sign_mask()) != 0) << 63;
  const std::uint32_t magnitude = bits & f.magnitude_mask();
  const std::uint32_t field = magnitude >> f.mantissa_bits;
  const std::uint64_t frac = magnitude & f.mantissa_mask();

  if (f.nan == NanEncoding::ieee && field == f.exponent_field_max()) {
    const std::uint64_t payload = frac << (52 - f.mantissa_bits);
    return std::bit_cast<double>(sign | (std::uint64_t{0x7FF} << 52) | payload);
  }
  if (f.nan == NanEncoding::all_ones && magnitude == f.magnitude_mask())
    return std::bit_cast<double>(sign | (std::uint64_t{0x7FF} << 52) | (std::uint64_t{1} << 51));
  if (magnitude == 0) return std::bit_cast<double>(sign);

  int exponent;
  std::uint64_t mantissa52;
  if (field == 0) {  // subnormal: normalise, since every format here is normal in double
    const int lead = 63 - std::countl_zero(frac);
    exponent = f.emin() - f.mantissa_bits + lead;
    mantissa52 = (frac << (52 - lead)) & detail::kDoubleMantissaMask;
  } else {
    exponent = static_cast<int>(field) - f.bias;
    mantissa52 = frac << (52 - f.mantissa_bits);
  }
  return std::bit_cast<double>(sign | (static_cast<std::uint64_t>(exponent + 1023) << 52) | mantissa52);
}

}  // namespace trncore
