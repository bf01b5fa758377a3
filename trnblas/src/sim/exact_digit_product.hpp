#pragma once
// The exact value of an Ozaki-scheme product: Z = Σ_{s+t ≤ S−1} (D^A_s · D^B_t) · 2^(w·(S−1−s−t)) for
// integer digit matrices D^A_s (m×k) and D^B_t (k×n) with |digits| < 2^w. On the TensorEngine every
// slice product and every PSUM partial sum of these is exact (the slice width and K-blocking are chosen
// so), hence the result does not depend on the order of operations, and any exact method computes the
// same bits (DESIGN.md §4.3). This one groups digits into wider integers and multiplies them with
// OpenBLAS DGEMM, whose sums stay exact while every partial sum is below 2^53, using the fewest DGEMMs
// an optimal guillotine cover of the pair triangle allows; DGEMMs of equal weight are chained (β = 1) into one
// fp64 accumulator while their combined worst case stays below 2^53, so Z is updated once per chain.

#include "sim/buffer.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace trnblas::detail {

__extension__ typedef __int128 Int128;  // GCC's 128-bit integer; __extension__ keeps -Wpedantic quiet

/// Z as m×n row-major 128-bit integers. `a_digits[s]` is m×k row-major, `b_digits[t]` is k×n row-major,
/// digit values are integers with |d| < 2^bits, S = a_digits.size() = b_digits.size().
/// `threads` splits the element-wise work (the DGEMMs use OpenBLAS's own threads).
/// Preconditions (checked by the caller): bits·(S+1) + log2(k) + 2·log2(S) < 126, and 2·bits + log2(k) < 52.
Buffer<Int128> exact_digit_product(std::int64_t m, std::int64_t n, std::int64_t k,
                                   const std::vector<Buffer<float>>& a_digits,
                                   const std::vector<Buffer<float>>& b_digits, int bits, int threads);

/// The same Z with the digits taken from the line-scaled operands themselves: `a_scaled` (m×k) and `b_scaled`
/// (k×n) row-major, every entry |y| < 1, and D_s the s-th digit of y's truncated base-2^bits expansion
/// y = Σ_{s<count} d_s·2^(−bits·(s+1)) + ρ — exactly the digits split_fixed stores for y = 2^-e·x, without
/// materialising count digit matrices (each DGEMM's digit group is read off y directly).
/// Same preconditions as above with S = count.
Buffer<Int128> exact_digit_product(std::int64_t m, std::int64_t n, std::int64_t k, std::span<const double> a_scaled,
                                   std::span<const double> b_scaled, int count, int bits, int threads);

/// The number of DGEMMs exact_digit_product issues for these sizes (for reports and benchmarks).
std::int64_t exact_digit_product_gemms(std::int64_t k, int count, int bits);

}  // namespace trnblas::detail
