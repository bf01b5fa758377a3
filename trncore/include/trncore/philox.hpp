#pragma once
/// @file
/// The Philox4x32-10 bijection (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as
/// 1, 2, 3", SC'11) and the counter layout trncore uses to give every element of an operation its own
/// reproducible random bits. trnrand builds its generators on the same function.

#include <array>
#include <cstdint>

namespace trncore {

/// Philox counter (four 32-bit words) and key (two 32-bit words).
using PhiloxCounter = std::array<std::uint32_t, 4>;
/// Philox key: two 32-bit words (a 64-bit seed, low word first).
using PhiloxKey = std::array<std::uint32_t, 2>;

namespace detail {

// Multipliers and Weyl key increments published with Philox (SC'11, table 2; Random123).
inline constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u;
inline constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u;
inline constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85u;

constexpr PhiloxCounter philox_round(const PhiloxCounter& c, const PhiloxKey& k) noexcept {
  const std::uint64_t p0 = std::uint64_t{kPhiloxM0} * c[0];
  const std::uint64_t p1 = std::uint64_t{kPhiloxM1} * c[2];
  return {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<std::uint32_t>(p1),
          static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<std::uint32_t>(p0)};
}

}  // namespace detail

/// Philox4x32 with R rounds (R = 10 is the standard, crush-resistant choice): a bijection of the
/// 128-bit counter for each 64-bit key. Pure function; constexpr; thread-safe.
template <int Rounds = 10>
constexpr PhiloxCounter philox4x32(PhiloxCounter counter, PhiloxKey key) noexcept {
  static_assert(Rounds >= 0 && Rounds <= 16, "Philox is defined for 0..16 rounds");
  for (int r = 0; r < Rounds; ++r) {
    if (r > 0) key = {key[0] + detail::kPhiloxW0, key[1] + detail::kPhiloxW1};
    counter = detail::philox_round(counter, key);
  }
  return counter;
}

/// Philox4x32-10, the generator every reproducible stream in the suite uses.
constexpr PhiloxCounter philox4x32_10(const PhiloxCounter& counter, const PhiloxKey& key) noexcept {
  return philox4x32<10>(counter, key);
}

/// A keyed source of per-element random words, used for stochastic rounding: element i of an
/// operation run with (seed, stream) gets the word
///
///   philox4x32_10(counter = {lo(i/4), hi(i/4), lo(stream), hi(stream)}, key = {lo(seed), hi(seed)})[i % 4]
///
/// so one Philox call serves four consecutive elements, and the bits depend only on (seed, stream, i):
/// never on thread count, chunking or SIMD width. Different streams (e.g. successive operations) or
/// seeds give independent bits.
struct RandomBits {
  std::uint64_t seed = 0;    ///< the Philox key {lo(seed), hi(seed)}
  std::uint64_t stream = 0;  ///< the high half of the Philox counter {…, lo(stream), hi(stream)}

  /// The four words for elements 4·block … 4·block + 3.
  constexpr PhiloxCounter block(std::uint64_t block_index) const noexcept {
    return philox4x32_10({static_cast<std::uint32_t>(block_index), static_cast<std::uint32_t>(block_index >> 32),
                          static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32)},
                         {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
  }

  /// The random word of element i.
  constexpr std::uint32_t operator()(std::uint64_t i) const noexcept { return block(i >> 2)[i & 3]; }
};

}  // namespace trncore
