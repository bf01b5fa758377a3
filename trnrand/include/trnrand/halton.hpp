#pragma once
/// @file
/// Halton sequences: coordinate d of point i is the radical inverse of i in the d-th prime base
/// (2, 3, 5, 7, …), optionally randomised by independent random digit permutations.

#include <trnrand/detail/sequence_options.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace trnrand {

/// The largest number of dimensions a Halton sequence accepts (bases up to the 21201st prime, 239087);
/// the same bound as Sobol, so a study can switch sequences. Unscrambled Halton points in more than a
/// few dozen dimensions are strongly correlated; scramble them.
inline constexpr std::int64_t kHaltonMaxDims = 21201;

/// How a Halton sequence is randomised.
enum class HaltonScramble : std::uint8_t {
  /// The plain radical inverses; point 0 is the origin.
  none,
  /// Digit k (k = 1, 2, …) of the base-b expansion of i, in dimension d, is replaced by π_{d,k}(digit),
  /// with every π_{d,k} an independent uniformly random permutation of {0, …, b−1} — including the
  /// infinitely many leading zero digits of i, so points do not end in a run of zeros (random digit
  /// permutation, e.g. Matoušek 1998; Owen 2017, "A randomized Halton algorithm in R"). The expansion is
  /// evaluated to the digit where it stops changing a double.
  random_permutation,
};

/// Options of a Halton sequence (see detail::SequenceOptions; skip ≥ 0, seed selects the permutations).
using HaltonOptions = detail::SequenceOptions<HaltonScramble>;

/// "none" or "random_permutation"; "invalid" for a value outside the enum. Never throws.
std::string_view to_string(HaltonScramble scramble) noexcept;

/// Parses the names to_string produces.
/// @throws trncore::ParseError naming the text and the accepted names.
HaltonScramble parse_halton_scramble(std::string_view text);

/// A Halton sequence generator. Point i uses index i (i = 0, 1, …; skip = 1 drops the origin).
///
/// Reproducibility: π_{d,k} is drawn from Philox4x32-10 keyed by (seed, d, k) only, so a point depends
/// on (seed, dims' bases, i) and not on the order or thread in which points are produced.
/// Thread-safety: distinct objects may be used concurrently; one object must not be used from two
/// threads at once (permutations are generated lazily, as the index needs more digits).
class Halton {
 public:
  /// Builds the sequence in `dims` dimensions positioned at options.skip. @throws trncore::NotSupported on
  /// Backend::sim (no engine kernel); trncore::InvalidArgument for invalid options (trncore::validate), dims
  /// outside [1, 21201], a negative skip, or a scramble that is not a HaltonScramble value.
  explicit Halton(std::int64_t dims, HaltonOptions options = {});

  /// Number of coordinates per point.
  std::int64_t dims() const noexcept { return static_cast<std::int64_t>(bases_.size()); }
  /// Index of the point the next call to next()/fill() returns.
  std::int64_t index() const noexcept { return index_; }
  /// The options the sequence was built with.
  const HaltonOptions& options() const noexcept { return options_; }
  /// The prime base of dimension d (0-based).
  /// @throws trncore::InvalidArgument if d is outside [0, dims()).
  std::int64_t base(std::int64_t d) const;

  /// Writes the current point (coordinates in [0, 1)) and advances by one. Each coordinate is the
  /// base-b expansion evaluated in double by Horner's rule from its last digit: two roundings per digit,
  /// so the relative error is below 2K·2^-53 for K digits (K ≤ 63), and base-2 values with at most 53
  /// significant bits are exact.
  /// @throws trncore::DimensionMismatch if point.size() != dims();
  ///         trncore::ResourceExhausted if index() = 2^63 − 1 (the last representable index).
  void next(std::span<double> point);
  /// Writes the next n points row-major: coordinate j of the i-th point goes to out[i·ld + j].
  /// @throws trncore::InvalidArgument if n < 0, out is null with n > 0, or n·ld overflows;
  ///         trncore::DimensionMismatch if ld < dims(); trncore::ResourceExhausted if the index would overflow.
  void fill(std::int64_t n, double* out, std::int64_t ld);
  /// Writes the next out.size() / dims() points row-major and contiguous.
  /// @throws trncore::DimensionMismatch if out.size() is not a multiple of dims(); else as fill(n, out, ld).
  void fill(std::span<double> out);

  /// Advances by n ≥ 0 points in O(1). @throws trncore::InvalidArgument if n < 0 or the index overflows.
  void skip(std::int64_t n);
  /// Positions the sequence at point `index` ≥ 0 in O(1). @throws trncore::InvalidArgument if index < 0.
  void seek(std::int64_t index);

 private:
  void write_current(double* out);
  const std::uint32_t* permutation(std::size_t d, int k);

  HaltonOptions options_;
  std::int64_t index_ = 0;
  std::vector<std::uint32_t> bases_;
  // Per dimension, scrambled only: the permutations π_1, π_2, … generated so far (b entries each), and
  // tail_[d][K] = Σ_{j≥1} π_{K+j}(0) b^-j, the value the digits after position K contribute (scaled by b^K).
  std::vector<std::vector<std::uint32_t>> permutations_;
  std::vector<std::vector<double>> tail_;
};

/// Fills out (row-major, n × dims, contiguous) with points skip … skip + n − 1 of the Halton sequence.
/// @throws trncore::InvalidArgument for n < 0, n · dims overflowing int64, or any argument Halton(dims,
///         options) rejects; trncore::NotSupported as Halton(dims, options);
///         trncore::DimensionMismatch if out.size() != n · dims.
void halton(std::int64_t n, std::int64_t dims, std::span<double> out, HaltonOptions options = {});

}  // namespace trnrand
