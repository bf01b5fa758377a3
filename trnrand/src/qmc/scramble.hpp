#pragma once
// The two base-2 digit scrambles of Sobol points, as pure functions of (seed, dimension index, digits).
// Digit k (k = 1 … 32, most significant first) of a 32-bit point is bit 32 − k.

#include <cstdint>
#include <span>

namespace trnrand::detail {

/// Applies a random linear matrix scramble (Matoušek 1998) to direction numbers v[0..31] of dimension
/// index `dim` (0-based) in place, and returns the dimension's random digital shift.
///
/// The matrix L is lower-triangular with unit diagonal and uniformly random entries below it, so output
/// digit k depends on input digits 1 … k only and digit k itself always enters: L maps every elementary
/// interval of width 2^-k onto one of the same width, which is why nets stay nets. Because the scramble
/// is linear over GF(2), scrambling the direction numbers scrambles every point of the Gray-code walk.
std::uint32_t linear_scramble(std::uint64_t seed, std::uint32_t dim, std::span<std::uint32_t, 32> v) noexcept;

/// Number of 32-bit words owen_cache() fills for one dimension.
inline constexpr int kOwenCacheWords = 32;

/// The Owen flip bits of levels 1 … 8 of dimension index `dim`: level k has 2^(k−1) ≤ 128 tree nodes,
/// all served by one Philox block, so they are drawn once at construction rather than per point.
void owen_cache(std::uint64_t seed, std::uint32_t dim, std::span<std::uint32_t, kOwenCacheWords> cache) noexcept;

/// Owen's nested uniform scramble of the 32-bit digits x in dimension index `dim`: digit k is flipped
/// by the random bit of tree node (k, digits 1 … k−1 of x). Distinct nodes get independent bits, so
/// this is nested uniform scrambling of the first 32 digits (Owen 1995). `cache` is owen_cache(seed, dim).
std::uint32_t owen_scramble(std::uint32_t x, std::uint64_t seed, std::uint32_t dim,
                            std::span<const std::uint32_t, kOwenCacheWords> cache) noexcept;

}  // namespace trnrand::detail
