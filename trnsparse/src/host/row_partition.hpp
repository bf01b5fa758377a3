#pragma once
// Splits the rows of a compressed matrix into ranges of about equal nonzeros, so rows with many entries
// do not leave one thread doing all the work. The split never affects results: each row is computed by
// one thread in storage order.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace trnsparse::detail {

/// Boundaries b_0 = 0 < b_1 < ... < b_t = rows of at most `parts` ranges with about nnz/parts entries each.
template <class I>
std::vector<std::int64_t> balanced_row_ranges(const std::vector<I>& indptr, std::int64_t rows, std::int64_t parts) {
  std::vector<std::int64_t> bounds{0};
  const std::int64_t nnz = indptr[static_cast<std::size_t>(rows)];
  for (std::int64_t p = 1; p < parts; ++p) {
    const auto target = static_cast<I>(nnz * p / parts);
    const auto it = std::lower_bound(indptr.begin(), indptr.begin() + rows + 1, target);
    const std::int64_t row = std::min<std::int64_t>(rows, it - indptr.begin());
    if (row > bounds.back()) bounds.push_back(row);
  }
  if (bounds.back() < rows) bounds.push_back(rows);
  return bounds;
}

}  // namespace trnsparse::detail
