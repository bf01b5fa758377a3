#pragma once
/// @file
/// Sobol low-discrepancy sequences with Joe & Kuo's direction numbers (set D(6), up to 21201
/// dimensions), in Gray-code order, with optional randomisation that keeps the (t,m,s)-net property.
///
/// Construction: dimension 1 is van der Corput; dimension d ≥ 2 uses the (d−1)-th primitive
/// polynomial and initial direction numbers of `new-joe-kuo-6.21201` (S. Joe, F. Y. Kuo, SIAM J. Sci.
/// Comput. 30 (2008) 2635–2654), compiled into the library. Point n (n = 0, 1, …) has 32-bit digits
/// x_n = ⊕ { v_j : bit j of gray(n) = n ⊕ (n >> 1) is set }, so point 0 is the origin; this is the
/// sequence Joe & Kuo's own sobol.cc prints. Every block of 2^m consecutive points starting at a
/// multiple of 2^m is a (t,m,s)-net in base 2.

#include <trnrand/detail/sequence_options.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace trnrand {

/// The largest dimension the Joe–Kuo direction numbers define.
inline constexpr std::int64_t kSobolMaxDims = 21201;

/// How many points a Sobol sequence has: the digits are 32 bits, so indices run over [0, 2^32).
inline constexpr std::int64_t kSobolMaxPoints = std::int64_t{1} << 32;

/// How a Sobol sequence is randomised. Every randomisation is a deterministic function of
/// (seed, dimension, digit …) drawn from Philox4x32-10, so it is reproducible and independent of how
/// points are split over threads.
enum class SobolScramble : std::uint8_t {
  /// The plain sequence; coordinates are exactly k / 2^32.
  none,
  /// Random linear matrix scramble plus random digital shift (Matoušek 1998; Owen 2003):
  /// y = L_d x ⊕ e_d per dimension d, L_d a uniformly random lower-triangular 32×32 binary matrix with
  /// unit diagonal, e_d a uniformly random 32-bit shift. As fast as the plain sequence.
  linear_matrix_digital_shift,
  /// Owen's nested uniform scrambling (Owen 1995) on all 32 digits: digit k is flipped by an independent
  /// random bit chosen by (dimension, k, digits 1 … k−1). Each point is uniform on [0,1)^s and the
  /// variance guarantees of scrambled nets hold. Costs about 25 Philox calls per coordinate.
  owen,
};

/// "none", "linear_matrix_digital_shift" or "owen"; "invalid" for a value outside the enum. Never throws.
std::string_view to_string(SobolScramble scramble) noexcept;

/// Parses the names to_string produces (also "lms" for linear_matrix_digital_shift).
/// @throws trncore::ParseError naming the text and the accepted names.
SobolScramble parse_sobol_scramble(std::string_view text);

/// Options of a Sobol sequence: trncore::Options (seed selects the randomisation and is ignored for
/// none; stream and threads are not used — the Gray-code walk is sequential, split a sequence over
/// workers with skip; backend must be Backend::host) plus `scramble` (none: the published sequence) and
/// `skip` (the index of the first point produced, in [0, 2^32]). Set them by assignment:
/// `SobolOptions o; o.scramble = SobolScramble::owen; o.seed = 7;`.
using SobolOptions = detail::SequenceOptions<SobolScramble>;

/// A Sobol sequence generator: holds the direction numbers of its dimensions (scrambled ones for
/// linear_matrix_digital_shift) and the current point.
///
/// Thread-safety: distinct objects may be used concurrently; one object must not be used from two
/// threads at once. To split a sequence over workers, give each its own object with the same dims,
/// scramble and seed and a different skip: worker r then produces exactly its slice of the sequence.
class Sobol {
 public:
  /// Builds the sequence in `dims` dimensions (dimension 1 … dims of the Joe–Kuo set) and positions it
  /// at point options.skip. O(dims · 32) time and memory.
  /// @throws trncore::InvalidArgument for options trncore::validate refuses, dims < 1 or dims > 21201,
  ///         options.skip outside [0, 2^32], or an options.scramble that is not a SobolScramble value;
  ///         trncore::NotSupported for options.backend = Backend::sim (no engine kernel).
  explicit Sobol(std::int64_t dims, SobolOptions options = {});

  /// Number of coordinates per point.
  std::int64_t dims() const noexcept { return dims_; }
  /// Index of the point the next call to next()/fill() returns.
  std::int64_t index() const noexcept { return index_; }
  /// The options the sequence was built with (skip as given at construction).
  const SobolOptions& options() const noexcept { return options_; }

  /// Writes the current point as 32-bit digit vectors (coordinate = digits / 2^32) and advances by one.
  /// @throws trncore::DimensionMismatch if point.size() != dims();
  ///         trncore::ResourceExhausted if all 2^32 points have been produced.
  void next(std::span<std::uint32_t> point);
  /// Writes the current point, coordinate = digits · 2^-32 exactly (in [0, 1)), and advances by one.
  /// @throws as next(std::span<std::uint32_t>).
  void next(std::span<double> point);
  /// Writes the current point truncated to 24 bits, coordinate = (digits >> 8) · 2^-24 exactly, so it is
  /// in [0, 1) (rounding to nearest could give 1.0f), and advances by one.
  /// @throws as next(std::span<std::uint32_t>).
  void next(std::span<float> point);

  /// Writes the next n points row-major: coordinate j of the i-th point goes to out[i·ld + j], as in next().
  /// @throws trncore::InvalidArgument if n < 0, out is null with n > 0, or n·ld overflows int64;
  ///         trncore::DimensionMismatch if ld < dims();
  ///         trncore::ResourceExhausted if fewer than n points remain (nothing is written then).
  void fill(std::int64_t n, double* out, std::int64_t ld);
  /// As fill(n, out, ld) in single precision (24-bit truncation as in next(std::span<float>)).
  void fill(std::int64_t n, float* out, std::int64_t ld);
  /// Writes the next out.size() / dims() points row-major and contiguous (ld = dims()).
  /// @throws trncore::DimensionMismatch if out.size() is not a multiple of dims(); else as fill(n, out, ld).
  void fill(std::span<double> out);

  /// Advances by n points without producing them: O(dims · 32), independent of n.
  /// @throws trncore::InvalidArgument if n < 0 or index() + n > 2^32.
  void skip(std::int64_t n);
  /// Positions the sequence at point `index` (fast-forward or rewind): O(dims · 32).
  /// @throws trncore::InvalidArgument if index is outside [0, 2^32].
  void seek(std::int64_t index);

 private:
  void advance_one();
  void check_point(std::size_t size, const char* function) const;
  const std::uint32_t* current_digits();
  void write_current(double* out);
  void write_current(float* out);
  template <class T>
  void fill_rows(std::int64_t n, T* out, std::int64_t ld);

  std::int64_t dims_;
  SobolOptions options_;
  std::int64_t index_ = 0;
  std::vector<std::uint32_t> directions_;  // [bit j][dimension d], scrambled for linear_matrix_digital_shift
  std::vector<std::uint32_t> shift_;       // digital shift per dimension (zero unless scrambled linearly)
  std::vector<std::uint32_t> state_;       // digits of point index_, before Owen scrambling
  std::vector<std::uint32_t> owen_top_;    // per dimension, cached flip bits of the first Owen levels
  std::vector<std::uint32_t> scratch_;     // one point's digits after scrambling
};

/// The copyright notice, conditions and disclaimer of Joe & Kuo's direction numbers, which the
/// library's compiled tables are built from (also installed as share/trnrand/LICENSE.new-joe-kuo-6.21201).
/// Never throws; thread-safe.
std::string_view sobol_direction_numbers_notice() noexcept;

}  // namespace trnrand
