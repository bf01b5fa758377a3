#pragma once
// The operand transformations of the sim math modes. Each turns op(A) (m×k, scaled per row) or op(B)
// (k×n, scaled per column) into TensorEngine inputs whose values are exact in the input format, and
// records what the error bounds need to know.

#include "sim/buffer.hpp"

#include <trncore/format.hpp>

#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace trnblas::detail {

/// The exponent line_exponents gives a line of zeros: far below any real exponent, yet two of them plus
/// offsets cannot overflow int.
inline constexpr int kZeroLineExponent = INT_MIN / 4;

/// x · 2^e correctly rounded, i.e. std::ldexp(x, e), as one multiplication by an exactly built power of two
/// whenever 2^e is a normal double (both round the exact x·2^e once, so the bits agree).
inline double scale_pow2(double x, int e) {
  if (e < -1022 || e > 1023) return std::ldexp(x, e);
  return x * std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
}

/// Which lines of a row-major matrix share a scale: rows (for op(A)) or columns (for op(B)).
enum class Lines : std::uint8_t { rows, cols };

/// A matrix as `parts.size()` slices of the same shape, each exact in the TensorEngine input format,
/// with one power-of-two exponent per line: line l of the original is ≈ 2^exponents[l] · Σ_s parts[s].
struct Sliced {
  std::vector<Buffer<float>> parts;
  std::vector<int> exponents;
  /// Nonzero values that fell below the format's normal range or below 2^-63 after scaling (where a
  /// product of two could be subnormal in fp32): the relative rounding bounds do not hold for them.
  std::int64_t underflows = 0;
  /// split_floating only: per line (row of op(A), column of op(B)), how many entries had a nonzero remainder
  /// below 2^-63 (each such entry counted once); the compensated product's absolute term counts the terms
  /// they touch.
  std::vector<std::int64_t> line_underflows;
  /// Inputs that are inf or NaN, or whose scaled value overflowed the format.
  std::int64_t nonfinite = 0;
};

// Every function below takes the row-major operand as float or double (E), the type the caller's data has:
// both are exact in double, and float operands stay half the size through the fp32 paths. `threads` (0 = the
// hardware's) splits the work into row blocks; the result is the same for any count.

/// One slice: x rounded to nearest-even in `format` after scaling each line by the power of two that
/// puts its largest magnitude just below 2^top (top = the format's emax for narrow-range formats, 0 for
/// bf16/tf32/fp32), so the format's range is used fully and the scaling itself is exact.
template <class E>
Sliced round_to_format(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines,
                       const trncore::FormatSpec& format, int threads);

/// `count` floating slices of `bits` significant bits each, after scaling each line by the power of two
/// that puts its largest magnitude below 1: with y the scaled x, y_0 = round(y) to `bits` bits, y_1 =
/// round(y − y_0), … (nearest-even, per element). |y − Σ y_s| ≤ 2^(−bits·count)·|y| when no slice
/// underflows fp32's normal range; every slice is exact in bf16 for bits ≤ 8.
template <class E>
Sliced split_floating(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines, int count, int bits,
                      int threads);

/// `count` fixed-point slices of `bits` bits per line: with 2^e the smallest power of two above the
/// line's largest magnitude, x = 2^e · (Σ_s d_s · 2^(−bits·(s+1)) + ρ), integer digits |d_s| < 2^bits
/// (truncated, so they share x's sign) and |ρ| < 2^(−bits·count). parts[s] holds d_s.
template <class E>
Sliced split_fixed(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines, int count, int bits,
                   int threads);

/// The line-scaled operand split_fixed slices: y = x·2^-e per line (|y| < 1; the scaling is exact unless y is
/// subnormal, where it rounds as in split_fixed), with inf/NaN entries and zero lines as 0 (their digits are 0).
/// `exponents` is line_exponents' result for x; `nonfinite` counts the inf/NaN inputs.
struct ScaledLines {
  Buffer<double> values;
  std::int64_t nonfinite = 0;
};
template <class E>
ScaledLines scale_lines(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines,
                        const std::vector<int>& exponents, int threads);

/// The exponent of each line: the smallest e with |x| < 2^e for every element of the line (a line of
/// zeros gets kZeroLineExponent, so it scales to zero digits). Non-finite values are ignored.
template <class E>
std::vector<int> line_exponents(std::span<const E> x, std::int64_t rows, std::int64_t cols, Lines lines, int threads);

}  // namespace trnblas::detail
