#pragma once
/// @file
/// The numerics a computational call may use: cuBLAS's cublasMath_t, made richer (docs/trncore.md).

#include <trncore/format.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace trncore {

/// How a call trades accuracy for speed. Libraries document which modes each call accepts and the
/// a-priori bound of each; a mode a backend lacks throws trncore::NotSupported.
enum class MathMode : std::uint8_t {
  automatic,    ///< the cheapest method meeting Options::target_forward_error; without a target, the
                ///< backend's full precision for the input type (never silently less)
  fp64,         ///< IEEE double throughout (host)
  fp32,         ///< fp32 inputs and accumulation (host SGEMM; sim: TensorEngine fp32 passes)
  tf32,         ///< inputs rounded to tf32 (10 explicit mantissa bits), fp32 accumulation
  bf16,         ///< inputs rounded to bf16, fp32 accumulation
  fp16,         ///< inputs rounded to fp16 (power-of-two scaled into range), fp32 accumulation
  fp8_e4m3,     ///< inputs rounded to OCP fp8 e4m3 (scaled), fp32 accumulation
  fp8_e5m2,     ///< inputs rounded to OCP fp8 e5m2 (scaled), fp32 accumulation
  sr,           ///< bf16 inputs, and the stored result rounded to bf16 stochastically (seeded)
  compensated,  ///< fp32-level accuracy from low-precision passes over error-free splits
  ozaki,        ///< fp64-level accuracy from low-precision passes over exact fixed-point slices
};

/// The mode's name, as accepted by parse_math_mode. Never throws.
std::string_view to_string(MathMode mode) noexcept;
/// Parses to_string's names. @throws trncore::ParseError naming the text and the accepted names.
MathMode parse_math_mode(std::string_view text);

/// The input format a mode rounds its operands to, where it names one (fp32, tf32, bf16, fp16, fp8_e4m3,
/// fp8_e5m2, and bf16 for sr); std::nullopt for automatic, fp64, compensated and ozaki.
std::optional<FormatSpec> input_format(MathMode mode) noexcept;

}  // namespace trncore
