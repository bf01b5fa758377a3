#pragma once
/// @file
/// The kernels behind the normal fills (trnrand::normal, lognormal, multivariate_normal): Box–Muller in
/// double with SLEEF's deterministic ("cinz", no fused multiply-add) vectorised log (u10, ≤ 1 ulp) and
/// cospi (u05, ≤ 0.506 ulp), and the IEEE square root. Every variant returns the same bits (SLEEF documents
/// its cinz functions as returning identical results on every vector extension and in its scalar version;
/// trnrand_normal_kernel_test checks it here for every input a float fill can feed them), so a fill's values
/// do not depend on the CPU. Exposed for that test and for benchmarks; not part of trnrand's stable API.

#include <cstdint>
#include <span>
#include <string_view>

namespace trnrand::detail {

/// A variant of the normal kernel: SLEEF's cinz functions for one instruction set.
enum class NormalKernel : std::uint8_t {
  automatic,  ///< the widest this CPU runs (what the fills use)
  scalar,     ///< SLEEF's pure C scalar functions (purec); runs everywhere
  sse2,       ///< 2 doubles per vector (x86-64 baseline)
  avx,        ///< 4 doubles per vector (AVX, no FMA)
  avx512,     ///< 8 doubles per vector (AVX-512F, "avx512fnofma")
};

/// "automatic", "scalar", "sse2", "avx", "avx512", or "invalid" for a value outside the enum.
std::string_view to_string(NormalKernel kernel) noexcept;
/// Whether this CPU (and this build: the vector variants exist on x86-64 only) can run `kernel`;
/// automatic and scalar always.
bool normal_kernel_supported(NormalKernel kernel) noexcept;
/// The variant `automatic` stands for on this CPU: avx512, else avx, else sse2 (scalar off x86-64).
NormalKernel normal_kernel_detected() noexcept;

/// Standard normals by Box–Muller, each from its own words: z[i] = √(−2·ln u1)·cospi(2·u2) in double, with
/// u1 ∈ (0, 1] and u2 ∈ [0, 1) from words 2·b·i … 2·b·i + 2b − 1 (b = `words_per_uniform`: 1 is the
/// 24-bit grid ((w >> 8) + 1)·2^-24 / (w >> 8)·2^-24, 2 the 53-bit grid, stream.hpp's recipes).
/// |z[i] − exact Box–Muller of the same words| ≤ 4.02·2^-53·|exact| (docs/trnrand.md).
/// @param words at least 2·b·z.size() words
/// @throws trncore::NotSupported if this CPU cannot run `kernel`; trncore::InvalidArgument if `kernel` is not
///         a NormalKernel, b is not 1 or 2, or `words` is too short
void standard_normals(NormalKernel kernel, std::span<const std::uint32_t> words, int words_per_uniform,
                      std::span<double> z);
/// y[i] = ln x[i] by the kernel's SLEEF log (Sleef_cinz_logd*_u10*), for testing that the variants agree.
/// @throws as standard_normals; trncore::DimensionMismatch if the sizes differ
void normal_kernel_log(NormalKernel kernel, std::span<const double> x, std::span<double> y);
/// y[i] = cos(π·x[i]) by the kernel's SLEEF cospi (Sleef_cinz_cospid*_u05*), for the same test.
/// @throws as normal_kernel_log
void normal_kernel_cospi(NormalKernel kernel, std::span<const double> x, std::span<double> y);

}  // namespace trnrand::detail
