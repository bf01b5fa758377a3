#pragma once
// Counter-based random words for the QMC randomisations. Every word is Philox4x32-10 of a counter that
// names what the word is for (purpose, dimension, digit, ...) under the key = user seed, so each scramble
// is a pure function of (seed, dimension, digit, ...): reproducible, independent of call order and
// thread count, and unrelated across purposes (distinct counters give independent words).

#include <trncore/philox.hpp>

#include <array>
#include <cstdint>

namespace trnrand::detail {

// The last counter word; one value per use so that, e.g., a Sobol matrix and a Halton permutation drawn
// with the same seed never share a counter. The values are arbitrary but frozen: changing one changes
// every scrambled sequence.
enum class Purpose : std::uint32_t {
  sobol_matrix = 0x51A0'0001u,  // lower-triangular matrix columns (linear matrix scramble)
  sobol_shift = 0x51A0'0002u,   // digital shift
  sobol_owen = 0x51A0'0003u,    // Owen flip bits
  halton_permutation = 0x51A0'0004u,
  lhs_permutation = 0x51A0'0005u,
  lhs_jitter = 0x51A0'0006u,
};

/// Four random words for counter {a, b, c, purpose} under key seed.
inline std::array<std::uint32_t, 4> random_words(std::uint64_t seed, Purpose purpose, std::uint32_t a, std::uint32_t b,
                                                 std::uint32_t c) noexcept {
  return trncore::philox4x32_10({a, b, c, static_cast<std::uint32_t>(purpose)},
                                {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

/// A sequential supply of 64-bit words for algorithms that consume a variable number of them (rejection
/// sampling inside Fisher–Yates): word t of stream (purpose, a, b) comes from counter {t/2, a, b, purpose}.
/// It still depends only on (seed, purpose, a, b, t), so a shuffle is reproducible.
class WordStream {
 public:
  WordStream(std::uint64_t seed, Purpose purpose, std::uint32_t a, std::uint32_t b) noexcept
      : seed_(seed), purpose_(purpose), a_(a), b_(b) {}

  std::uint64_t next() noexcept {
    if (used_ == 2) {
      words_ = random_words(seed_, purpose_, block_++, a_, b_);
      used_ = 0;
    }
    const std::uint64_t w = (std::uint64_t{words_[2 * used_ + 1]} << 32) | words_[2 * used_];
    ++used_;
    return w;
  }

  /// Uniform integer in [0, bound), bound ≥ 1, without modulo bias: words below 2^64 mod bound are
  /// rejected, leaving a range whose size is a multiple of bound.
  std::uint64_t below(std::uint64_t bound) noexcept {
    const std::uint64_t threshold = (0 - bound) % bound;  // = 2^64 mod bound
    for (;;) {
      const std::uint64_t w = next();
      if (w >= threshold) return w % bound;
    }
  }

 private:
  std::uint64_t seed_;
  Purpose purpose_;
  std::uint32_t a_;
  std::uint32_t b_;
  std::uint32_t block_ = 0;
  int used_ = 2;
  std::array<std::uint32_t, 4> words_{};
};

}  // namespace trnrand::detail
