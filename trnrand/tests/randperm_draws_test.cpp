// randperm_draws: the Fisher–Yates draws of randperm from any step on (the one sampler whose output is not a
// value per index, so "fill from a global position" means "draw the swaps of steps [first, first + count)").
// The oracle is trnrand::randperm itself: iota, then the swaps j_k for k = n − 1 … 1 replayed from the draws
// — made in one call, in slices that start anywhere (lengths 0, 1, primes, partition() over 2, 3, 7
// workers), on 1 and 2 threads — must give randperm's permutation bit for bit, for both generators and
// stream offsets 0, 1 and odd. The stream returned is randperm's.
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace {

using trnrand::Generator;
using trnrand::Stream;

constexpr std::uint64_t kWindow = std::uint64_t{1} << 32;

std::vector<std::int64_t> replay(const std::vector<std::int64_t>& draws) {
  std::vector<std::int64_t> p(draws.size());
  std::iota(p.begin(), p.end(), std::int64_t{0});
  for (std::size_t k = p.size(); k-- > 1;) std::swap(p[k], p[static_cast<std::size_t>(draws[k])]);
  return p;
}

TEST(RandpermDraws, ReplayedDrawsFromAnySliceGiveRandpermsPermutation) {
  constexpr std::size_t kLengths[] = {0, 1, 1, 2, 0, 3, 1, 7, 0, 13, 1, 5, 2, 11, 1, 0, 17};
  for (const Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20})
    for (const std::uint64_t offset : {0u, 1u, 9u})
      for (const std::size_t n : {0u, 1u, 2u, 3u, 5u, 97u, 1000u}) {
        const Stream s = trnrand::make_stream(0xD1CE + offset, 2, offset, g);
        std::vector<std::int64_t> oracle(n);
        const Stream oracle_after = trnrand::randperm(s, std::span<std::int64_t>(oracle));
        // One call.
        std::vector<std::int64_t> draws(n);
        EXPECT_EQ(trnrand::randperm_draws(s, 0, std::span<std::int64_t>(draws)), oracle_after);
        for (std::size_t k = 0; k < n; ++k)
          ASSERT_TRUE(draws[k] >= 0 && draws[k] <= static_cast<std::int64_t>(k)) << "step " << k;
        EXPECT_EQ(replay(draws), oracle) << "n " << n << ", offset " << offset;
        // Slices of cycled lengths, each from its global step.
        std::vector<std::int64_t> joined;
        std::size_t begin = 0;
        for (std::size_t c = 0; begin < n; ++c) {
          const std::size_t count = std::min(kLengths[c % std::size(kLengths)], n - begin);
          std::vector<std::int64_t> part(count);
          const Stream after = trnrand::randperm_draws(s, begin, std::span<std::int64_t>(part));
          EXPECT_EQ(after, trnrand::skip_ahead(s, (begin + count) * kWindow));
          joined.insert(joined.end(), part.begin(), part.end());
          begin += count;
        }
        EXPECT_EQ(joined, draws);
        // partition() over 2, 3 and 7 workers.
        for (const std::int64_t workers : {2, 3, 7}) {
          std::vector<std::int64_t> parts;
          for (std::int64_t r = 0; r < workers; ++r) {
            const trnrand::Slice slice = trnrand::partition(n, workers, r);
            std::vector<std::int64_t> part(slice.count);
            trnrand::randperm_draws(s, slice.begin, std::span<std::int64_t>(part));
            parts.insert(parts.end(), part.begin(), part.end());
          }
          EXPECT_EQ(replay(parts), oracle) << workers << " workers, n " << n;
        }
      }
}

// Large enough that the draws split over threads (more than 64 Ki samples per thread).
TEST(RandpermDraws, ThreadCountDoesNotChangeTheDraws) {
  const Stream s = trnrand::make_stream(31337, 0, 5);
  constexpr std::size_t n = 200003;
  std::vector<std::int64_t> oracle(n), one(n), two(n);
  trnrand::randperm(s, std::span<std::int64_t>(oracle));
  trnrand::randperm_draws(s, 0, std::span<std::int64_t>(one), trncore::Options{}.with_threads(1));
  trnrand::randperm_draws(s, 0, std::span<std::int64_t>(two), trncore::Options{}.with_threads(2));
  EXPECT_EQ(one, two);
  EXPECT_EQ(replay(two), oracle);
}

TEST(RandpermDraws, RefusesBadArguments) {
  std::vector<std::int64_t> out(2);
  // Steps at or past 2^32 would reuse the windows of steps 2^32 earlier (each step owns 2^32 of the stream's
  // 2^64 words): refused. The last two steps below 2^32 are fine, one more is not.
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::randperm_draws(trnrand::make_stream(1), (std::uint64_t{1} << 63) - 1, out); },
      "trnrand::randperm_draws", {"2^32", "repeat"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::randperm_draws(trnrand::make_stream(1), kWindow - 1, out); }, "trnrand::randperm_draws",
      {"4294967295 ... 4294967296", "2^32"});
  EXPECT_NO_THROW(trnrand::randperm_draws(trnrand::make_stream(1), kWindow - 2, out));
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnrand::randperm_draws(trnrand::make_stream(1), 0, out, trncore::Options{}.with_threads(-1)); },
      "trnrand::randperm_draws");
  trncore::Options sim;
  sim.backend = trncore::Backend::sim;
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] { trnrand::randperm_draws(trnrand::make_stream(1), 0, out, sim); }, "trnrand::randperm_draws");
  Stream bad = trnrand::make_stream(1);
  bad.generator = static_cast<Generator>(7);
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnrand::randperm_draws(bad, 0, out); },
                                                         "trnrand::randperm_draws");
}

}  // namespace
