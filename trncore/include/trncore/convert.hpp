#pragma once
/// @file
/// Bulk conversions between fp32/fp64 spans and the narrow formats, in any rounding mode: vectorised
/// with run-time SIMD dispatch, split over threads for large inputs, and bit-identical to element-wise
/// encode()/decode() (format.hpp) on every code path and for every thread count.

#include <trncore/rounding.hpp>
#include <trncore/small_float.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace trncore {

/// A SIMD code path. `automatic` picks the widest the CPU has.
enum class Isa : std::uint8_t { automatic, scalar, avx2, avx512 };

/// "automatic", "scalar", "avx2" or "avx512". Never throws.
std::string_view to_string(Isa isa) noexcept;
/// Whether this CPU can run `isa` (automatic and scalar: always).
bool cpu_supports(Isa isa) noexcept;
/// The path `automatic` resolves to on this CPU.
Isa detected_isa() noexcept;

/// Options of convert().
struct ConvertOptions {
  /// Rounding mode, overflow policy and stochastic-rounding bit count applied to every element.
  Rounding rounding{};
  /// Stochastic rounding: element i of the span draws RandomBits{seed, stream}(offset + i), so a span
  /// converted in pieces with matching offsets gives the same bits as converted whole.
  std::uint64_t seed = 0;
  /// Stream of the stochastic-rounding bits (with seed: the RandomBits key); ignored by the deterministic
  /// modes.
  std::uint64_t stream = 0;
  /// Counter of element 0 of this span in the stochastic-rounding stream (see seed).
  std::uint64_t offset = 0;
  /// Worker threads; 0 = the process default (trncore::default_threads()). Inputs below 64 Ki elements use one.
  int threads = 0;
  /// Code path; automatic unless testing a specific one.
  Isa isa = Isa::automatic;
};

/// out[i] = in[i] rounded to T with options.rounding: exactly encode(T::spec, in[i], rounding, random_i),
/// i.e. correctly rounded from the exact input in every mode, with the overflow and NaN policy of
/// rounding.hpp. T is bf16, fp16, tf32, fp8_e4m3 or fp8_e5m2.
///
/// Fast paths: fp32 → bf16 (nearest-even and SR(r)) and fp32 → fp16 (nearest-even, F16C) are
/// vectorised; other combinations run the element-wise algorithm, threaded. in and out must not overlap.
/// Thread-safe for distinct outputs.
/// @throws DimensionMismatch if the spans differ in size (naming both); InvalidArgument for an invalid
///         Rounding; NotSupported if options.isa names a path this CPU lacks.
template <class T>
void convert(std::span<const float> in, std::span<T> out, const ConvertOptions& options = {});
/// fp64 inputs: rounded once, directly (never through fp32). Same contract as the fp32 overload.
template <class T>
void convert(std::span<const double> in, std::span<T> out, const ConvertOptions& options = {});
/// fp64 → fp32 in any rounding mode (formats::fp32), same contract.
void convert(std::span<const double> in, std::span<float> out, const ConvertOptions& options = {});

/// out[i] = the exact value of in[i] (every format here is a subset of fp32). NaN stays NaN with its sign
/// and payload bits. options.rounding is ignored; threads and isa apply.
/// @throws DimensionMismatch if the spans differ in size.
template <class T>
void convert(std::span<const T> in, std::span<float> out, const ConvertOptions& options = {});
/// Same, to fp64.
template <class T>
void convert(std::span<const T> in, std::span<double> out, const ConvertOptions& options = {});

}  // namespace trncore
