#pragma once
/// @file
/// The Threefry4x32 bijection (Salmon, Moraes, Dror, Shaw, SC'11), exactly as Random123 defines it.

#include <array>
#include <cstdint>

namespace trnrand {

/// Threefry4x32 counter: four 32-bit words.
using ThreefryCounter = std::array<std::uint32_t, 4>;
/// Threefry4x32 key: four 32-bit words (trnrand's streams use {lo(seed), hi(seed), 0, 0}).
using ThreefryKey = std::array<std::uint32_t, 4>;

namespace detail {

// Rotation constants for Threefry-4x32 and the key-schedule parity (SC'11 / Random123).
inline constexpr int kThreefryRotations[8][2] = {{10, 26}, {11, 21}, {13, 27}, {23, 5},
                                                 {6, 20},  {17, 11}, {25, 10}, {18, 20}};
inline constexpr std::uint32_t kThreefryParity = 0x1BD11BDAu;

constexpr std::uint32_t rotl(std::uint32_t x, int r) noexcept { return (x << r) | (x >> (32 - r)); }

}  // namespace detail

/// Threefry4x32 with R rounds (20 is the standard): a bijection of the 128-bit counter for each 128-bit
/// key. Pure, constexpr, thread-safe.
template <int Rounds = 20>
constexpr ThreefryCounter threefry4x32(ThreefryCounter x, const ThreefryKey& key) noexcept {
  static_assert(Rounds >= 0 && Rounds <= 72, "Threefry4x32 is defined for 0..72 rounds");
  std::uint32_t ks[5] = {key[0], key[1], key[2], key[3], detail::kThreefryParity ^ key[0] ^ key[1] ^ key[2] ^ key[3]};
  for (int i = 0; i < 4; ++i) x[i] += ks[i];
  for (int r = 0; r < Rounds; ++r) {
    const int* rot = detail::kThreefryRotations[r % 8];
    if (r % 2 == 0) {
      x[0] += x[1];
      x[1] = detail::rotl(x[1], rot[0]) ^ x[0];
      x[2] += x[3];
      x[3] = detail::rotl(x[3], rot[1]) ^ x[2];
    } else {
      x[0] += x[3];
      x[3] = detail::rotl(x[3], rot[0]) ^ x[0];
      x[2] += x[1];
      x[1] = detail::rotl(x[1], rot[1]) ^ x[2];
    }
    if (r % 4 == 3) {  // key injection after every fourth round
      const std::uint32_t s = static_cast<std::uint32_t>(r / 4 + 1);
      for (int i = 0; i < 4; ++i) x[i] += ks[(s + static_cast<std::uint32_t>(i)) % 5];
      x[3] += s;
    }
  }
  return x;
}

/// Threefry4x32-20.
constexpr ThreefryCounter threefry4x32_20(const ThreefryCounter& counter, const ThreefryKey& key) noexcept {
  return threefry4x32<20>(counter, key);
}

}  // namespace trnrand
