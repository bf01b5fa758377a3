#pragma once
// The suite's one vocabulary of argument checks. Every package checks its arguments with these, so a
// negative size, a null pointer or a short leading dimension reads the same from every library:
// "<function>: <what is wrong, with the values>: <what to do>". The function name always comes first.
// Public so the sibling packages share it; not part of the API users program against.

#include <trncore/error.hpp>
#include <trncore/view.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

namespace trncore::detail {

/// A named integer argument, for messages: {"m", m}.
struct Named {
  std::string_view name;
  std::int64_t value;
};

/// @throws InvalidArgument listing every argument when any is negative ("negative size m = -1, n = 3").
void check_nonnegative(std::string_view function, std::initializer_list<Named> sizes);

/// @throws InvalidArgument when `p` is null while `need` > 0 elements are to be read or written.
void check_pointer(std::string_view function, std::string_view name, const void* p, std::int64_t need);

/// @throws DimensionMismatch when a span of `have` elements is shorter than the `need` the call requires.
void check_span(std::string_view function, std::string_view name, std::size_t have, std::int64_t need);

/// @throws DimensionMismatch when a ≠ b, naming both ("x has 5 elements but y has 4").
void check_equal(std::string_view function, Named a, Named b);

/// @throws DimensionMismatch when a rows×cols operand `name` is not square.
void check_square(std::string_view function, std::string_view name, std::int64_t rows, std::int64_t cols);

/// A rows×cols operand `name` stored in `layout` at p with leading dimension ld, elements of elem_size bytes.
/// @throws InvalidArgument for negative sizes, a storage extent whose bytes overflow int64, or a null p
///         with rows, cols > 0; DimensionMismatch when ld < max(1, row length (row-major) or column length).
void check_matrix(std::string_view function, std::string_view name, Layout layout, std::int64_t rows, std::int64_t cols,
                  const void* p, std::int64_t ld, std::size_t elem_size = 1);

/// A vector `name` of n elements at p with increment inc (negative walks backwards, as in BLAS).
/// @throws InvalidArgument for n < 0, inc = 0, an extent (n−1)·|inc| whose bytes overflow int64, or a null p
///         with n > 0.
void check_vector(std::string_view function, std::string_view name, std::int64_t n, const void* p, std::int64_t inc,
                  std::size_t elem_size = 1);

/// The product of nonnegative factors. @throws InvalidArgument when it overflows int64, naming the factors.
std::int64_t checked_product(std::string_view function, std::initializer_list<Named> factors);

/// @throws InvalidArgument when threads < 0 (0 means the process default).
void check_threads(std::string_view function, int threads);

/// @throws InvalidArgument when `value` does not fit the index type I (e.g. an nnz beyond int32 for int32
///         indices), naming the value and the limit.
template <class I>
void check_fits_index(std::string_view function, std::string_view name, std::int64_t value) {
  constexpr auto lo = static_cast<std::int64_t>(std::numeric_limits<I>::min());
  constexpr auto hi = static_cast<std::uint64_t>(std::numeric_limits<I>::max());
  if (value < lo || (value > 0 && static_cast<std::uint64_t>(value) > hi))
    throw InvalidArgument(function,
                          std::string(name) + " = " + std::to_string(value) + " does not fit the " +
                              std::to_string(8 * sizeof(I)) + "-bit index type (limit " + std::to_string(hi) + ")",
                          "use 64-bit indices or split the problem");
}

}  // namespace trncore::detail
