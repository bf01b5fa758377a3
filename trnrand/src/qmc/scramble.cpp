#include "qmc/scramble.hpp"

#include "qmc/random_words.hpp"

namespace trnrand::detail {

std::uint32_t linear_scramble(std::uint64_t seed, std::uint32_t dim, std::span<std::uint32_t, 32> v) noexcept {
  // Column l (input digit l = 1 … 32, bit 32 − l) of L: the unit diagonal bit plus random bits in every
  // less significant position (the rows below the diagonal). One Philox block serves four columns.
  std::uint32_t column[32];
  for (std::uint32_t group = 0; group < 8; ++group) {
    const auto w = random_words(seed, Purpose::sobol_matrix, group, dim, 0);
    for (int i = 0; i < 4; ++i) {
      const int l = static_cast<int>(group) * 4 + i + 1;
      const std::uint32_t diagonal = std::uint32_t{1} << (32 - l);
      column[l - 1] = diagonal | (w[i] & (diagonal - 1));
    }
  }
  for (int j = 0; j < 32; ++j) {
    std::uint32_t y = 0;
    for (int l = 1; l <= 32; ++l)
      if ((v[j] >> (32 - l)) & 1u) y ^= column[l - 1];
    v[j] = y;
  }
  return random_words(seed, Purpose::sobol_shift, 0, dim, 0)[0];
}

// Node (k, p) of the scrambling tree, p = the k − 1 leading digits, owns bit (p mod 128) of the Philox
// block with counter {p / 128, dim, k, owen}: 128 sibling nodes share one call and no two nodes share a bit.
void owen_cache(std::uint64_t seed, std::uint32_t dim, std::span<std::uint32_t, kOwenCacheWords> cache) noexcept {
  for (std::uint32_t k = 1; k <= 8; ++k) {
    const auto w = random_words(seed, Purpose::sobol_owen, 0, dim, k);
    for (std::uint32_t i = 0; i < 4; ++i) cache[(k - 1) * 4 + i] = w[i];
  }
}

std::uint32_t owen_scramble(std::uint32_t x, std::uint64_t seed, std::uint32_t dim,
                            std::span<const std::uint32_t, kOwenCacheWords> cache) noexcept {
  std::uint32_t flips = 0;
  for (std::uint32_t k = 1; k <= 32; ++k) {
    const std::uint32_t prefix = k == 1 ? 0 : x >> (33 - k);  // digits 1 … k−1 (shift by 32 is undefined)
    const std::uint32_t lane = prefix & 127u;
    std::uint32_t word;
    if (k <= 8) {
      word = cache[(k - 1) * 4 + (lane >> 5)];
    } else {
      word = random_words(seed, Purpose::sobol_owen, prefix >> 7, dim, k)[lane >> 5];
    }
    flips |= ((word >> (lane & 31u)) & 1u) << (32 - k);
  }
  return x ^ flips;
}

}  // namespace trnrand::detail
