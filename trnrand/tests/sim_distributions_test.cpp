// The sim uniform and normal kernels. Oracles: the host fills (themselves checked against Random123 and
// by KS/MPFR tests elsewhere): bitwise for the uniforms; for the normal, the host's double Box–Muller of
// the same words with the bound from the fp32 roundings of each engine step (sim.hpp), plus a KS test of
// the sim normal itself against Φ (distribution_stats.hpp's decision rule).
#include "distribution_stats.hpp"

#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/stream.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

namespace {

// Sizes: empty, one, odd, tile edges of the 128 × 512 layout (in elements and in pairs), several tiles.
const std::size_t kSizes[] = {0, 1, 2, 3, 127, 128, 129, 511, 512, 513, 1023, 1025, 128 * 512 - 1, 128 * 512 + 1,
                              2 * 128 * 512 + 2 * 512 + 7};

TEST(SimDistributions, UniformEqualsTheHostBitForBit) {
  for (const std::size_t n : kSizes)
    for (const auto interval : {trnrand::Interval::open_closed, trnrand::Interval::closed_open})
      for (const auto g : {trnrand::Generator::philox4x32_10, trnrand::Generator::threefry4x32_20}) {
        const auto s = trnrand::make_stream(0x1234 + n, 3, n % 5, g);
        std::vector<float> host(n), sim(n);
        const auto host_next = trnrand::fill_uniform(s, std::span<float>(host), interval);
        trncore::sim::NeuronCore core;
        const auto sim_next = trnrand::sim::fill_uniform(s, sim, interval, core);
        ASSERT_EQ(host_next, sim_next) << n;
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(std::bit_cast<std::uint32_t>(host[i]), std::bit_cast<std::uint32_t>(sim[i])) << n << " " << i;
      }
}

// r = √(−2 ln u1) of pair p from the same words, in double (for the bound).
std::vector<double> radii(trnrand::Stream s, std::size_t n) {
  std::vector<std::uint32_t> w(2 * ((n + 1) / 2));
  trnrand::fill_uint32(s, w);
  std::vector<double> r(w.size() / 2);
  for (std::size_t p = 0; p < r.size(); ++p) r[p] = std::sqrt(-2 * std::log(((w[2 * p] >> 8) + 1) * 0x1p-24));
  return r;
}

TEST(SimDistributions, NormalIsTheHostsBoxMullerWithinTheFp32StepBound) {
  for (const std::size_t n : kSizes)
    for (const auto& [mean, stddev] : {std::pair{0.0f, 1.0f}, std::pair{-3.5f, 0.25f}, std::pair{1e3f, 7.0f}}) {
      const auto s = trnrand::make_stream(99 + n, 1, n % 3);
      std::vector<float> host(n), sim(n);
      const auto host_next = trnrand::normal(s, std::span<float>(host), mean, stddev);
      trncore::sim::NeuronCore core;
      const auto sim_next = trnrand::sim::normal(s, sim, mean, stddev, core);
      ASSERT_EQ(host_next, sim_next);
      const std::vector<double> r = radii(s, n);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < n; ++i) {
        // sim.hpp: ln, sqrt, the argument 2π·u2 (2 roundings), cos/sin, ·r, ·stddev, +mean at fp32 each.
        const double bound = 0x1p-24 * (22 * stddev * r[i / 2] + 4 * std::fabs(mean)) + 0x1p-24 * std::fabs(host[i]);
        ASSERT_LE(std::fabs(static_cast<double>(sim[i]) - host[i]), bound) << n << " " << i;
        differ += sim[i] != host[i];
      }
      if (n > 1000) {
        EXPECT_GT(differ, 0U) << "fp32 steps cannot reproduce the double evaluation everywhere";
      }
    }
}

TEST(SimDistributions, NormalPassesKolmogorovSmirnovAgainstPhi) {
  std::vector<float> x(trnrand_test::kN);
  trncore::sim::NeuronCore core;
  trnrand::sim::normal(trnrand::make_stream(2026), x, 0.0f, 1.0f, core);
  const double d = trnrand_test::ks(x, [](trnrand_test::ld z) { return trnrand_test::normal_cdf(z); });
  EXPECT_LT(d, trnrand_test::kKsCritical);
}

TEST(SimDistributions, EngineWorkIsCountedAndBadParametersThrow) {
  std::vector<float> x(1 << 16);
  trncore::sim::NeuronCore core;
  trnrand::sim::normal(trnrand::make_stream(1), x, 0.0f, 1.0f, core);
  const auto& st = core.stats();
  // 2^15 pairs: two activations per uniform pair for r, two for cos/sin, on every element.
  EXPECT_EQ(st[trncore::sim::Engine::scalar].elements, 4 * (1 << 15));
  EXPECT_GT(st[trncore::sim::Engine::gpsimd].instructions, 0);
  EXPECT_GT(st[trncore::sim::Engine::vector].elements, 0);
  EXPECT_THROW(trnrand::sim::normal(trnrand::make_stream(1), x, 0.0f, -1.0f, core), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::sim::normal(trnrand::make_stream(1), x, NAN, 1.0f, core), trncore::InvalidArgument);
  std::vector<float> none;
  const auto s = trnrand::make_stream(5, 0, 7);
  EXPECT_EQ(trnrand::sim::normal(s, none, 0.0f, 1.0f, core), s);
  EXPECT_EQ(trnrand::sim::fill_uniform(s, none, trnrand::Interval::open_closed, core), s);
}

}  // namespace
