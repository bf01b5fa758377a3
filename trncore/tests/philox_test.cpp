// Philox4x32-10 against the published known-answer vectors (data/random123/kat_vectors.txt)
// and against Random123's own implementation (Debian librandom123-dev) on many random counters and keys.
#include <trncore/philox.hpp>
#include <trncore/random_words.hpp>

#include <Random123/philox.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

TEST(Philox, PublishedKnownAnswerVectors) {
  std::ifstream file(std::string(TRNSCI_DATA_DIR) + "/random123/kat_vectors.txt");
  ASSERT_TRUE(file) << "cannot open " << TRNSCI_DATA_DIR << "/random123/kat_vectors.txt";
  int checked = 0;
  for (std::string line; std::getline(file, line);) {
    std::istringstream in(line);
    std::string name;
    int rounds = 0;
    if (!(in >> name >> rounds) || name != "philox4x32") continue;
    trncore::PhiloxCounter counter{}, expected{};
    trncore::PhiloxKey key{};
    in >> std::hex;
    for (auto& w : counter) in >> w;
    for (auto& w : key) in >> w;
    for (auto& w : expected) in >> w;
    ASSERT_TRUE(in) << line;
    ASSERT_EQ(rounds, 10) << line;
    EXPECT_EQ(trncore::philox4x32_10(counter, key), expected) << line;
    ++checked;
  }
  EXPECT_EQ(checked, 3);  // the file's three philox4x32-10 vectors
}

TEST(Philox, AgreesWithRandom123OnRandomInputsAndRoundCounts) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 200000; ++i) {
    const trncore::PhiloxCounter c{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                                   static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())};
    const trncore::PhiloxKey k{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())};
    r123::Philox4x32_R<10>::ctr_type rc = {{c[0], c[1], c[2], c[3]}};
    r123::Philox4x32_R<10>::key_type rk = {{k[0], k[1]}};
    const auto want = r123::Philox4x32_R<10>()(rc, rk);
    const auto got = trncore::philox4x32_10(c, k);
    for (int w = 0; w < 4; ++w) ASSERT_EQ(got[w], want.v[w]) << "input " << i;
    if (i < 1000) {  // other round counts follow the same schedule
      const auto want7 = r123::Philox4x32_R<7>()(rc, rk);
      const auto got7 = trncore::philox4x32<7>(c, k);
      for (int w = 0; w < 4; ++w) ASSERT_EQ(got7[w], want7.v[w]);
    }
  }
}

TEST(Philox, RandomBitsLayoutIsTheDocumentedCounter) {
  const trncore::RandomBits bits{0x0123456789ABCDEFull, 0xFEDCBA9876543210ull};
  for (std::uint64_t i : {0ull, 1ull, 3ull, 4ull, 5ull, (1ull << 34) + 2}) {
    const std::uint64_t block = i / 4;
    const auto words = trncore::philox4x32_10(
        {static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32), 0x76543210u, 0xFEDCBA98u},
        {0x89ABCDEFu, 0x01234567u});
    EXPECT_EQ(bits(i), words[i % 4]) << i;
  }
  EXPECT_NE(bits(0), (trncore::RandomBits{1, 0xFEDCBA9876543210ull}(0)));
  EXPECT_NE(bits(0), (trncore::RandomBits{0x0123456789ABCDEFull, 0}(0)));
}

static_assert(trncore::philox4x32_10({0, 0, 0, 0}, {0, 0})[0] == 0x6627e8d5u, "constexpr Philox");

}  // namespace

namespace {

// fill_random_words against RandomBits one word at a time: every start offset within a 64-word block,
// lengths around the block and threading sizes, 1–3 threads, and pieces equal to the whole.
TEST(RandomWords, BulkFillEqualsRandomBitsAtAnyOffsetLengthAndThreadCount) {
  const trncore::RandomBits bits{0xDEADBEEFCAFEull, 42};
  for (std::uint64_t first : {0ull, 1ull, 3ull, 63ull, 64ull, 1000003ull, (1ull << 40) + 5}) {
    for (std::size_t n : {0u, 1u, 5u, 64u, 129u, 70001u}) {
      for (int threads : {1, 2, 3}) {
        std::vector<std::uint32_t> out(n);
        trncore::fill_random_words(bits, first, out, threads);
        for (std::size_t j = 0; j < n; ++j) ASSERT_EQ(out[j], bits(first + j)) << first << " " << n << " " << j;
      }
    }
  }
}

}  // namespace
