#pragma once
// The operand transformations of the sim math modes. Each turns op(A) (m×k, scaled per row) or op(B)
// (k×n, scaled per column) into TensorEngine inputs whose values are exact in the input format, and
// records what the error bounds need to know.

#include <trncore/format.hpp>

#include <cstdint>
#include <vector>

namespace trnblas::detail {

/// Which lines of a row-major matrix share a scale: rows (for op(A)) or columns (for op(B)).
enum class Lines : std::uint8_t { rows, cols };

/// A matrix as `parts.size()` slices of the same shape, each exact in the TensorEngine input format,
/// with one power-of-two exponent per line: line l of the original is ≈ 2^exponents[l] · Σ_s parts[s].
struct Sliced {
  std::vector<std::vector<float>> parts;
  std::vector<int> exponents;
  /// Nonzero values that fell below the format's normal range or below 2^-63 after scaling (where a
  /// product of two could be subnormal in fp32): the relative rounding bounds do not hold for them.
  std::int64_t underflows = 0;
  /// Inputs that are inf or NaN, or whose scaled value overflowed the format.
  std::int64_t nonfinite = 0;
};

/// One slice: x rounded to nearest-even in `format` after scaling each line by the power of two that
/// puts its largest magnitude just below 2^top (top = the format's emax for narrow-range formats, 0 for
/// bf16/tf32/fp32), so the format's range is used fully and the scaling itself is exact.
Sliced round_to_format(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines,
                       const trncore::FormatSpec& format);

/// `count` floating slices of `bits` significant bits each, after scaling each line by the power of two
/// that puts its largest magnitude below 1: with y the scaled x, y_0 = round(y) to `bits` bits, y_1 =
/// round(y − y_0), … (nearest-even, per element). |y − Σ y_s| ≤ 2^(−bits·count)·|y| when no slice
/// underflows fp32's normal range; every slice is exact in bf16 for bits ≤ 8.
Sliced split_floating(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines, int count,
                      int bits);

/// `count` fixed-point slices of `bits` bits per line: with 2^e the smallest power of two above the
/// line's largest magnitude, x = 2^e · (Σ_s d_s · 2^(−bits·(s+1)) + ρ), integer digits |d_s| < 2^bits
/// (truncated, so they share x's sign) and |ρ| < 2^(−bits·count). parts[s] holds d_s.
Sliced split_fixed(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines, int count,
                   int bits);

/// The exponent of each line: the smallest e with |x| < 2^e for every element of the line (a line of
/// zeros gets INT_MIN / 4, so it scales to zero digits). Non-finite values are ignored.
std::vector<int> line_exponents(const std::vector<double>& x, std::int64_t rows, std::int64_t cols, Lines lines);

}  // namespace trnblas::detail
