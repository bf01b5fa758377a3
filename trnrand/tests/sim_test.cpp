// The sim Philox kernel (GpSimdEngine integer ops on the NeuronCore model) returns exactly the host
// fill's bits — the host fill itself is checked against Random123 in stream_test.cpp — for unaligned
// offsets, sizes across batch and counter-word boundaries, and large seeds and subsequences.
#include <trncore/error.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/stream.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(SimPhilox, EqualsTheHostFillBitForBit) {
  struct Case {
    std::uint64_t seed, subsequence, offset;
    std::size_t n;
  };
  for (const Case& c : {Case{0, 0, 0, 0}, Case{1, 0, 0, 1}, Case{42, 7, 3, 5}, Case{0xDEADBEEFCAFEF00Dull, 1ull << 40, 1, 4 * 65536 + 9},
                        Case{5, 3, 4 * 0xFFFFFFFFull - 6, 40}}) {  // the last one crosses counter 2^32
    std::vector<std::uint32_t> host(c.n), sim(c.n);
    const auto s = trnrand::make_stream(c.seed, c.subsequence, c.offset);
    const auto after_host = trnrand::fill_uint32(s, host);
    trncore::sim::NeuronCore core;
    const auto after_sim = trnrand::sim::fill_uint32(s, sim, core);
    EXPECT_EQ(host, sim) << "seed " << c.seed << " offset " << c.offset << " n " << c.n;
    EXPECT_EQ(after_host, after_sim);
    if (c.n > 0) {
      EXPECT_GT(core.stats()[trncore::sim::Engine::gpsimd].instructions, 60);  // 10 rounds of ~8 ops
    }
  }
}

TEST(SimPhilox, ThreefryIsNotModelledYet) {
  std::vector<std::uint32_t> out(4);
  trncore::sim::NeuronCore core;
  EXPECT_THROW(trnrand::sim::fill_uint32(trnrand::make_stream(1, 0, 0, trnrand::Generator::threefry4x32_20), out, core),
               trncore::NotSupported);
}

}  // namespace
