#include <trncore/mpi/collective_check.hpp>
#include <trncore/mpi/ranges.hpp>

#include <algorithm>
#include <string>

namespace trncore::mpi {

std::vector<Range> gather_ranges(const Communicator& comm, std::string_view function, std::string_view what,
                                 std::int64_t n, Range mine) {
  CollectiveCheck check(comm, function);
  check.same(std::string(what) + " total", n);
  check.require(mine.begin >= 0 && mine.count >= 0 && n >= 0, ErrorKind::invalid_argument,
                std::string(what) + " [" + std::to_string(mine.begin) + ", +" + std::to_string(mine.count) + ") of " +
                    std::to_string(n) + ": a negative value",
                "pass begin >= 0 and count >= 0");
  check.finish();
  const std::vector<std::int64_t> pair{mine.begin, mine.count};
  const auto all = comm.allgatherv(std::span<const std::int64_t>(pair));
  std::vector<Range> ranges;
  for (std::size_t r = 0; r + 1 < all.size(); r += 2) ranges.push_back({all[r], all[r + 1]});
  std::vector<std::pair<Range, int>> sorted;
  for (std::size_t r = 0; r < ranges.size(); ++r)
    if (ranges[r].count > 0) sorted.emplace_back(ranges[r], static_cast<int>(r));
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first.begin < b.first.begin; });
  std::int64_t next = 0;
  for (const auto& [range, rank] : sorted) {
    if (range.begin != next)
      throw DimensionMismatch(
          function,
          "the " + std::string(what) + " of rank " + std::to_string(rank) + " start at " + std::to_string(range.begin) +
              " where " + std::to_string(next) + " was expected (" + (range.begin < next ? "overlap" : "gap") + ")",
          "give each process a contiguous range; together they must cover [0, " + std::to_string(n) + ") once");
    next = range.begin + range.count;
  }
  if (next != n)
    throw DimensionMismatch(
        function,
        "the " + std::string(what) + " ranges cover [0, " + std::to_string(next) + ") of " + std::to_string(n),
        "the counts must add up to the total");
  return ranges;
}

int owner_of(const std::vector<Range>& ranges, std::int64_t i) noexcept {
  for (std::size_t r = 0; r < ranges.size(); ++r)
    if (i >= ranges[r].begin && i < ranges[r].begin + ranges[r].count) return static_cast<int>(r);
  return -1;
}

}  // namespace trncore::mpi
