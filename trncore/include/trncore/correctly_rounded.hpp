#pragma once
/// @file
/// Correctly rounded binary32 elementary functions: exp, log, sin and cos of a float, returned as the
/// float nearest to the exact mathematical value (ties to even). The NeuronCore model's ScalarEngine
/// evaluates these activations with them (trncore/sim/neuron_core.hpp), so an engine kernel's
/// transcendental steps are specified bit for bit — the same bits on every machine — and host code can
/// reproduce a kernel exactly by calling the same functions (e.g. trnrand::normal_engine_order).
///
/// Method (Ziv's strategy with two evaluations). f(x) is evaluated in double, y₁, whose error glibc
/// documents as a few ulps ("Known Maximum Errors in Math Functions", glibc manual §19.7); the model
/// assumes |y₁ − f(x)| ≤ 2^-50·|y₁| (≥ 4 ulps of double). If no midpoint between two adjacent floats (nor
/// the overflow threshold 2^128 − 2^103) lies within that distance of y₁, every value in the interval —
/// the exact f(x) included — rounds to the same float, which is returned. Otherwise f(x) is evaluated in
/// long double (x87 extended on x86-64: 64-bit significand; independent glibc code), assumed within
/// 2^-60·|y₂| (≥ 8 ulps), and decided the same way. A double evaluation is undecided with probability
/// ≈ 2^-25 per input, an extended one ≈ 2^-35, so the cost is that of the double function.
///
/// Verification (trncore/tests/correctly_rounded_test.cpp): MPFR as the oracle on random and special
/// inputs and on inputs whose double evaluation is undecided (the extended path), and an exhaustive run
/// over all 2^32 inputs of each function (a disabled-by-default test; docs/numerics.md records its result).
/// Special inputs and results need no decision: NaN gives NaN, exp(±inf) = +inf/+0, log(+inf) = +inf,
/// log(±0) = −inf, log(x < 0) = NaN, sin/cos(±inf) = NaN, sin(±0) = ±0, log(1) = +0; exp overflows to
/// +inf above the threshold and underflows through the subnormals to +0, as rounding the exact value does.

#include <cstdint>

namespace trncore {

/// The functions with a correctly rounded binary32 version.
enum class CrFunction : std::uint8_t { exp, log, sin, cos };

/// Which evaluation decided a correctly rounded result.
enum class CrPath : std::uint8_t {
  special,     ///< NaN/±inf/zero input or result: exact, no rounding decision needed
  binary64,    ///< the double evaluation decided it
  extended,    ///< the double evaluation was within its error bound of a midpoint; long double decided it
  unresolved,  ///< neither decided: the long double value rounded to nearest (never happens for any
               ///< binary32 input on the platform the exhaustive check ran on; see docs/numerics.md)
};

/// A correctly rounded result and the path that produced it.
struct CrResult {
  float value;  ///< f(x) rounded to the nearest float, ties to even
  CrPath path;  ///< the evaluation that decided it
};

/// f(x) rounded to the nearest float (ties to even), with the path that decided it. Thread-safe, no
/// state, never throws; an out-of-range CrFunction value gives NaN with CrPath::special.
CrResult correctly_rounded(CrFunction f, float x) noexcept;

/// e^x correctly rounded to binary32 (round to nearest, ties to even).
inline float cr_exp(float x) noexcept { return correctly_rounded(CrFunction::exp, x).value; }
/// ln x correctly rounded to binary32 (NaN for x < 0, −inf for ±0).
inline float cr_log(float x) noexcept { return correctly_rounded(CrFunction::log, x).value; }
/// sin x (x in radians, any finite float) correctly rounded to binary32.
inline float cr_sin(float x) noexcept { return correctly_rounded(CrFunction::sin, x).value; }
/// cos x (x in radians, any finite float) correctly rounded to binary32.
inline float cr_cos(float x) noexcept { return correctly_rounded(CrFunction::cos, x).value; }

}  // namespace trncore
