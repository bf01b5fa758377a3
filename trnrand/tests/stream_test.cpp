// Streams against independent oracles: Random123's own Philox4x32-10 and Threefry4x32-20 (Debian
// librandom123-dev) arranged in the documented cuRAND layout, and the published known-answer vectors.
// Then the stream algebra: skip-ahead equals stepping, partitions concatenate to the whole, and no
// result depends on the thread count.
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trnrand/stream.hpp>
#include <trnrand/threefry.hpp>

#include <Random123/philox.h>
#include <Random123/threefry.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The thread count as options.
trncore::Options threads_option(int threads) { return trncore::Options{}.with_threads(threads); }

using trnrand::Generator;
using trnrand::Stream;

// Word n of (seed, subsequence) by the layout in stream.hpp, computed with Random123.
std::uint32_t oracle_word(Generator g, std::uint64_t seed, std::uint64_t subsequence, std::uint64_t n) {
  const std::uint64_t block = n / 4;
  if (g == Generator::philox4x32_10) {
    r123::Philox4x32_R<10>::ctr_type c = {{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                                           static_cast<std::uint32_t>(subsequence),
                                           static_cast<std::uint32_t>(subsequence >> 32)}};
    r123::Philox4x32_R<10>::key_type k = {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
    return r123::Philox4x32_R<10>()(c, k).v[n % 4];
  }
  r123::Threefry4x32_R<20>::ctr_type c = {{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                                           static_cast<std::uint32_t>(subsequence),
                                           static_cast<std::uint32_t>(subsequence >> 32)}};
  r123::Threefry4x32_R<20>::key_type k = {
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), 0u, 0u}};
  return r123::Threefry4x32_R<20>()(c, k).v[n % 4];
}

TEST(Threefry, PublishedKnownAnswerVectorsAndRandom123) {
  std::ifstream file(std::string(TRNSCI_DATA_DIR) + "/random123/kat_vectors.txt");
  ASSERT_TRUE(file);
  int checked = 0;
  for (std::string line; std::getline(file, line);) {
    std::istringstream in(line);
    std::string name;
    int rounds = 0;
    if (!(in >> name >> rounds) || name != "threefry4x32") continue;
    trnrand::ThreefryCounter c{}, want{};
    trnrand::ThreefryKey k{};
    in >> std::hex;
    for (auto& w : c) in >> w;
    for (auto& w : k) in >> w;
    for (auto& w : want) in >> w;
    ASSERT_TRUE(in) << line;
    EXPECT_EQ(trnrand::threefry4x32_20(c, k), want) << line;
    ++checked;
  }
  EXPECT_EQ(checked, 3);
  std::mt19937_64 rng(8);
  for (int i = 0; i < 100000; ++i) {
    const trnrand::ThreefryCounter c{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                                     static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())};
    const trnrand::ThreefryKey k{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                                 static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())};
    r123::Threefry4x32_R<20>::ctr_type rc = {{c[0], c[1], c[2], c[3]}};
    r123::Threefry4x32_R<20>::key_type rk = {{k[0], k[1], k[2], k[3]}};
    const auto want = r123::Threefry4x32_R<20>()(rc, rk);
    const auto got = trnrand::threefry4x32_20(c, k);
    for (int w = 0; w < 4; ++w) ASSERT_EQ(got[w], want.v[w]);
  }
}

TEST(Stream, FillsEqualRandom123InTheDocumentedLayout) {
  for (Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20}) {
    for (std::uint64_t offset : {0ull, 1ull, 2ull, 3ull, 5ull, 1ull << 33}) {
      const Stream s = trnrand::make_stream(0x0123456789ABCDEFull, 0xFEDCBA9876543210ull, offset, g);
      std::vector<std::uint32_t> out(1000);
      const Stream next = trnrand::fill_uint32(s, out);
      EXPECT_EQ(next.offset, offset + 1000);
      for (std::size_t j = 0; j < out.size(); ++j)
        ASSERT_EQ(out[j], oracle_word(g, s.seed, s.subsequence, offset + j)) << trnrand::to_string(g) << " " << j;
      EXPECT_EQ(trnrand::word(s, 7), oracle_word(g, s.seed, s.subsequence, offset + 7));
    }
  }
}

TEST(Stream, SkipAheadEqualsSteppingAndEngineFollowsTheStream) {
  for (Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20}) {
    const Stream s = trnrand::make_stream(99, 3, 0, g);
    std::vector<std::uint32_t> whole(5000), a(1234), b(5000 - 1234);
    trnrand::fill_uint32(s, whole);
    const Stream after_a = trnrand::fill_uint32(s, a);
    EXPECT_EQ(after_a, trnrand::skip_ahead(s, 1234));
    trnrand::fill_uint32(after_a, b);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), whole.begin()));
    EXPECT_TRUE(std::equal(b.begin(), b.end(), whole.begin() + 1234));
    trnrand::Engine engine(s);
    for (int i = 0; i < 10; ++i) EXPECT_EQ(engine(), whole[static_cast<std::size_t>(i)]);
    EXPECT_EQ(engine.stream().offset, 10u);
    std::vector<std::uint32_t> next_sequence(4);
    trnrand::fill_uint32(trnrand::skip_ahead_sequence(s, 1), next_sequence);
    EXPECT_EQ(next_sequence[0], oracle_word(g, 99, 4, 0));
  }
}

TEST(Stream, PartitionsConcatenateToTheSingleStream) {
  for (Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20}) {
    const Stream s = trnrand::make_stream(2026, 11, 22, g);
    for (std::uint64_t total : {0ull, 1ull, 7ull, 1000ull, 200003ull}) {
      std::vector<std::uint32_t> whole(total);
      trnrand::fill_uint32(s, whole, threads_option(1));
      for (std::int64_t workers = 1; workers <= 8; ++workers) {
        std::vector<std::uint32_t> joined;
        std::uint64_t expected_begin = 0;
        for (std::int64_t r = 0; r < workers; ++r) {
          const trnrand::Slice slice = trnrand::partition(total, workers, r);
          ASSERT_EQ(slice.begin, expected_begin);
          ASSERT_LE(slice.count, total / static_cast<std::uint64_t>(workers) + 1);
          std::vector<std::uint32_t> part(slice.count);
          trnrand::fill_uint32(trnrand::skip_ahead(s, slice.begin), part, threads_option(static_cast<int>(r % 3) + 1));
          joined.insert(joined.end(), part.begin(), part.end());
          expected_begin += slice.count;
        }
        ASSERT_EQ(joined, whole) << "workers=" << workers << " total=" << total;
      }
    }
  }
}

TEST(Stream, ResultsDoNotDependOnThreads) {
  for (Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20}) {
    const Stream s = trnrand::make_stream(5, 6, 7, g);
    std::vector<std::uint32_t> one((1u << 18) + 3), two(one.size()), three(one.size());
    trnrand::fill_uint32(s, one, threads_option(1));
    trnrand::fill_uint32(s, two, threads_option(2));
    trnrand::fill_uint32(s, three, threads_option(3));
    EXPECT_EQ(one, two);
    EXPECT_EQ(one, three);
    std::vector<float> f1(100000), f2(100000);
    trnrand::fill_uniform(s, std::span<float>(f1), trnrand::Interval::open_closed, threads_option(1));
    trnrand::fill_uniform(s, std::span<float>(f2), trnrand::Interval::open_closed, threads_option(2));
    EXPECT_EQ(f1, f2);
  }
}

TEST(Stream, UniformsFollowTheirExactRecipes) {
  const Stream s = trnrand::make_stream(1);
  std::vector<std::uint32_t> w(2000);
  trnrand::fill_uint32(s, w);
  std::vector<float> oc(1000), co(1000);
  std::vector<double> d(1000);
  trnrand::fill_uniform(s, std::span<float>(oc), trnrand::Interval::open_closed);
  trnrand::fill_uniform(s, std::span<float>(co), trnrand::Interval::closed_open);
  const Stream after = trnrand::fill_uniform(s, std::span<double>(d), trnrand::Interval::closed_open);
  EXPECT_EQ(after.offset, 2000u);
  for (std::size_t j = 0; j < 1000; ++j) {
    EXPECT_EQ(oc[j], static_cast<float>((w[j] >> 8) + 1) / 16777216.0f);
    EXPECT_EQ(co[j], static_cast<float>(w[j] >> 8) / 16777216.0f);
    EXPECT_GT(oc[j], 0.0f);
    EXPECT_LE(oc[j], 1.0f);
    EXPECT_LT(co[j], 1.0f);
    const std::uint64_t bits53 = ((static_cast<std::uint64_t>(w[2 * j]) << 32) | w[2 * j + 1]) >> 11;
    EXPECT_EQ(d[j], std::ldexp(static_cast<double>(bits53), -53));
  }
  // Mean of 1e6 uniforms on (0,1]: within 5 standard errors (σ = 1/√12 per draw) of 1/2 + 2^-25.
  std::vector<float> many(1000000);
  trnrand::fill_uniform(trnrand::make_stream(3), std::span<float>(many));
  double mean = 0;
  for (float x : many) mean += x;
  mean /= static_cast<double>(many.size());
  EXPECT_NEAR(mean, 0.5, 5 * 0.2887 / 1000.0);
}

TEST(Stream, BadArgumentsThrow) {
  try {
    trnrand::partition(10, 0, 0);
    FAIL() << "0 workers accepted";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "trnrand::partition: workers = 0 is less than 1: pass at least one worker");
  }
  EXPECT_THROW(trnrand::partition(10, 4, 4), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::partition(10, 4, -1), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::parse_generator("mt19937"), trncore::ParseError);
  EXPECT_EQ(trnrand::parse_generator("threefry4x32_20"), Generator::threefry4x32_20);
}

}  // namespace
