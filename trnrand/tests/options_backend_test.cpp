// trncore::Options in trnrand (0.5): the backend chosen by options.backend (the sim kernels on a core the
// call makes, bitwise what the explicit trnrand::sim entry points give, for any thread count), the calls
// without a sim kernel refusing Backend::sim by name, results independent of options.threads for every
// sampler, and the QMC options structs.
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trncore/sim/neuron_core.hpp>
#include <trnrand/trnrand.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

using trncore::Backend;
using trnrand::Generator;
using trnrand::Interval;
using trnrand::Stream;

trncore::Options sim_options(int threads) {
  trncore::Options o;
  o.backend = Backend::sim;
  o.threads = threads;
  return o;
}

trncore::Options host_options(int threads) { return trncore::Options{}.with_threads(threads); }

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

constexpr Generator kGenerators[] = {Generator::philox4x32_10, Generator::threefry4x32_20};

// Options::backend = sim runs trnrand::sim::fill_uint32 on a core of its own: the same words and the same
// returned stream as the explicit entry point on a caller's core, whatever options.threads says (the sim
// path ignores it) and whatever the generation (the words do not depend on it).
TEST(OptionsBackend, SimFillUint32IsTheSimEntryPointForAnyThreadCount) {
  for (const Generator g : kGenerators)
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{70001}}) {
      const Stream s = trnrand::make_stream(0x1234'5678'9abcull, 3, 5, g);
      trncore::sim::NeuronCore core;
      std::vector<std::uint32_t> reference(n);
      const Stream reference_next = trnrand::sim::fill_uint32(s, reference, core);
      for (const int threads : {0, 1, 2, 3}) {
        std::vector<std::uint32_t> out(n);
        EXPECT_EQ(trnrand::fill_uint32(s, out, sim_options(threads)), reference_next);
        EXPECT_TRUE(same_bits(out, reference)) << "n " << n << " threads " << threads;
      }
      trncore::Options trn1 = sim_options(2);
      trn1.generation = trncore::sim::Generation::trn1;
      std::vector<std::uint32_t> out(n), host(n);
      trnrand::fill_uint32(s, out, trn1);
      EXPECT_TRUE(same_bits(out, reference));
      trnrand::fill_uint32(s, host);  // and the host's words, as the sim kernel promises
      EXPECT_TRUE(same_bits(host, reference));
    }
}

// fill_uint64 on sim pairs the sim words: the host's values.
TEST(OptionsBackend, SimFillUint64PairsTheSimWords) {
  for (const Generator g : kGenerators) {
    const Stream s = trnrand::make_stream(77, 1, 3, g);
    trncore::sim::NeuronCore core;
    std::vector<std::uint32_t> words(2 * 4099);
    trnrand::sim::fill_uint32(s, words, core);
    for (const int threads : {1, 3}) {
      std::vector<std::uint64_t> out(4099), host(4099);
      EXPECT_EQ(trnrand::fill_uint64(s, out, sim_options(threads)), trnrand::skip_ahead(s, words.size()));
      trnrand::fill_uint64(s, host, host_options(threads));
      for (std::size_t j = 0; j < out.size(); ++j)
        ASSERT_EQ(out[j], words[2 * j] | (std::uint64_t{words[2 * j + 1]} << 32)) << j;
      EXPECT_TRUE(same_bits(out, host));
    }
  }
}

TEST(OptionsBackend, SimUniformAndNormalAreTheSimEntryPoints) {
  for (const Generator g : kGenerators)
    for (const std::size_t n : {std::size_t{1}, std::size_t{513}, std::size_t{66000}}) {
      const Stream s = trnrand::make_stream(2026, 9, 1, g);
      for (const Interval interval : {Interval::open_closed, Interval::closed_open}) {
        trncore::sim::NeuronCore core;
        std::vector<float> reference(n);
        const Stream next = trnrand::sim::fill_uniform(s, reference, interval, core);
        for (const int threads : {0, 1, 2}) {
          std::vector<float> out(n);
          EXPECT_EQ(trnrand::fill_uniform(s, std::span<float>(out), interval, sim_options(threads)), next);
          EXPECT_TRUE(same_bits(out, reference)) << "n " << n << " threads " << threads;
        }
      }
      trncore::sim::NeuronCore core;
      std::vector<float> reference(n);
      const Stream next = trnrand::sim::normal(s, reference, 1.5f, 0.25f, core);
      for (const int threads : {0, 1, 3}) {
        std::vector<float> out(n), engine_order(n), engine_order_sim(n);
        EXPECT_EQ(trnrand::normal(s, std::span<float>(out), 1.5f, 0.25f, sim_options(threads)), next);
        EXPECT_TRUE(same_bits(out, reference)) << "n " << n << " threads " << threads;
        EXPECT_EQ(trnrand::normal_engine_order(s, engine_order_sim, 1.5f, 0.25f, sim_options(threads)), next);
        EXPECT_TRUE(same_bits(engine_order_sim, reference));
        trnrand::normal_engine_order(s, engine_order, 1.5f, 0.25f, host_options(threads));
        EXPECT_TRUE(same_bits(engine_order, reference));
      }
    }
}

// The sim path checks its arguments as the host path does, naming the public function.
TEST(OptionsBackend, SimPathChecksLikeTheHostPath) {
  const Stream s = trnrand::make_stream(1);
  std::vector<float> f(4);
  try {
    trnrand::normal(s, std::span<float>(f), 0.0f, -1.0f, sim_options(0));
    ADD_FAILURE() << "no exception";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_EQ(e.function(), "trnrand::normal");
  }
  try {
    trnrand::fill_uniform(s, std::span<float>(f), static_cast<Interval>(5), sim_options(0));
    ADD_FAILURE() << "no exception";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_EQ(e.function(), "trnrand::fill_uniform");
  }
  try {
    std::vector<std::uint32_t> w(3);
    trnrand::fill_uint32(s, w, sim_options(-1));
    ADD_FAILURE() << "no exception";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_EQ(e.function(), "trnrand::fill_uint32");
  }
}

// Every call without an engine kernel refuses Backend::sim with NotSupported naming itself and saying
// what to use instead; nothing is written.
TEST(OptionsBackend, CallsWithoutASimKernelRefuseSimByName) {
  const Stream s = trnrand::make_stream(4);
  const trncore::Options sim = sim_options(0);
  std::vector<double> d(4, -7.0);
  std::vector<float> f(4);
  std::vector<std::int64_t> k(4);
  std::vector<std::uint8_t> b(4);
  const std::vector<double> mean{0.0, 0.0}, L{1.0, 0.0, 0.5, 1.0}, u{0.1, 0.2, 0.3, 0.4};
  const trnrand::AliasTable table(std::vector<double>{1, 2});
  trnrand::SobolOptions sobol;
  sobol.backend = Backend::sim;
  trnrand::HaltonOptions halton;
  halton.backend = Backend::sim;
  trnrand::LatinHypercubeOptions lhs;
  lhs.backend = Backend::sim;
  const std::vector<std::pair<std::string, std::function<void()>>> calls{
      {"trnrand::fill_uniform", [&] { trnrand::fill_uniform(s, std::span<double>(d), Interval::open_closed, sim); }},
      {"trnrand::normal", [&] { trnrand::normal(s, std::span<double>(d), 0.0, 1.0, sim); }},
      {"trnrand::lognormal", [&] { trnrand::lognormal(s, std::span<float>(f), 0.0f, 1.0f, sim); }},
      {"trnrand::exponential", [&] { trnrand::exponential(s, std::span<double>(d), 1.0, sim); }},
      {"trnrand::bernoulli", [&] { trnrand::bernoulli(s, b, 0.5, sim); }},
      {"trnrand::randint", [&] { trnrand::randint(s, k, 0, 9, sim); }},
      {"trnrand::randperm", [&] { trnrand::randperm(s, k, sim); }},
      {"trnrand::gamma", [&] { trnrand::gamma(s, std::span<double>(d), 2.0, 1.0, sim); }},
      {"trnrand::poisson", [&] { trnrand::poisson(s, k, 3.0, sim); }},
      {"trnrand::beta", [&] { trnrand::beta(s, std::span<double>(d), 2.0, 3.0, sim); }},
      {"trnrand::chi_squared", [&] { trnrand::chi_squared(s, std::span<float>(f), 2.0f, sim); }},
      {"trnrand::student_t", [&] { trnrand::student_t(s, std::span<double>(d), 3.0, sim); }},
      {"trnrand::binomial", [&] { trnrand::binomial(s, k, 10, 0.5, sim); }},
      {"trnrand::geometric", [&] { trnrand::geometric(s, k, 0.5, sim); }},
      {"trnrand::AliasTable::sample", [&] { table.sample(s, k, sim); }},
      {"trnrand::categorical",
       [&] {
         trnrand::categorical(s, k, std::vector<double>{1.0, 1.0}, sim);
       }},
      {"trnrand::truncated_normal",
       [&] { trnrand::truncated_normal(s, std::span<double>(d), 0.0, 1.0, -1.0, 1.0, sim); }},
      {"trnrand::multivariate_normal", [&] { trnrand::multivariate_normal(s, std::span<double>(d), mean, L, sim); }},
      {"trnrand::normal_icdf", [&] { trnrand::normal_icdf(u, d, sim); }},
      {"trnrand::Sobol", [&] { trnrand::Sobol seq(2, sobol); }},
      {"trnrand::Halton", [&] { trnrand::Halton seq(2, halton); }},
      {"trnrand::halton", [&] { trnrand::halton(2, 2, d, halton); }},
      {"trnrand::latin_hypercube", [&] { trnrand::latin_hypercube(2, 2, d, lhs); }},
  };
  for (const auto& [name, call] : calls) {
    try {
      call();
      ADD_FAILURE() << name << ": no exception";
    } catch (const trncore::NotSupported& e) {
      EXPECT_EQ(e.function(), name) << e.what();
      EXPECT_NE(std::string(e.what()).find("Backend::sim"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("Backend::host"), std::string::npos) << e.what();
    }
  }
  for (const double x : d) EXPECT_EQ(x, -7.0);
}

// Every sampler splits its samples over options.threads; sample i reads only its own words, so one, two,
// three and the default number of threads give the same bits and the same returned stream. n is large
// enough that trncore's for_aligned_ranges really splits (more than 2^16 samples per thread).
template <class T, class F>
void expect_thread_independent(const char* name, std::size_t n, F&& fill) {
  std::vector<T> one(n);
  const Stream next = fill(std::span<T>(one), host_options(1));
  for (const int threads : {2, 0}) {
    std::vector<T> many(n);
    EXPECT_EQ(fill(std::span<T>(many), host_options(threads)), next) << name << " threads " << threads;
    EXPECT_TRUE(same_bits(one, many)) << name << " threads " << threads;
  }
}

TEST(OptionsThreads, EverySamplerGivesTheSameBitsForAnyThreadCount) {
  constexpr std::size_t n = (std::size_t{2} << 16) + 11;  // two threads get a range each
  for (const Generator g : kGenerators) {
    const Stream s = trnrand::make_stream(31337, 2, 9, g);
    using O = const trncore::Options&;
    expect_thread_independent<float>("normal f", n,
                                     [&](std::span<float> o, O opt) { return trnrand::normal(s, o, 1.0f, 2.0f, opt); });
    expect_thread_independent<double>("normal d", n,
                                      [&](std::span<double> o, O opt) { return trnrand::normal(s, o, 1.0, 2.0, opt); });
    expect_thread_independent<double>(
        "lognormal", n, [&](std::span<double> o, O opt) { return trnrand::lognormal(s, o, 0.0, 0.5, opt); });
    expect_thread_independent<float>("exponential", n,
                                     [&](std::span<float> o, O opt) { return trnrand::exponential(s, o, 2.0f, opt); });
    expect_thread_independent<std::uint8_t>(
        "bernoulli", n, [&](std::span<std::uint8_t> o, O opt) { return trnrand::bernoulli(s, o, 0.3, opt); });
    expect_thread_independent<std::int64_t>(
        "geometric", n, [&](std::span<std::int64_t> o, O opt) { return trnrand::geometric(s, o, 0.01, opt); });
    expect_thread_independent<std::int64_t>(
        "randint", n, [&](std::span<std::int64_t> o, O opt) { return trnrand::randint(s, o, -5, 1000003, opt); });
    expect_thread_independent<double>("gamma", n,
                                      [&](std::span<double> o, O opt) { return trnrand::gamma(s, o, 0.7, 2.0, opt); });
    expect_thread_independent<std::int64_t>(
        "poisson", n, [&](std::span<std::int64_t> o, O opt) { return trnrand::poisson(s, o, 42.0, opt); });
    expect_thread_independent<std::int64_t>(
        "binomial", n, [&](std::span<std::int64_t> o, O opt) { return trnrand::binomial(s, o, 1000, 0.3, opt); });
    expect_thread_independent<float>("beta", n,
                                     [&](std::span<float> o, O opt) { return trnrand::beta(s, o, 0.5f, 2.0f, opt); });
    expect_thread_independent<double>("student_t", n,
                                      [&](std::span<double> o, O opt) { return trnrand::student_t(s, o, 1.5, opt); });
    expect_thread_independent<double>("truncated_normal", n, [&](std::span<double> o, O opt) {
      return trnrand::truncated_normal(s, o, 0.0, 1.0, 1.0, 3.0, opt);
    });
    const trnrand::AliasTable table(std::vector<double>{0.5, 1.0, 2.5, 0.0, 3.0});
    expect_thread_independent<std::int64_t>("AliasTable::sample", n,
                                            [&](std::span<std::int64_t> o, O opt) { return table.sample(s, o, opt); });
    const std::vector<double> mean{1.0, -1.0, 0.0}, L{1.0, 0.0, 0.0, 0.5, 2.0, 0.0, -1.0, 0.25, 0.75};
    expect_thread_independent<double>("multivariate_normal", 3 * n, [&](std::span<double> o, O opt) {
      return trnrand::multivariate_normal(s, o, mean, L, opt);
    });
    expect_thread_independent<float>("normal_engine_order", n, [&](std::span<float> o, O opt) {
      return trnrand::normal_engine_order(s, o, -1.0f, 3.0f, opt);
    });
  }
  std::vector<double> u(std::size_t{3} << 16), one(u.size()), many(u.size());
  trnrand::fill_uniform(trnrand::make_stream(5), std::span<double>(u));
  trnrand::normal_icdf(u, one, host_options(1));
  trnrand::normal_icdf(u, many, host_options(3));
  EXPECT_TRUE(same_bits(one, many));
}

// Latin hypercube samples split their dimensions over threads: the same sample for any count.
TEST(OptionsThreads, LatinHypercubeIsTheSameForAnyThreadCount) {
  trnrand::LatinHypercubeOptions options;
  options.seed = 99;
  const auto one = trnrand::latin_hypercube(1000, 7, options);
  for (const int threads : {2, 3, 5, 8, 0}) {
    options.threads = threads;
    EXPECT_TRUE(same_bits(one, trnrand::latin_hypercube(1000, 7, options))) << threads;
  }
}

// The QMC options structs: a plain trncore::Options converts (the sequence's own fields at their defaults),
// the base setters chain on the package's struct, and the defaults are the plain sequence.
TEST(OptionsStructs, ConvertChainAndDefault) {
  const trnrand::SobolOptions from_base = trncore::Options{}.with_threads(3).with_seed(5);
  EXPECT_EQ(from_base.threads, 3);
  EXPECT_EQ(from_base.seed, 5u);
  EXPECT_EQ(from_base.scramble, trnrand::SobolScramble::none);
  trnrand::HaltonOptions chained;
  chained.scramble = trnrand::HaltonScramble::random_permutation;
  const trnrand::HaltonOptions kept = chained.with_seed(4).with_threads(1);
  EXPECT_EQ(kept.scramble, trnrand::HaltonScramble::random_permutation);
  EXPECT_EQ(kept.seed, 4u);
  trnrand::LatinHypercubeOptions lhs;
  lhs.centered = true;
  EXPECT_TRUE(lhs.with_seed(3).centered);
  const trnrand::SobolOptions defaults{};
  EXPECT_EQ(defaults.scramble, trnrand::SobolScramble::none);
  EXPECT_EQ(defaults.seed, 0u);
  EXPECT_EQ(defaults.skip, 0);
  EXPECT_EQ(defaults.backend, Backend::host);
  const Stream s = trnrand::make_stream(8, 1);
  std::vector<std::uint64_t> q(100);
  try {
    trnrand::fill_uint64(s, q, host_options(-4));
    ADD_FAILURE() << "no exception";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_EQ(e.function(), "trnrand::fill_uint64");
    EXPECT_NE(std::string(e.what()).find("threads = -4"), std::string::npos);
  }
}

}  // namespace
