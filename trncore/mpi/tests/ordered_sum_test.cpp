// ordered_sum against its definition: a serial loop over the blocks in ascending index, computed on every
// rank from the same deterministic partials. The partials cancel heavily, so a different order changes the
// bits (checked), and the test would catch any rank-count-dependent order.
#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

using namespace trncore::mpi;

namespace {

// Block b's vector: large values of alternating sign and small ones, so sums depend on order.
template <class T>
std::vector<T> partial(std::int64_t b, std::int64_t len) {
  std::vector<T> v(static_cast<std::size_t>(len));
  for (std::int64_t e = 0; e < len; ++e) {
    const double x = std::sin(1.3 * static_cast<double>(b) + 0.7 * static_cast<double>(e) + 0.1);
    v[static_cast<std::size_t>(e)] = static_cast<T>((b % 2 ? 1e8 : -1e8) * x * x + x);
  }
  return v;
}

template <class T>
std::vector<T> serial(std::int64_t blocks, std::int64_t len, bool reverse = false) {
  std::vector<T> s(static_cast<std::size_t>(len), T(0));
  for (std::int64_t i = 0; i < blocks; ++i) {
    const auto b = reverse ? blocks - 1 - i : i;
    const auto p = partial<T>(b, len);
    for (std::int64_t e = 0; e < len; ++e)
      s[static_cast<std::size_t>(e)] =
          i == 0 ? p[static_cast<std::size_t>(e)] : s[static_cast<std::size_t>(e)] + p[static_cast<std::size_t>(e)];
  }
  return s;
}

// This rank's blocks under a distribution: cyclic, or contiguous ranges, listed in a scrambled order.
template <class T>
std::vector<T> distributed(const Communicator& comm, std::int64_t blocks, std::int64_t len, bool cyclic) {
  std::vector<std::int64_t> mine;
  for (std::int64_t b = blocks - 1; b >= 0; --b) {
    const auto owner = cyclic ? b % comm.size() : b * comm.size() / std::max<std::int64_t>(blocks, 1);
    if (owner == comm.rank()) mine.push_back(b);
  }
  std::vector<T> partials;
  for (auto b : mine) {
    const auto p = partial<T>(b, len);
    partials.insert(partials.end(), p.begin(), p.end());
  }
  return ordered_sum(comm, std::span<const std::int64_t>(mine), std::span<const T>(partials), len);
}

}  // namespace

TEST(OrderedSum, EqualsTheSerialBlockOrderSumBitwiseForAnyDistribution) {
  auto comm = Communicator::world();
  for (std::int64_t blocks : {0, 1, 2, 5, 13}) {
    for (std::int64_t len : {0, 1, 3, 64, 129}) {
      for (bool cyclic : {true, false}) {
        const auto got = distributed<double>(comm, blocks, len, cyclic);
        const auto want = serial<double>(blocks, len);
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t e = 0; e < got.size(); ++e)
          ASSERT_EQ(got[e], want[e]) << "blocks " << blocks << " len " << len << " element " << e;
        const auto got_f = distributed<float>(comm, blocks, len, cyclic);
        const auto want_f = serial<float>(blocks, len);
        for (std::size_t e = 0; e < got_f.size(); ++e) ASSERT_EQ(got_f[e], want_f[e]);
      }
    }
  }
}

TEST(OrderedSum, TheTestDataIsOrderSensitive) {
  // Guards the test above: summed in reverse, at least one element differs, so a wrong order fails it.
  const auto forward = serial<float>(13, 129), reverse = serial<float>(13, 129, true);
  EXPECT_NE(forward, reverse);
}

TEST(OrderedSum, RejectsOnEveryRank) {
  auto comm = Communicator::world();
  const std::vector<std::int64_t> same_block{0};
  const std::vector<double> one{1.0};
  if (comm.size() > 1) {  // every rank claims block 0
    EXPECT_THROW(ordered_sum(comm, std::span<const std::int64_t>(same_block), std::span<const double>(one), 1),
                 trncore::InvalidArgument);
  }
  // A rank with a different len.
  const std::int64_t len = comm.rank() == 0 ? 1 : 2;
  const std::vector<std::int64_t> none;
  const std::vector<double> empty;
  if (comm.size() > 1) {
    EXPECT_THROW(ordered_sum(comm, std::span<const std::int64_t>(none), std::span<const double>(empty), len),
                 trncore::DimensionMismatch);
  }
  // Partials of the wrong size on the last rank only.
  std::vector<std::int64_t> blocks{comm.rank()};
  std::vector<double> partials(comm.rank() == comm.size() - 1 ? 3 : 2, 1.0);
  EXPECT_THROW(ordered_sum(comm, std::span<const std::int64_t>(blocks), std::span<const double>(partials), 2),
               trncore::DimensionMismatch);
  EXPECT_EQ(comm.allreduce_max(1), 1);  // nobody hangs
}
