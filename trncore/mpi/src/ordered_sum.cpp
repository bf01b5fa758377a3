#include <trncore/mpi/collective_check.hpp>
#include <trncore/mpi/ordered_sum.hpp>

#include <algorithm>
#include <string>

namespace trncore::mpi {

// Each rank sums one contiguous slice of the vector over every block, in block order, then the slices are
// allgathered: the work and the traffic per rank are (Σ blocks·len)/ranks, and each element's sum is the same
// left-to-right chain whatever the rank count.
template <class T>
std::vector<T> ordered_sum(const Communicator& comm, std::span<const std::int64_t> blocks, std::span<const T> partials,
                           std::int64_t len) {
  constexpr std::string_view function = "trncore::mpi::ordered_sum";
  CollectiveCheck check(comm, function);
  check.same("len", len);
  check.require(len >= 0, ErrorKind::invalid_argument, "len = " + std::to_string(len) + " is negative",
                "pass the length of each block's vector");
  check.require(len < 0 || partials.size() == blocks.size() * static_cast<std::size_t>(len),
                ErrorKind::dimension_mismatch,
                "partials has " + std::to_string(partials.size()) + " values for " + std::to_string(blocks.size()) +
                    " blocks of length " + std::to_string(len),
                "pass blocks.size() * len values, block after block");
  check.require(std::all_of(blocks.begin(), blocks.end(), [](std::int64_t b) { return b >= 0; }),
                ErrorKind::invalid_argument, "a block index is negative", "number blocks from 0");
  check.finish();

  const int ranks = comm.size();
  const auto all_blocks = comm.allgatherv(blocks);
  {
    auto sorted = all_blocks;
    std::sort(sorted.begin(), sorted.end());
    const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    if (dup != sorted.end())  // every rank sees the same list, so every rank throws
      throw InvalidArgument(function, "block " + std::to_string(*dup) + " is claimed more than once",
                            "give each global block to exactly one rank");
  }

  // Rank r owns elements [slice_begin(r), slice_begin(r + 1)).
  auto slice_begin = [&](int r) { return len * r / ranks; };
  std::vector<std::int64_t> send_counts(static_cast<std::size_t>(ranks));
  std::vector<T> send;
  send.reserve(partials.size());
  for (int r = 0; r < ranks; ++r) {
    const auto b0 = slice_begin(r), b1 = slice_begin(r + 1);
    send_counts[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(blocks.size()) * (b1 - b0);
    for (std::size_t b = 0; b < blocks.size(); ++b)
      send.insert(send.end(), partials.begin() + static_cast<std::ptrdiff_t>(b * len + b0),
                  partials.begin() + static_cast<std::ptrdiff_t>(b * len + b1));
  }
  const auto received = comm.alltoallv(std::span<const T>(send), send_counts);

  // received: for each source rank in order, its blocks in its order, each my slice's width.
  const auto width = slice_begin(comm.rank() + 1) - slice_begin(comm.rank());
  std::vector<std::pair<std::int64_t, const T*>> order;
  order.reserve(all_blocks.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < all_blocks.size(); ++i) {
    order.emplace_back(all_blocks[i], received.data() + at);
    at += static_cast<std::size_t>(width);
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<T> slice(static_cast<std::size_t>(width), T(0));
  for (std::size_t i = 0; i < order.size(); ++i) {
    const T* p = order[i].second;
    if (i == 0)
      std::copy(p, p + width, slice.begin());
    else
      for (std::int64_t e = 0; e < width; ++e) slice[static_cast<std::size_t>(e)] += p[e];
  }
  return comm.allgatherv(std::span<const T>(slice));
}

template std::vector<float> ordered_sum(const Communicator&, std::span<const std::int64_t>, std::span<const float>,
                                        std::int64_t);
template std::vector<double> ordered_sum(const Communicator&, std::span<const std::int64_t>, std::span<const double>,
                                         std::int64_t);

}  // namespace trncore::mpi
