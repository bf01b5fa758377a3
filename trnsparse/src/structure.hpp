#pragma once
// The O(1) part of CSR validation, for kernels that check each row's extent and each column index as
// they read them (SpMV): a separate validation pass would add a third to their memory traffic.

#include <trnsparse/formats.hpp>

#include <trncore/error.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace trnsparse::detail {

/// Sizes, array lengths, indptr[0] = 0 and indptr[rows] = nnz; not whether indptr is nondecreasing
/// (see row_extent_ok) nor the column indices (index_in_range).
/// @throws trncore::InvalidArgument as validate().
template <class T, class I>
void validate_ends(const Csr<T, I>& a, const char* fn);

/// Whether a row's stored range [begin, end) lies in [0, nnz) given begin in [0, nnz]: with
/// validate_ends, checking this for every row in order is what validate() checks of indptr.
inline bool row_extent_ok(std::int64_t begin, std::int64_t end, std::int64_t nnz) {
  return static_cast<std::uint64_t>(end - begin) <= static_cast<std::uint64_t>(nnz - begin);
}

/// The error for indptr decreasing at `slice` number r (indptr[r] = b > indptr[r+1] = e).
[[noreturn]] inline void throw_bad_indptr(const char* fn, const char* slice, std::int64_t r, std::int64_t b,
                                          std::int64_t e) {
  throw trncore::InvalidArgument(fn,
                                 "indptr decreases at " + std::string(slice) + " " + std::to_string(r) + " (" +
                                     std::to_string(b) + " > " + std::to_string(e) + ")",
                                 "indptr must be nondecreasing");
}

/// Whether column index j is inside [0, cols), with one unsigned comparison.
template <class I>
inline bool index_in_range(I j, std::int64_t cols) {
  return static_cast<std::make_unsigned_t<I>>(j) < static_cast<std::make_unsigned_t<I>>(cols);
}

/// The error for an out-of-range column index met inside a kernel.
[[noreturn]] inline void throw_bad_index(const char* fn, std::int64_t position, std::int64_t index, std::int64_t cols) {
  throw trncore::InvalidArgument(
      fn,
      "index " + std::to_string(index) + " at position " + std::to_string(position) + " is outside [0, " +
          std::to_string(cols) + ")",
      "indices must lie inside the matrix (validate() finds every structural problem); the output "
      "is unspecified after this error");
}

/// The error for a row whose extent fails row_extent_ok: indptr decreases there, or overshoots nnz
/// (then it decreases later, since it ends at nnz).
[[noreturn]] inline void throw_bad_extent(const char* fn, std::int64_t r, std::int64_t b, std::int64_t e,
                                          std::int64_t nnz) {
  if (e < b) throw_bad_indptr(fn, "row", r, b, e);
  throw trncore::InvalidArgument(fn,
                                 "indptr[" + std::to_string(r + 1) + "] = " + std::to_string(e) +
                                     " is outside [0, nnz = " + std::to_string(nnz) + "]",
                                 "indptr must be nondecreasing from 0 to nnz");
}

}  // namespace trnsparse::detail
