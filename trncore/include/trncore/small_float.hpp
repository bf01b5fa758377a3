#pragma once
/// @file
/// Value types for the narrow formats: bf16, fp16, tf32, fp8_e4m3, fp8_e5m2 and fp4_e2m1 (the MX
/// element type). Each holds its encoding; every conversion is explicit and names its rounding.

#include <trncore/error.hpp>
#include <trncore/format.hpp>
#include <trncore/rounding.hpp>

#include <bit>
#include <compare>
#include <cstdint>
#include <limits>
#include <string>

namespace trncore {

/// IEEE-style classification of a value.
enum class FpClass : std::uint8_t { zero, subnormal, normal, infinite, nan };

namespace detail {
struct Bf16Tag {
  static constexpr const FormatSpec& spec = formats::bf16;
  using storage = std::uint16_t;
};
struct Fp16Tag {
  static constexpr const FormatSpec& spec = formats::fp16;
  using storage = std::uint16_t;
};
struct Tf32Tag {
  static constexpr const FormatSpec& spec = formats::tf32;
  using storage = std::uint32_t;
};
struct Fp8E4M3Tag {
  static constexpr const FormatSpec& spec = formats::fp8_e4m3;
  using storage = std::uint8_t;
};
struct Fp8E5M2Tag {
  static constexpr const FormatSpec& spec = formats::fp8_e5m2;
  using storage = std::uint8_t;
};
struct Fp4E2M1Tag {
  static constexpr const FormatSpec& spec = formats::fp4_e2m1;
  using storage = std::uint8_t;
};
}  // namespace detail

/// A number in a narrow binary format, stored as its encoding (bits() has the sign in bit
/// width() − 1 and zeros above; tf32's 19-bit encoding sits in the low bits of a uint32).
///
/// Conversions from float/double round once, exactly, in the requested mode (format.hpp's encode());
/// conversions to float/double are exact. Comparison operators compare values (IEEE: NaN is unordered,
/// +0 == −0); compare bits() for identity.
template <class Tag>
class SmallFloat {
 public:
  /// The unsigned integer that holds an encoding: uint8 (fp8, fp4), uint16 (bf16, fp16), uint32 (tf32).
  using storage_type = typename Tag::storage;
  /// The format's description (formats::bf16, formats::fp16, …).
  static constexpr const FormatSpec& spec = Tag::spec;

  /// +0.
  constexpr SmallFloat() noexcept = default;

  /// The value with encoding `bits`. Bits above width() are ignored.
  static constexpr SmallFloat from_bits(storage_type bits) noexcept {
    SmallFloat v;
    v.bits_ = static_cast<storage_type>(bits & (spec.sign_mask() | spec.magnitude_mask()));
    return v;
  }

  /// x rounded to this format.
  /// @param x       the value; float converts to double exactly, so both overloads round only once
  /// @param rounding mode, overflow policy and SR bit count (validated)
  /// @param random  for RoundingMode::stochastic, the random word whose top rounding.sr_bits bits decide
  ///                (use RandomBits for reproducible streams); ignored by the other modes
  /// @throws trncore::InvalidArgument if rounding is invalid, or x is NaN and the format has no NaN.
  static constexpr SmallFloat from_double(double x, const Rounding& rounding, std::uint32_t random = 0) {
    validate_rounding(rounding);
    if (!spec.has_nan() && x != x)
      throw InvalidArgument(function_name("from_float"), "NaN has no encoding in " + std::string(spec.name),
                            "quantize through an MX block, whose scale encodes NaN, or filter NaN first");
    return from_bits(static_cast<storage_type>(encode(spec, x, rounding, random)));
  }
  /// x rounded to this format in `mode` with the standard overflow policy and 32 SR bits; see the
  /// Rounding overload. @throws trncore::InvalidArgument for an invalid mode, or x NaN in a format
  /// without NaN.
  static constexpr SmallFloat from_double(double x, RoundingMode mode = RoundingMode::nearest_even,
                                          std::uint32_t random = 0) {
    return from_double(x, Rounding(mode), random);
  }
  /// See from_double.
  static constexpr SmallFloat from_float(float x, const Rounding& rounding, std::uint32_t random = 0) {
    return from_double(static_cast<double>(x), rounding, random);
  }
  /// x rounded once to this format in `mode` (standard overflow, 32 SR bits); see from_double.
  static constexpr SmallFloat from_float(float x, RoundingMode mode = RoundingMode::nearest_even,
                                         std::uint32_t random = 0) {
    return from_double(static_cast<double>(x), Rounding(mode), random);
  }

  /// The exact value as float (every format here is a subset of fp32). NaN stays NaN with its sign.
  constexpr float to_float() const noexcept { return static_cast<float>(decode(spec, bits_)); }
  /// The exact value as double.
  constexpr double to_double() const noexcept { return decode(spec, bits_); }
  /// The exact value as float: to_float().
  constexpr explicit operator float() const noexcept { return to_float(); }
  /// The exact value as double: to_double().
  constexpr explicit operator double() const noexcept { return to_double(); }

  /// The encoding.
  constexpr storage_type bits() const noexcept { return bits_; }

  /// The class of the value: zero, subnormal, normal, infinite or NaN, from the encoding and the format's
  /// NanEncoding.
  constexpr FpClass classify() const noexcept {
    const std::uint32_t magnitude = bits_ & spec.magnitude_mask();
    const std::uint32_t field = magnitude >> spec.mantissa_bits;
    if (spec.nan == NanEncoding::ieee && field == spec.exponent_field_max())
      return (magnitude & spec.mantissa_mask()) != 0 ? FpClass::nan : FpClass::infinite;
    if (spec.nan == NanEncoding::all_ones && magnitude == spec.magnitude_mask()) return FpClass::nan;
    if (magnitude == 0) return FpClass::zero;
    return field == 0 ? FpClass::subnormal : FpClass::normal;
  }
  /// Whether the value is a NaN (never for fp4_e2m1).
  constexpr bool is_nan() const noexcept { return classify() == FpClass::nan; }
  /// Whether the value is ±infinity (never for fp8_e4m3 and fp4_e2m1).
  constexpr bool is_inf() const noexcept { return classify() == FpClass::infinite; }
  /// Whether the value is zero, subnormal or normal.
  constexpr bool is_finite() const noexcept { return classify() < FpClass::infinite; }
  /// Whether the value is +0 or −0.
  constexpr bool is_zero() const noexcept { return classify() == FpClass::zero; }
  /// Whether the value is subnormal (exponent field 0, nonzero mantissa).
  constexpr bool is_subnormal() const noexcept { return classify() == FpClass::subnormal; }
  /// Whether the value is normal.
  constexpr bool is_normal() const noexcept { return classify() == FpClass::normal; }
  /// The sign bit (true for −0 and negative NaNs too).
  constexpr bool signbit() const noexcept { return (bits_ & spec.sign_mask()) != 0; }

  /// Value equality (IEEE: NaN ≠ NaN, +0 == −0); compare bits() for identical encodings.
  friend constexpr bool operator==(SmallFloat a, SmallFloat b) noexcept { return a.to_double() == b.to_double(); }
  /// Value order (IEEE: unordered when either is NaN; −0 and +0 equivalent).
  friend constexpr std::partial_ordering operator<=>(SmallFloat a, SmallFloat b) noexcept {
    return a.to_double() <=> b.to_double();
  }
  /// −x: the encoding with the sign bit flipped (exact; NaN keeps its payload).
  constexpr SmallFloat operator-() const noexcept {
    return from_bits(static_cast<storage_type>(bits_ ^ spec.sign_mask()));
  }

 private:
  static std::string function_name(const char* what) { return "trncore::" + std::string(spec.name) + "::" + what; }
  static constexpr void validate_rounding(const Rounding& r) {
    if (r.sr_bits < 1 || r.sr_bits > 32 || static_cast<int>(r.mode) > static_cast<int>(RoundingMode::stochastic) ||
        static_cast<int>(r.overflow) > static_cast<int>(Overflow::saturate))
      validate(r, function_name("from_float"));  // throws with the precise message
  }

  storage_type bits_ = 0;
};

using bf16 = SmallFloat<detail::Bf16Tag>;         ///< bfloat16: 8-bit exponent, 7 mantissa bits
using fp16 = SmallFloat<detail::Fp16Tag>;         ///< IEEE binary16
using tf32 = SmallFloat<detail::Tf32Tag>;         ///< TensorFloat-32: fp32 range, 10 mantissa bits
using fp8_e4m3 = SmallFloat<detail::Fp8E4M3Tag>;  ///< OCP FP8 E4M3 ("FN"): no inf, max 448, NaN = S.1111.111
using fp8_e5m2 = SmallFloat<detail::Fp8E5M2Tag>;  ///< OCP FP8 E5M2: IEEE-like, with inf and NaN
using fp4_e2m1 = SmallFloat<detail::Fp4E2M1Tag>;  ///< OCP FP4 E2M1 (MX element): no inf, no NaN, max 6

}  // namespace trncore

/// std::numeric_limits for every trncore::SmallFloat format, derived from its FormatSpec.
template <class Tag>
class std::numeric_limits<trncore::SmallFloat<Tag>> {
  using T = trncore::SmallFloat<Tag>;
  static constexpr const trncore::FormatSpec& f = Tag::spec;
  static constexpr T magnitude(std::uint32_t m) noexcept {
    return T::from_bits(static_cast<typename T::storage_type>(m));
  }
  static constexpr T exact_power_of_two(int e) noexcept {  // 2^e, representable in every format here
    const double v = std::bit_cast<double>(static_cast<std::uint64_t>(1023 + e) << 52);
    return magnitude(trncore::encode(f, v, trncore::Rounding()));
  }
  static constexpr int decimal_exponent_floor(double v) noexcept {  // floor(log10 v) for v in [1e-40, 1e40]
    int k = 0;
    double p = 1.0;
    while (p * 10.0 <= v) {
      p *= 10.0;
      ++k;
    }
    while (p > v) {
      p /= 10.0;
      --k;
    }
    return k;
  }

 public:
  /// true: the specialization exists.
  static constexpr bool is_specialized = true;
  /// true: every format has a sign bit.
  static constexpr bool is_signed = true;
  /// false.
  static constexpr bool is_integer = false;
  /// false: values are rounded.
  static constexpr bool is_exact = false;
  /// Whether the format has ±infinity (bf16, fp16, tf32, fp8_e5m2; not fp8_e4m3, fp4_e2m1).
  static constexpr bool has_infinity = f.has_infinity();
  /// Whether the format has a NaN (all but fp4_e2m1).
  static constexpr bool has_quiet_NaN = f.has_nan();
  /// Whether a signaling NaN encoding exists (the IEEE-style formats).
  // Only IEEE-style encodings have a mantissa pattern left for signaling NaNs (quiet bit clear).
  static constexpr bool has_signaling_NaN = f.nan == trncore::NanEncoding::ieee;
  /// std::denorm_present: every format has subnormals, and conversions keep them.
  static constexpr std::float_denorm_style has_denorm = std::denorm_present;
  /// false.
  static constexpr bool has_denorm_loss = false;
  /// std::round_to_nearest: the default rounding of from_double/from_float (nearest-even).
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  /// true only for fp16 (IEEE binary16).
  static constexpr bool is_iec559 = f.name == "fp16";  // binary16 is the only IEEE 754 interchange format here
  /// true.
  static constexpr bool is_bounded = true;
  /// false.
  static constexpr bool is_modulo = false;
  /// Significand precision p in bits, hidden bit included: mantissa_bits + 1 (bf16 8, fp16 11, …).
  static constexpr int digits = f.mantissa_bits + 1;
  /// Decimal digits that survive a round trip through the format: floor((p − 1)·log10 2).
  static constexpr int digits10 = (digits - 1) * 643 / 2136;  // floor((p − 1) log10 2)
  /// Decimal digits that identify every value: ceil(1 + p·log10 2).
  static constexpr int max_digits10 = 2 + digits * 643 / 2136;  // ceil(1 + p log10 2)
  /// 2.
  static constexpr int radix = 2;
  /// emin + 1 (C convention: 2^(min_exponent − 1) is the smallest normal).
  static constexpr int min_exponent = f.emin() + 1;  // C convention: 2^(min_exponent − 1) is the smallest normal
  /// emax + 1 (C convention: the largest finite value is below 2^max_exponent).
  static constexpr int max_exponent = f.emax() + 1;
  /// The most negative k with 10^k at or above the smallest normal.
  static constexpr int min_exponent10 =
      -decimal_exponent_floor(1.0 / magnitude(std::uint32_t{1} << f.mantissa_bits).to_double());
  /// The largest k with 10^k at or below the largest finite value.
  static constexpr int max_exponent10 = decimal_exponent_floor(magnitude(f.max_finite_magnitude()).to_double());
  /// false: conversions never trap.
  static constexpr bool traps = false;
  /// false.
  static constexpr bool tinyness_before = false;

  /// The smallest positive normal value, 2^emin.
  static constexpr T min() noexcept { return magnitude(std::uint32_t{1} << f.mantissa_bits); }
  /// The largest finite value (bf16 ≈ 3.39e38, fp16 65504, fp8_e4m3 448, fp8_e5m2 57344, fp4_e2m1 6).
  static constexpr T max() noexcept { return magnitude(f.max_finite_magnitude()); }
  /// −max().
  static constexpr T lowest() noexcept { return -max(); }
  /// ulp(1) = 2^−mantissa_bits (twice the unit roundoff).
  static constexpr T epsilon() noexcept { return exact_power_of_two(-f.mantissa_bits); }  // ulp(1)
  /// 0.5: the maximum rounding error in ulps of round-to-nearest.
  static constexpr T round_error() noexcept { return exact_power_of_two(-1); }
  /// +infinity, or +0 for a format without infinity (check has_infinity).
  static constexpr T infinity() noexcept { return has_infinity ? magnitude(f.infinity_magnitude()) : T(); }
  /// The canonical quiet NaN, or +0 for fp4_e2m1 (check has_quiet_NaN).
  static constexpr T quiet_NaN() noexcept { return has_quiet_NaN ? magnitude(f.quiet_nan_magnitude()) : T(); }
  /// A signaling NaN (quiet bit clear, payload 1) for IEEE-style formats, otherwise quiet_NaN().
  static constexpr T signaling_NaN() noexcept {
    return has_signaling_NaN ? magnitude(f.infinity_magnitude() | 1u) : quiet_NaN();
  }
  /// The smallest positive subnormal value, 2^(emin − mantissa_bits).
  static constexpr T denorm_min() noexcept { return magnitude(1); }
};
