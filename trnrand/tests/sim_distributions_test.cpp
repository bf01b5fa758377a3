// The sim uniform and normal kernels on the NeuronCore model.
// - Uniform: bitwise equal to the host fill_uniform (every step of both is exact).
// - Normal: bitwise equal to normal_engine_order, the host evaluation of the kernel's fp32 instruction
//   sequence; within the bound derived from those roundings of the exact Box–Muller value of the same words
//   (oracle: Box–Muller in double from the words, ~2^-50 relative) and hence of the host normal(); its
//   transcendental steps are the correctly rounded values for every input the kernel can produce (oracle:
//   long double where it decides the rounding, else MPFR); its law passes Kolmogorov–Smirnov against Φ
//   (distribution_stats.hpp's decision rule).
// - Engine counters against a count by hand; bad arguments throw the documented errors and messages.
#include "distribution_stats.hpp"

#include <trncore/correctly_rounded.hpp>
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/stream.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

namespace {

// The thread count as options.
trncore::Options threads_option(int threads) { return trncore::Options{}.with_threads(threads); }

using trncore::sim::Engine;
using trncore::sim::NeuronCore;

constexpr std::size_t kTile = 128 * 512;

// Output sizes: empty, one, odd, the 128 × 512 layout's edges (one value per lane for both kernels; the
// 2·128·512 sizes are two-tile fills), partition counts 127/128/129 of full rows, and several tiles with a short tail.
const std::size_t kSizes[] = {0,
                              1,
                              2,
                              3,
                              5,
                              127,
                              128,
                              129,
                              511,
                              512,
                              513,
                              1023,
                              1024,
                              1025,
                              1027,
                              127 * 512,
                              kTile - 1,
                              kTile,
                              kTile + 1,
                              129 * 512,
                              2 * 127 * 512,
                              2 * kTile - 1,
                              2 * kTile,
                              2 * kTile + 1,
                              2 * kTile + 2,
                              2 * 129 * 512 + 1,
                              2 * kTile + 2 * 512 + 7};
constexpr std::size_t kBig = (std::size_t{1} << 20) + 3;

std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

TEST(SimDistributions, UniformEqualsTheHostBitForBitForOneAndTwoThreads) {
  std::vector<std::size_t> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.push_back(kBig);
  for (const std::size_t n : sizes)
    for (const auto interval : {trnrand::Interval::open_closed, trnrand::Interval::closed_open})
      for (const auto g : {trnrand::Generator::philox4x32_10, trnrand::Generator::threefry4x32_20}) {
        if (n == kBig && (g != trnrand::Generator::philox4x32_10 || interval != trnrand::Interval::open_closed))
          continue;
        const auto s = trnrand::make_stream(0x1234 + n, 3, n % 5, g);
        std::vector<float> sim(n);
        NeuronCore core;
        const auto sim_next = trnrand::sim::fill_uniform(s, sim, interval, core);
        for (const int threads : {1, 2}) {
          std::vector<float> host(n);
          const auto host_next = trnrand::fill_uniform(s, std::span<float>(host), interval, threads_option(threads));
          ASSERT_EQ(host_next, sim_next) << n;
          for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(bits(host[i]), bits(sim[i])) << n << " " << i << " threads " << threads;
        }
      }
}

struct Params {
  float mean, stddev;
};
// Standard, shifted/scaled, a large mean (the final add dominates), and stddev 0 (constant mean).
const Params kParams[] = {{0.0f, 1.0f}, {-3.5f, 0.25f}, {1e3f, 7.0f}, {2.0f, 0.0f}};

TEST(SimDistributions, NormalEqualsTheEngineOrderHostFunctionBitForBit) {
  std::vector<std::size_t> sizes(std::begin(kSizes), std::end(kSizes));
  sizes.push_back(kBig);
  for (const std::size_t n : sizes)
    for (const auto& [mean, stddev] : kParams)
      for (const auto g : {trnrand::Generator::philox4x32_10, trnrand::Generator::threefry4x32_20}) {
        // Beyond a few rows, the standard parameters with Philox only (the parameters act elementwise; the
        // small sizes cover them all with both generators).
        if (n > 1100 && (g != trnrand::Generator::philox4x32_10 || mean != 0.0f)) continue;
        const auto s = trnrand::make_stream(99 + n, 1, n % 3, g);
        std::vector<float> sim(n);
        NeuronCore core;
        const auto sim_next = trnrand::sim::normal(s, sim, mean, stddev, core);
        std::vector<float> reference(n);
        ASSERT_EQ(trnrand::normal(s, std::span<float>(reference), mean, stddev), sim_next)
            << "same stream position as normal()";
        for (const int threads : {1, 2}) {
          std::vector<float> host(n);
          ASSERT_EQ(trnrand::normal_engine_order(s, host, mean, stddev, threads_option(threads)), sim_next);
          for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(bits(host[i]), bits(sim[i])) << n << " " << i << " threads " << threads << " mean " << mean;
        }
      }
}

// The bound (docs/trnrand.md). With u = 2^-24, u1, u2 the value's two uniforms, r = √(−2 ln u1), θ = 2πu2:
//   a = ln u1·(1 + δ1); r̂ = fl(√(−2a)) = r·(1 + ε), |ε| ≤ u/2 + u + O(u²);
//   t = fl(fl(π)·2^-23·m) with π·2^-23·m = θ − π: |t − (θ − π)| ≤ |fl(π) − π| + u·π ≤ 1.4663u + 3.1416u = 4.608u;
//   ĉ = fl(cos t): |ĉ − cos(θ − π)| ≤ 4.608u + u (|cos′| ≤ 1, then one rounding of a value ≤ 1);
//   p = fl(ĉ·r̂), q = fl(p·(−σ)): two more relative roundings; out = fl(q + mean): u·|out|.
// Since cos(θ − π) = −cos θ, |out − (mean + σ·r·cos θ)| ≤ σ·r·(1.5u + 5.608u + 2u + O(u²)) + u·|out|, i.e.
// ≤ u·(9.11·σ·r + |out|); 2^-147 covers underflow of p, q for tiny σ·r (absolute
// errors ≤ 2^-150 each). The double reference errs by < 2^-45·(σ·r + |mean|), added too.
double bound(double stddev, double r, double mean, double out) {
  return 0x1p-24 * (9.11 * stddev * r + std::fabs(out)) + 0x1p-147 + 0x1p-45 * (stddev * r + std::fabs(mean));
}

TEST(SimDistributions, NormalIsWithinTheDerivedBoundOfTheExactBoxMullerAndOfTheHost) {
  const std::size_t n = std::size_t{1} << 19;
  for (const auto& [mean, stddev] : kParams) {
    const auto s = trnrand::make_stream(4242, 9, 1);
    std::vector<float> sim(n), host(n);
    NeuronCore core;
    trnrand::sim::normal(s, sim, mean, stddev, core);
    trnrand::normal(s, std::span<float>(host), mean, stddev);
    std::vector<std::uint32_t> w(2 * n);  // value i: words 2i (u1) and 2i + 1 (u2)
    trnrand::fill_uint32(s, w);
    double worst = 0, worst_host = 0, worst_ulp = 0;
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double u1 = ((w[2 * i] >> 8) + 1) * 0x1p-24, u2 = (w[2 * i + 1] >> 8) * 0x1p-24;
      const double r = std::sqrt(-2 * std::log(u1)), theta = 2 * std::numbers::pi * u2;
      const double z = mean + stddev * r * std::cos(theta);
      const double e = std::fabs(sim[i] - z), b = bound(stddev, r, mean, sim[i]);
      ASSERT_LE(e, b) << "mean " << mean << " stddev " << stddev << " i " << i;
      // The host rounds z (to within 2^-45) once: |host − z| ≤ u·|host|.
      ASSERT_LE(std::fabs(static_cast<double>(sim[i]) - host[i]), b + 0x1p-24 * std::fabs(host[i])) << i;
      if (stddev > 0 && r > 0) {
        worst = std::max(worst, (e - 0x1p-24 * std::fabs(sim[i])) / (0x1p-24 * stddev * r));
        const double d = std::fabs(static_cast<double>(sim[i]) - host[i]);
        worst_host = std::max(worst_host, d / (0x1p-24 * stddev * r));
        worst_ulp = std::max(worst_ulp, d / std::ldexp(1.0, std::max(std::ilogb(host[i]), -126) - 23));
      }
      differ += bits(sim[i]) != bits(host[i]);
    }
    std::printf(
        "mean %g stddev %g: max (|sim - z| - u|sim|)/(u*stddev*r) = %.2f (bound 9.11); vs normal(): max |sim - host| = "
        "%.2f u*stddev*r = %.0f ulp(host), %.1f%% of values differ\n",
        mean, stddev, worst, worst_host, worst_ulp, 100.0 * static_cast<double>(differ) / n);
    if (stddev > 0) {
      EXPECT_GT(differ, 0U) << "fp32 steps cannot reproduce the double evaluation everywhere";
    } else {
      EXPECT_EQ(differ, 0U) << "stddev 0: both are exactly mean";
    }
  }
}

// f(x) correctly rounded to float: long double f where its ±2^-60 interval decides the rounding (glibc's
// long-double functions err by a few 2^-64), else MPFR at 200 bits.
float correct(int f, float x) {
  const long double v = static_cast<long double>(x);
  const long double y = f == 0 ? std::log(v) : f == 1 ? std::cos(v) : std::sin(v);
  const float r = static_cast<float>(y);
  const long double lo = (static_cast<long double>(r) + std::nextafter(r, -INFINITY)) / 2;
  const long double hi = (static_cast<long double>(r) + std::nextafter(r, INFINITY)) / 2;
  const long double e = std::fabs(y) * 0x1p-60L;
  if (y == 0 || (y - e > lo && y + e < hi)) return r;
  mpfr_t m;
  mpfr_init2(m, 200);
  mpfr_set_flt(m, x, MPFR_RNDN);
  if (f == 0)
    mpfr_log(m, m, MPFR_RNDN);
  else if (f == 1)
    mpfr_cos(m, m, MPFR_RNDN);
  else
    mpfr_sin(m, m, MPFR_RNDN);
  const float out = mpfr_get_flt(m, MPFR_RNDN);
  mpfr_clear(m);
  return out;
}

// Every value the kernel can feed to log (2^-24·k1, k1 = 1 … 2^24) and to cos (fl(fl(π)·2^-23·m),
// m = −2^23 … 2^23 − 1) gives the correctly rounded result: the normal's bits are a function of the words
// and IEEE-defined operations only, reproducible with any correctly rounded libm. (sin on the same
// arguments too: the kernel's first version used the sine half, and the ScalarEngine model offers it.)
TEST(SimDistributions, TheKernelsTranscendentalStepsAreCorrectlyRoundedOnTheirWholeDomain) {
  const float arg_scale = std::numbers::pi_v<float> * 0x1p-23f;
  std::size_t checked = 0;
  for (std::uint32_t k = 1; k <= (1u << 24); ++k) {
    const float u = static_cast<float>(k) * 0x1p-24f;
    ASSERT_EQ(bits(trncore::cr_log(u)), bits(correct(0, u))) << std::hexfloat << u;
    const auto m = static_cast<float>(static_cast<std::int32_t>(k - 1) - (1 << 23));
    const float t = m * arg_scale + 0.0f;
    ASSERT_EQ(bits(trncore::cr_cos(t)), bits(correct(1, t))) << std::hexfloat << t;
    ASSERT_EQ(bits(trncore::cr_sin(t)), bits(correct(2, t))) << std::hexfloat << t;
    ++checked;
  }
  EXPECT_EQ(checked, std::size_t{1} << 24);
}

TEST(SimDistributions, NormalPassesKolmogorovSmirnovAgainstPhi) {
  for (const auto g : {trnrand::Generator::philox4x32_10, trnrand::Generator::threefry4x32_20}) {
    std::vector<float> x(trnrand_test::kN);
    NeuronCore core;
    trnrand::sim::normal(trnrand::make_stream(2026, 0, 0, g), x, 0.0f, 1.0f, core);
    const double d = trnrand_test::ks(x, [](trnrand_test::ld z) { return trnrand_test::normal_cdf(z); });
    EXPECT_LT(d, trnrand_test::kKsCritical) << trnrand::to_string(g);
  }
}

// Instructions and elements by hand for n = 128·512 + 512 + 1 values: tiles of 128 × 512, 1 × 512, 1 × 1.
// Per tile: GpSimd 4 integer ops (two shifts, add, subtract); Vector 5 (two int→fp32 copies, ×r, ×(−σ),
// +mean); Scalar 3 (log, sqrt, cos); DMA 3 (two word loads, one result store: 12 bytes per value); plus one
// GpSimd iota per constant (8, 1, 2^23) per tile shape. The generator's own work (2n words) is measured
// separately.
TEST(SimDistributions, NormalEngineWorkMatchesACountByHand) {
  const std::int64_t n = 128 * 512 + 512 + 1, tiles = 3;
  const auto s = trnrand::make_stream(7);
  NeuronCore gen;
  std::vector<std::uint32_t> w(static_cast<std::size_t>(2 * n));
  trnrand::sim::fill_uint32(s, w, gen);
  NeuronCore core;
  std::vector<float> x(static_cast<std::size_t>(n));
  trnrand::sim::normal(s, x, 0.0f, 1.0f, core);
  const auto& st = core.stats();
  const auto& g = gen.stats();
  EXPECT_EQ(st[Engine::scalar].instructions, 3 * tiles);
  EXPECT_EQ(st[Engine::scalar].elements, 3 * n);
  EXPECT_EQ(st[Engine::vector].instructions, 5 * tiles);
  EXPECT_EQ(st[Engine::vector].elements, 5 * n);
  EXPECT_EQ(st[Engine::gpsimd].instructions - g[Engine::gpsimd].instructions, 4 * tiles + 3 * tiles);
  EXPECT_EQ(st[Engine::gpsimd].elements - g[Engine::gpsimd].elements, 4 * n + 3 * n);
  EXPECT_EQ(st[Engine::dma].instructions - g[Engine::dma].instructions, 3 * tiles);
  EXPECT_EQ(st[Engine::dma].bytes - g[Engine::dma].bytes, 12 * n);
  EXPECT_EQ(st[Engine::tensor].instructions, 0);
}

TEST(SimDistributions, EmptyOutputsDoNoWorkAndBadArgumentsThrow) {
  NeuronCore core;
  std::vector<float> none;
  const auto s = trnrand::make_stream(5, 0, 7);
  EXPECT_EQ(trnrand::sim::normal(s, none, 0.0f, 1.0f, core), s);
  EXPECT_EQ(trnrand::sim::fill_uniform(s, none, trnrand::Interval::open_closed, core), s);
  EXPECT_EQ(trnrand::normal_engine_order(s, none, 0.0f, 1.0f), s);
  EXPECT_EQ(core.stats()[Engine::gpsimd].instructions, 0);
  EXPECT_EQ(core.stats()[Engine::dma].instructions, 0);

  std::vector<float> x(10);
  const float inf = INFINITY, nan = NAN;
  for (const auto& c : {std::tuple{0.0f, -1.0f, "stddev = -1"}, std::tuple{0.0f, nan, "stddev = nan"},
                        std::tuple{0.0f, inf, "stddev = inf"}, std::tuple{nan, 1.0f, "mean = nan"},
                        std::tuple{-inf, 1.0f, "mean = -inf"}}) {
    // Named copies, not a structured binding: Clang before 16 cannot capture bindings in a lambda.
    const float mean = std::get<0>(c), stddev = std::get<1>(c);
    const char* const what = std::get<2>(c);
    const std::string sim = trnsci_testing::message_of([&] { trnrand::sim::normal(s, x, mean, stddev, core); });
    EXPECT_EQ(sim.rfind("trnrand::sim::normal: ", 0), 0U) << sim;
    EXPECT_NE(sim.find(what), std::string::npos) << sim;
    EXPECT_THROW(trnrand::sim::normal(s, x, mean, stddev, core), trncore::InvalidArgument);
    const std::string host = trnsci_testing::message_of([&] { trnrand::normal_engine_order(s, x, mean, stddev); });
    EXPECT_EQ(host.rfind("trnrand::normal_engine_order: ", 0), 0U) << host;
    EXPECT_NE(host.find(what), std::string::npos) << host;
    EXPECT_THROW(trnrand::normal_engine_order(s, x, mean, stddev), trncore::InvalidArgument);
  }
  const auto bad_interval = static_cast<trnrand::Interval>(7);
  const std::string m = trnsci_testing::message_of([&] { trnrand::sim::fill_uniform(s, x, bad_interval, core); });
  EXPECT_EQ(m.rfind("trnrand::sim::fill_uniform: interval = 7 is not an Interval", 0), 0U) << m;
  EXPECT_THROW(trnrand::sim::fill_uniform(s, x, bad_interval, core), trncore::InvalidArgument);

  // A core whose SBUF is almost full cannot hold the working tiles.
  NeuronCore full;
  const std::int64_t per_partition = full.spec().sbuf_bytes_per_partition;
  trncore::sim::Tile hog = full.sbuf("hog", 128, per_partition / 4 - 1024, trncore::sim::DType::fp32);
  std::vector<float> big(kTile);
  EXPECT_THROW(trnrand::sim::normal(s, big, 0.0f, 1.0f, full), trncore::ResourceExhausted);
  EXPECT_THROW(trnrand::sim::fill_uniform(s, big, trnrand::Interval::open_closed, full), trncore::ResourceExhausted);
}

}  // namespace
