#pragma once
/// @file
/// Contiguous 1-D splits over processes (rows of a row-distributed matrix, parts of a vector): every
/// process's range, checked collectively to tile the whole index space.

#include <trncore/mpi/communicator.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace trncore::mpi {

/// A contiguous range of global indices [begin, begin + count).
struct Range {
  std::int64_t begin = 0;  ///< the first global index
  std::int64_t count = 0;  ///< how many indices
  /// Field-by-field equality.
  bool operator==(const Range&) const = default;
};

/// Every process's range, in rank order, after checking that the non-empty ones tile [0, n) exactly once
/// (any order of processes). Collective; every process gets the same list and the same verdict.
/// @param comm      every process of it calls
/// @param function  the public function to name in errors
/// @param what      what the ranges split, e.g. "rows" or "x"
/// @param n         the size of the index space (the same on every process)
/// @param mine      this process's range
/// @throws on every process: InvalidArgument for a negative begin or count (naming the process);
/// DimensionMismatch when the processes' n differ, or the ranges overlap, leave a gap or overrun n.
std::vector<Range> gather_ranges(const Communicator& comm, std::string_view function, std::string_view what,
                                 std::int64_t n, Range mine);

/// The process whose range holds global index i (ranges as gather_ranges returns them; i must be in [0, n)).
/// A scan of the ranges (O(processes)); -1 when no range holds i.
int owner_of(const std::vector<Range>& ranges, std::int64_t i) noexcept;

}  // namespace trncore::mpi
