// The sim generator kernels (GpSimdEngine integer ops on the NeuronCore model) return exactly the host
// fill's bits — the host fill itself is checked against Random123 in stream_test.cpp — for unaligned
// offsets, sizes across batch and counter-word boundaries, and large seeds and subsequences.
#include <trncore/error.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/stream.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(SimGenerators, EqualTheHostFillBitForBit) {
  struct Case {
    std::uint64_t seed, subsequence, offset;
    std::size_t n;
  };
  for (const Case& c : {Case{0, 0, 0, 0}, Case{1, 0, 0, 1}, Case{42, 7, 3, 5},
                        Case{0xDEADBEEFCAFEF00Dull, 1ull << 40, 1, 4 * 65536 + 9},
                        Case{5, 3, 4 * 0xFFFFFFFFull - 6, 40}}) {  // the last one crosses counter 2^32
    for (auto g : {trnrand::Generator::philox4x32_10, trnrand::Generator::threefry4x32_20}) {
      std::vector<std::uint32_t> host(c.n), sim(c.n);
      const auto s = trnrand::make_stream(c.seed, c.subsequence, c.offset, g);
      const auto after_host = trnrand::fill_uint32(s, host);
      trncore::sim::NeuronCore core;
      const auto after_sim = trnrand::sim::fill_uint32(s, sim, core);
      EXPECT_EQ(host, sim) << "seed " << c.seed << " offset " << c.offset << " n " << c.n;
      EXPECT_EQ(after_host, after_sim);
      if (c.n > 0) {
        EXPECT_GT(core.stats()[trncore::sim::Engine::gpsimd].instructions, 60);  // ≥ 10 rounds of several ops
      }
    }
  }
}

}  // namespace
