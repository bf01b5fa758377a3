#pragma once
// The O(rows) part of CSR validation, for kernels that check each column index as they read it (SpMV):
// a separate O(nnz) validation pass would double their memory traffic.

#include <trnsparse/formats.hpp>

#include <trncore/error.hpp>

#include <string>
#include <type_traits>

namespace trnsparse::detail {

/// Sizes, array lengths and indptr (starts at 0, nondecreasing, ends at nnz); not the column indices.
/// @throws trncore::InvalidArgument as validate().
template <class T, class I>
void validate_structure(const Csr<T, I>& a, const char* fn);

/// Whether column index j is inside [0, cols), with one unsigned comparison.
template <class I>
inline bool index_in_range(I j, std::int64_t cols) {
  return static_cast<std::make_unsigned_t<I>>(j) < static_cast<std::make_unsigned_t<I>>(cols);
}

/// The error for an out-of-range column index met inside a kernel.
[[noreturn]] inline void throw_bad_index(const char* fn, std::int64_t position, std::int64_t index, std::int64_t cols) {
  throw trncore::InvalidArgument(fn,
                                 "index " + std::to_string(index) + " at position " + std::to_string(position) + " is outside [0, " +
                                     std::to_string(cols) + ")",
                                 "indices must lie inside the matrix (validate() finds every structural problem); the output "
                                 "is unspecified after this error");
}

}  // namespace trnsparse::detail
