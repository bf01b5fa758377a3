#pragma once
/// @file
/// OCP Microscaling (MX) block formats, per the OCP Microscaling Formats (MX) Specification v1.0:
/// blocks of 32 elements share one E8M0 scale X = 2^e; each element is stored in a narrow format
/// (FP8 E4M3, FP8 E5M2 or FP4 E2M1) and represents X · P_i.

#include <trncore/rounding.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace trncore {

/// Elements per MX block (MX v1.0: k = 32 for every concrete format).
inline constexpr std::int64_t kMxBlockSize = 32;

/// The MX shared scale: an unsigned 8-bit exponent, value 2^(bits − 127) for bits 0 … 254, NaN for 255.
/// No zero, no sign, no infinity.
struct e8m0 {
  std::uint8_t bits = 127;  ///< 2^0

  /// 2^exponent for −127 ≤ exponent ≤ 127. Precondition: exponent in range (quantize_mx clamps).
  static constexpr e8m0 from_exponent(int exponent) noexcept { return {static_cast<std::uint8_t>(exponent + 127)}; }
  /// The NaN scale (bits 255): every element of its block decodes to NaN.
  static constexpr e8m0 nan() noexcept { return {255}; }
  /// Whether this is the NaN scale (bits 255).
  constexpr bool is_nan() const noexcept { return bits == 255; }
  /// The exponent e of 2^e (meaningless for NaN).
  constexpr int exponent() const noexcept { return static_cast<int>(bits) - 127; }
  /// 2^exponent, or NaN.
  double to_double() const noexcept;
};

/// The concrete MX formats of MX v1.0 implemented here.
enum class MxFormat : std::uint8_t { mxfp8_e4m3, mxfp8_e5m2, mxfp4_e2m1 };

/// "mxfp8_e4m3", "mxfp8_e5m2" or "mxfp4_e2m1". Never throws.
std::string_view to_string(MxFormat format) noexcept;
/// Parses the names to_string gives. @throws trncore::ParseError naming the text.
MxFormat parse_mx_format(std::string_view text);

/// A quantized vector: size elements, one scale per block of 32 (the last block may be partial), one
/// element code per byte (fp4 codes in the low nibble; see pack_fp4 for the two-per-byte layout).
struct MxBlocks {
  MxFormat format = MxFormat::mxfp8_e4m3;  ///< element format of every block
  std::int64_t size = 0;                   ///< number of elements (of the original vector)
  std::vector<e8m0> scales;                ///< ceil(size / 32) shared scales, block b covering [32b, 32b + 32)
  std::vector<std::uint8_t> elements;      ///< size element codes P_i, one per byte
};

/// Options of quantize_mx. MX v1.0 rounds elements to nearest-even; other modes (stochastic included,
/// drawing RandomBits{seed, stream}(i) for element i) are an extension. Elements always saturate (MX v1.0
/// §6.3 clamps to the element's largest normal), whatever rounding.overflow says.
struct MxOptions {
  /// Rounding of the elements (rounding.overflow is ignored: elements saturate).
  Rounding rounding{RoundingMode::nearest_even, Overflow::saturate};
  std::uint64_t seed = 0;    ///< key of the stochastic-rounding bits (ignored by deterministic modes)
  std::uint64_t stream = 0;  ///< stream of the stochastic-rounding bits (ignored by deterministic modes)
};

/// Quantizes x to MX blocks per MX v1.0 §6.3: for each block, with m = max_i |x_i| and emax_elem the
/// exponent of the element format's largest normal (E4M3: 8, E5M2: 15, E2M1: 2),
///   shared exponent e = floor(log2 m) − emax_elem, clamped below at −127 (an all-zero block gets −127);
///   e > 127, or any NaN or infinity in the block, makes the scale NaN (the block then decodes to NaN);
///   P_i = round(x_i / 2^e) in the element format, saturating at ±max.
/// Accuracy: every element of magnitude ≥ 2^e · (element's smallest normal) has relative error
/// ≤ 2^−(M+1) (M = 3, 2, 1 mantissa bits) under nearest-even, except the block maximum when it saturates
/// (E4M3 can lose up to 12.5%: values in [1.75, 2)·2^(e+8) clamp to 448·2^e); smaller elements are subnormal
/// in the element format and lose relative accuracy, down to zero below half the smallest subnormal.
/// @throws trncore::InvalidArgument for an invalid format value or Rounding.
MxBlocks quantize_mx(std::span<const float> x, MxFormat format, const MxOptions& options = {});
/// The same for fp64 input (each x_i / 2^e rounded once, from the exact value).
MxBlocks quantize_mx(std::span<const double> x, MxFormat format, const MxOptions& options = {});

/// out[i] = 2^e(block of i) · P_i exactly (NaN for a NaN scale).
/// @throws trncore::DimensionMismatch if out.size() != blocks.size (naming both);
///         trncore::InvalidArgument if the blocks are inconsistent (scale or element count, format).
void dequantize_mx(const MxBlocks& blocks, std::span<float> out);

/// For mxfp4_e2m1: the element codes packed two per byte, element 2j in the low nibble of byte j and
/// element 2j+1 in the high nibble (an odd size leaves the last high nibble 0).
/// @throws trncore::InvalidArgument if blocks.format is not mxfp4_e2m1.
std::vector<std::uint8_t> pack_fp4(const MxBlocks& blocks);

}  // namespace trncore
