#pragma once
// SuiteSparse wants right-hand sides column-major; trnsparse's API is row-major. These copy between the two.

#include <trncore/detail/checks.hpp>

#include <trncore/detail/format_number.hpp>
#include <trnsparse/direct.hpp>

#include <trncore/error.hpp>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace trnsparse::detail {

/// Checks that b and x hold rows×nrhs entries each (x: xrows×nrhs), for `fn`.
inline void require_rhs(std::size_t b_size, std::size_t x_size, std::int64_t b_rows, std::int64_t x_rows,
                        std::int64_t nrhs, const char* fn) {
  if (nrhs < 0) throw trncore::InvalidArgument(fn, "nrhs = " + std::to_string(nrhs) + " is negative", "pass nrhs >= 0");
  if (static_cast<std::int64_t>(b_size) != trncore::detail::checked_product(fn, {{"b_rows", b_rows}, {"nrhs", nrhs}}) ||
      static_cast<std::int64_t>(x_size) != trncore::detail::checked_product(fn, {{"x_rows", x_rows}, {"nrhs", nrhs}}))
    throw trncore::DimensionMismatch(fn,
                                     "b has " + std::to_string(b_size) + " and x " + std::to_string(x_size) +
                                         " entries for " + std::to_string(nrhs) + " right-hand sides (b needs " +
                                         std::to_string(b_rows) + " rows, x " + std::to_string(x_rows) + ")",
                                     "pass row-major rows x nrhs arrays");
}

/// Row-major rows×cols → column-major.
inline std::vector<double> to_column_major(std::span<const double> a, std::int64_t rows, std::int64_t cols) {
  std::vector<double> out(a.size());
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      out[static_cast<std::size_t>(j * rows + i)] = a[static_cast<std::size_t>(i * cols + j)];
  return out;
}

/// Column-major rows×cols (leading dimension ld) → row-major into `out`.
inline void from_column_major(const double* a, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              std::span<double> out) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) out[static_cast<std::size_t>(i * cols + j)] = a[j * ld + i];
}

/// Throws InvalidArgument for an Ordering that is not one of its enumerators (e.g. static_cast<Ordering>(7)).
inline void require_ordering(Ordering ordering, const char* fn) {
  if (ordering != Ordering::automatic && ordering != Ordering::natural && ordering != Ordering::amd)
    throw trncore::InvalidArgument(fn,
                                   "ordering = " + std::to_string(static_cast<int>(ordering)) + " is not an Ordering",
                                   "pass Ordering::automatic, natural or amd");
}

/// Throws InvalidArgument naming the first nonfinite value (a factorization would return garbage).
inline void require_finite_values(const std::vector<double>& values, const char* fn) {
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!std::isfinite(values[k]))
      throw trncore::InvalidArgument(fn, "value " + std::to_string(k) + " is " + trncore::detail::sci(values[k]),
                                     "direct solvers need finite matrix entries");
}

}  // namespace trnsparse::detail
