// The partitioning guarantee for every fill and distribution (docs/trnrand.md, "Partitioning guarantee"):
// value i of a fill is a pure function of the stream and of i (its words are b·i … b·i + b − 1 after the
// stream's offset, b the sampler's word budget), so splitting a fill of n values into slices that start
// anywhere — odd values, lengths 0, 1 and primes, the slices of partition(n, P, r) — and filling slice
// [begin, end) from skip_ahead(s, b·begin) concatenates to the single fill bit for bit, from any stream
// offset (0, 1, 2, 3, odd, prime). The oracle is the single fill itself; the property is exact, so the
// comparison is bitwise. Fills that take a thread count also give the same bits for 1 and 2 threads.
//
// And the argument contract (docs/trncore.md, "Certificates: the contract every package keeps"): every
// entry point refuses a negative thread count and an invalid enum value (Generator, Interval) with
// trncore::InvalidArgument naming itself.
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/stream.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

// The thread count as options.
trncore::Options threads_option(int threads) { return trncore::Options{}.with_threads(threads); }

using trnrand::Generator;
using trnrand::Stream;

constexpr std::uint64_t kWindow = std::uint64_t{1} << 32;

// Slice lengths cycled over the fill: 0 and 1 (every start parity), primes, and a slice that starts at an
// odd value right after a length-1 slice.
constexpr std::size_t kLengths[] = {0, 1, 1, 2, 0, 3, 1, 7, 0, 13, 1, 5, 2, 11, 1, 0, 17};
// Stream offsets of the single fill: 0, 1, 2, 3, an odd one and a prime.
constexpr std::uint64_t kOffsets[] = {0, 1, 2, 3, 9, 101};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// fill(stream, span) -> stream after; `budget` words per value; `n` values in the single fill.
template <class T>
void check_slices(const std::string& what, std::uint64_t budget, std::size_t n,
                  const std::function<Stream(Stream, std::span<T>)>& fill,
                  std::span<const std::uint64_t> offsets = kOffsets) {
  for (const Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20})
    for (const std::uint64_t offset : offsets) {
      const Stream s = trnrand::make_stream(0x5EED + offset, 3, offset, g);
      std::vector<T> whole(n);
      const Stream after = fill(s, std::span<T>(whole));
      ASSERT_EQ(after, trnrand::skip_ahead(s, budget * n)) << what;
      // Cycled slice lengths.
      std::vector<T> joined;
      std::size_t begin = 0;
      for (std::size_t k = 0; begin < n; ++k) {
        const std::size_t count = std::min(kLengths[k % std::size(kLengths)], n - begin);
        std::vector<T> part(count);
        const Stream part_after = fill(trnrand::skip_ahead(s, budget * begin), std::span<T>(part));
        ASSERT_EQ(part_after, trnrand::skip_ahead(s, budget * (begin + count))) << what << " slice at " << begin;
        joined.insert(joined.end(), part.begin(), part.end());
        begin += count;
      }
      ASSERT_TRUE(same_bits(joined, whole)) << what << ", " << trnrand::to_string(g) << ", offset " << offset;
      // partition() over 2, 3 and 7 workers.
      for (const std::int64_t workers : {2, 3, 7}) {
        std::vector<T> parts;
        for (std::int64_t r = 0; r < workers; ++r) {
          const trnrand::Slice slice = trnrand::partition(n, workers, r);
          std::vector<T> part(slice.count);
          fill(trnrand::skip_ahead(s, budget * slice.begin), std::span<T>(part));
          parts.insert(parts.end(), part.begin(), part.end());
        }
        ASSERT_TRUE(same_bits(parts, whole)) << what << ", " << workers << " workers, offset " << offset;
      }
    }
}

// Values of the fills below: enough for every slice length and start parity to occur several times.
constexpr std::size_t kN = 97;

TEST(Partition, WordFillsAndUniformsConcatenateToTheSingleFill) {
  check_slices<std::uint32_t>("fill_uint32", 1, kN,
                              [](Stream s, std::span<std::uint32_t> o) { return trnrand::fill_uint32(s, o); });
  check_slices<std::uint64_t>("fill_uint64", 2, kN,
                              [](Stream s, std::span<std::uint64_t> o) { return trnrand::fill_uint64(s, o); });
  for (const auto interval : {trnrand::Interval::open_closed, trnrand::Interval::closed_open}) {
    check_slices<float>("fill_uniform float", 1, kN,
                        [=](Stream s, std::span<float> o) { return trnrand::fill_uniform(s, o, interval); });
    check_slices<double>("fill_uniform double", 2, kN,
                         [=](Stream s, std::span<double> o) { return trnrand::fill_uniform(s, o, interval); });
  }
}

// The case: normal() sliced at an odd value gave other values than one fill (333 of 1000 differed).
TEST(Partition, NormalsSlicedAnywhereConcatenateToTheSingleFill) {
  check_slices<float>("normal float", 2, kN,
                      [](Stream s, std::span<float> o) { return trnrand::normal(s, o, 1.5f, 2.0f); });
  check_slices<double>("normal double", 4, kN,
                       [](Stream s, std::span<double> o) { return trnrand::normal(s, o, -1.0, 0.5); });
  check_slices<float>("lognormal float", 2, kN,
                      [](Stream s, std::span<float> o) { return trnrand::lognormal(s, o, 0.0f, 1.0f); });
  check_slices<double>("lognormal double", 4, kN,
                       [](Stream s, std::span<double> o) { return trnrand::lognormal(s, o, 0.5, 0.25); });
  check_slices<float>("normal_engine_order", 2, kN, [](Stream s, std::span<float> o) {
    return trnrand::normal_engine_order(s, o, 3.0f, 0.5f, threads_option(1));
  });
  // The exact numbers: 1000 float normals, slices of partition(1000, 3, r) start at values 334, 667.
  const Stream s = trnrand::make_stream(18);
  std::vector<float> whole(1000), joined;
  trnrand::normal(s, std::span<float>(whole));
  for (std::int64_t r = 0; r < 3; ++r) {
    const trnrand::Slice slice = trnrand::partition(1000, 3, r);
    std::vector<float> part(slice.count);
    trnrand::normal(trnrand::skip_ahead(s, 2 * slice.begin), std::span<float>(part));
    joined.insert(joined.end(), part.begin(), part.end());
  }
  EXPECT_TRUE(same_bits(joined, whole));
}

// Multivariate normal: row r uses the d normals r·d … r·d + d − 1, so rows slice like values with a budget
// of d normals (odd d: rows start at odd normals).
TEST(Partition, MultivariateNormalRowsSlicedAnywhereConcatenate) {
  const std::vector<double> mean{1.0, -2.0, 0.5};
  const std::vector<double> L{2.0, 0, 0, 0.5, 1.0, 0, -0.25, 0.125, 3.0};
  const std::vector<float> meanf(mean.begin(), mean.end()), Lf(L.begin(), L.end());
  constexpr std::size_t d = 3;
  // Rows as values: a span of whole rows. The harness slices values, so wrap rows as struct-free arrays.
  for (const std::uint64_t per_normal : {2u, 4u}) {
    for (const std::uint64_t offset : kOffsets) {
      const Stream s = trnrand::make_stream(77, 0, offset);
      const std::size_t rows = 31;
      std::vector<double> whole(rows * d), joined;
      std::vector<float> wholef(rows * d), joinedf;
      if (per_normal == 4)
        trnrand::multivariate_normal(s, std::span<double>(whole), mean, L);
      else
        trnrand::multivariate_normal(s, std::span<float>(wholef), meanf, Lf);
      std::size_t begin = 0;
      for (std::size_t k = 0; begin < rows; ++k) {
        const std::size_t count = std::min(kLengths[k % std::size(kLengths)], rows - begin);
        const Stream at = trnrand::skip_ahead(s, per_normal * d * begin);
        if (per_normal == 4) {
          std::vector<double> part(count * d);
          const Stream after = trnrand::multivariate_normal(at, std::span<double>(part), mean, L);
          EXPECT_EQ(after, trnrand::skip_ahead(at, per_normal * d * count));
          joined.insert(joined.end(), part.begin(), part.end());
        } else {
          std::vector<float> part(count * d);
          const Stream after = trnrand::multivariate_normal(at, std::span<float>(part), meanf, Lf);
          EXPECT_EQ(after, trnrand::skip_ahead(at, per_normal * d * count));
          joinedf.insert(joinedf.end(), part.begin(), part.end());
        }
        begin += count;
      }
      if (per_normal == 4)
        EXPECT_TRUE(same_bits(joined, whole)) << "offset " << offset;
      else
        EXPECT_TRUE(same_bits(joinedf, wholef)) << "offset " << offset;
    }
  }
}

TEST(Partition, FixedBudgetSamplersConcatenateToTheSingleFill) {
  check_slices<float>("exponential float", 1, kN,
                      [](Stream s, std::span<float> o) { return trnrand::exponential(s, o, 2.0f); });
  check_slices<double>("exponential double", 2, kN,
                       [](Stream s, std::span<double> o) { return trnrand::exponential(s, o, 0.5); });
  check_slices<std::uint8_t>("bernoulli", 2, kN,
                             [](Stream s, std::span<std::uint8_t> o) { return trnrand::bernoulli(s, o, 0.3); });
  check_slices<std::int64_t>("geometric", 2, kN,
                             [](Stream s, std::span<std::int64_t> o) { return trnrand::geometric(s, o, 0.05); });
  const trnrand::AliasTable table(std::vector<double>{1, 2, 3, 0, 4, 0.5, 7});
  check_slices<std::int64_t>("AliasTable::sample", 2, kN,
                             [&](Stream s, std::span<std::int64_t> o) { return table.sample(s, o); });
  check_slices<std::int64_t>("categorical", 2, kN, [](Stream s, std::span<std::int64_t> o) {
    return trnrand::categorical(s, o, std::vector<double>{0.25, 0.5, 0.25});
  });
}

TEST(Partition, WindowSamplersConcatenateToTheSingleFill) {
  check_slices<std::int64_t>("randint", kWindow, kN,
                             [](Stream s, std::span<std::int64_t> o) { return trnrand::randint(s, o, -5, 1000003); });
  check_slices<std::int64_t>("randint full range", kWindow, kN, [](Stream s, std::span<std::int64_t> o) {
    return trnrand::randint(s, o, INT64_MIN, INT64_MAX);
  });
  check_slices<double>("gamma 0.3", kWindow, kN,
                       [](Stream s, std::span<double> o) { return trnrand::gamma(s, o, 0.3, 2.0); });
  check_slices<double>("gamma 4.5", kWindow, kN,
                       [](Stream s, std::span<double> o) { return trnrand::gamma(s, o, 4.5); });
  check_slices<float>("gamma float", kWindow, kN,
                      [](Stream s, std::span<float> o) { return trnrand::gamma(s, o, 2.0f, 0.5f); });
  for (const double lambda : {0.0, 3.5, 250.0})
    check_slices<std::int64_t>("poisson " + std::to_string(lambda), kWindow, kN,
                               [=](Stream s, std::span<std::int64_t> o) { return trnrand::poisson(s, o, lambda); });
  check_slices<double>("beta", kWindow, kN,
                       [](Stream s, std::span<double> o) { return trnrand::beta(s, o, 2.0, 3.0); });
  check_slices<float>("beta small shapes", kWindow, kN,
                      [](Stream s, std::span<float> o) { return trnrand::beta(s, o, 0.01f, 0.5f); });
  check_slices<double>("chi_squared", kWindow, kN,
                       [](Stream s, std::span<double> o) { return trnrand::chi_squared(s, o, 3.0); });
  check_slices<float>("chi_squared float", kWindow, kN,
                      [](Stream s, std::span<float> o) { return trnrand::chi_squared(s, o, 0.5f); });
  check_slices<double>("student_t", kWindow, kN,
                       [](Stream s, std::span<double> o) { return trnrand::student_t(s, o, 5.0); });
  check_slices<float>("student_t small nu", kWindow, kN,
                      [](Stream s, std::span<float> o) { return trnrand::student_t(s, o, 0.5f); });
  for (const auto& np : {std::pair<std::int64_t, double>{20, 0.9}, {100000, 0.3}, {0, 0.5}}) {
    // Named copies, not a structured binding: Clang before 16 cannot capture bindings in a lambda.
    const std::int64_t n = np.first;
    const double p = np.second;
    check_slices<std::int64_t>("binomial " + std::to_string(n), kWindow, kN,
                               [=](Stream s, std::span<std::int64_t> o) { return trnrand::binomial(s, o, n, p); });
  }
  check_slices<double>("truncated_normal", kWindow, kN, [](Stream s, std::span<double> o) {
    return trnrand::truncated_normal(s, o, 0.0, 1.0, 1.0, 4.0);
  });
  check_slices<float>("truncated_normal float", kWindow, kN, [](Stream s, std::span<float> o) {
    return trnrand::truncated_normal(s, o, 1.f, 2.f, -1.f, 0.5f);
  });
  check_slices<double>("truncated_normal wide", kWindow, kN, [](Stream s, std::span<double> o) {
    return trnrand::truncated_normal(s, o, 0.0, 1.0, -3.0, 3.0);
  });
  // randperm is one permutation, not a fill of independent values: slicing it has no meaning.
}

// Each sim call models a whole 128 × 512-counter batch (~10 ms here), so fewer values and two offsets (one
// odd, one even); the slices still start at every parity. The kernels equal the host fills bit for bit
// (sim_distributions_test.cpp), which are checked at every offset above.
TEST(Partition, SimKernelsSlicedAnywhereConcatenateToTheSingleFill) {
  trncore::sim::NeuronCore core;
  constexpr std::uint64_t offsets[] = {3, 10};
  constexpr std::size_t n = 23;
  check_slices<std::uint32_t>(
      "sim::fill_uint32", 1, n,
      [&](Stream s, std::span<std::uint32_t> o) { return trnrand::sim::fill_uint32(s, o, core); }, offsets);
  check_slices<float>(
      "sim::fill_uniform", 1, n,
      [&](Stream s, std::span<float> o) {
        return trnrand::sim::fill_uniform(s, o, trnrand::Interval::closed_open, core);
      },
      offsets);
  check_slices<float>(
      "sim::normal", 2, n, [&](Stream s, std::span<float> o) { return trnrand::sim::normal(s, o, 3.0f, 0.5f, core); },
      offsets);
}

// Threaded fills: large enough that 2 threads really split the range (≥ 2^16 words per thread for the word
// fills, 2^14 values for normal_engine_order), from an odd offset.
TEST(Partition, OneAndTwoThreadsGiveTheSameBits) {
  constexpr std::size_t n = (std::size_t{3} << 16) + 5;
  for (const Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20}) {
    const Stream s = trnrand::make_stream(99, 1, 13, g);
    std::vector<std::uint32_t> w1(n), w2(n);
    EXPECT_EQ(trnrand::fill_uint32(s, w1, threads_option(1)), trnrand::fill_uint32(s, w2, threads_option(2)));
    EXPECT_TRUE(same_bits(w1, w2));
    std::vector<std::uint64_t> q1(n), q2(n);
    trnrand::fill_uint64(s, q1, threads_option(1));
    trnrand::fill_uint64(s, q2, threads_option(2));
    EXPECT_TRUE(same_bits(q1, q2));
    std::vector<float> f1(n), f2(n);
    trnrand::fill_uniform(s, std::span<float>(f1), trnrand::Interval::open_closed, threads_option(1));
    trnrand::fill_uniform(s, std::span<float>(f2), trnrand::Interval::open_closed, threads_option(2));
    EXPECT_TRUE(same_bits(f1, f2));
    std::vector<double> d1(n), d2(n);
    trnrand::fill_uniform(s, std::span<double>(d1), trnrand::Interval::closed_open, threads_option(1));
    trnrand::fill_uniform(s, std::span<double>(d2), trnrand::Interval::closed_open, threads_option(2));
    EXPECT_TRUE(same_bits(d1, d2));
    std::vector<float> e1(n), e2(n);
    EXPECT_EQ(trnrand::normal_engine_order(s, e1, 0.0f, 1.0f, threads_option(1)),
              trnrand::normal_engine_order(s, e2, 0.0f, 1.0f, threads_option(2)));
    EXPECT_TRUE(same_bits(e1, e2));
  }
}

// fill_uniform(threads = -1) used to be accepted, and Generator(7) silently ran Philox (host) or Threefry
// (sim). Every entry point now refuses both, naming itself.
TEST(Partition, NegativeThreadsAndInvalidEnumsAreRefusedByEveryEntryPoint) {
  const Stream s = trnrand::make_stream(1);
  std::vector<std::uint32_t> w(4);
  std::vector<std::uint64_t> q(4);
  std::vector<float> f(4);
  std::vector<double> d(4);
  // trncore::validate's message (its hint belongs to trncore), naming the trnrand function.
  EXPECT_EQ(trnsci_testing::message_of([&] {
              trnrand::fill_uniform(s, std::span<float>(f), trnrand::Interval::open_closed, threads_option(-1));
            }).rfind("trnrand::fill_uniform: threads = -1 is negative: ", 0),
            0u);
  EXPECT_NE(trnsci_testing::message_of([&] {
              trnrand::fill_uniform(s, std::span<double>(d), trnrand::Interval::open_closed, threads_option(-3));
            }).find("trnrand::fill_uniform: threads = -3"),
            std::string::npos);
  EXPECT_NE(trnsci_testing::message_of([&] {
              trnrand::fill_uint32(s, w, threads_option(-1));
            }).find("trnrand::fill_uint32: threads = -1"),
            std::string::npos);
  EXPECT_NE(trnsci_testing::message_of([&] {
              trnrand::fill_uint64(s, q, threads_option(-2));
            }).find("trnrand::fill_uint64: threads = -2"),
            std::string::npos);
  EXPECT_NE(trnsci_testing::message_of([&] {
              trnrand::normal_engine_order(s, f, 0.0f, 1.0f, threads_option(-1));
            }).find("trnrand::normal_engine_order: threads = -1"),
            std::string::npos);
  // Empty outputs still check.
  EXPECT_THROW(trnrand::fill_uniform(s, std::span<float>(), trnrand::Interval::open_closed, threads_option(-1)),
               trncore::InvalidArgument);

  const auto bad_interval = static_cast<trnrand::Interval>(9);
  EXPECT_EQ(
      trnsci_testing::message_of([&] { trnrand::fill_uniform(s, std::span<float>(f), bad_interval); }),
      "trnrand::fill_uniform: interval = 9 is not an Interval: pass Interval::open_closed or Interval::closed_open");
  EXPECT_THROW(trnrand::fill_uniform(s, std::span<double>(d), bad_interval), trncore::InvalidArgument);

  Stream bad = s;
  bad.generator = static_cast<Generator>(7);
  const std::string expected_tail =
      ": stream.generator = 7 is not a Generator: pass Generator::philox4x32_10 or Generator::threefry4x32_20";
  trncore::sim::NeuronCore core;
  std::vector<std::int64_t> k(4);
  std::vector<std::uint8_t> b(4);
  const std::vector<double> mean{0.0}, L{1.0};
  const trnrand::AliasTable table(std::vector<double>{1, 1});
  const std::vector<std::pair<std::string, std::function<void()>>> calls{
      {"trnrand::word", [&] { trnrand::word(bad, 0); }},
      {"trnrand::Engine", [&] { trnrand::Engine e(bad); }},
      {"trnrand::fill_uint32", [&] { trnrand::fill_uint32(bad, w); }},
      {"trnrand::fill_uint64", [&] { trnrand::fill_uint64(bad, q); }},
      {"trnrand::fill_uniform", [&] { trnrand::fill_uniform(bad, std::span<float>(f)); }},
      {"trnrand::normal", [&] { trnrand::normal(bad, std::span<double>(d)); }},
      {"trnrand::lognormal", [&] { trnrand::lognormal(bad, std::span<float>(f)); }},
      {"trnrand::normal_engine_order", [&] { trnrand::normal_engine_order(bad, f); }},
      {"trnrand::exponential", [&] { trnrand::exponential(bad, std::span<double>(d)); }},
      {"trnrand::bernoulli", [&] { trnrand::bernoulli(bad, b, 0.5); }},
      {"trnrand::randint", [&] { trnrand::randint(bad, k, 0, 9); }},
      {"trnrand::randperm", [&] { trnrand::randperm(bad, k); }},
      {"trnrand::gamma", [&] { trnrand::gamma(bad, std::span<float>(f), 2.0f); }},
      {"trnrand::poisson", [&] { trnrand::poisson(bad, k, 0.0); }},
      {"trnrand::beta", [&] { trnrand::beta(bad, std::span<double>(d), 1.0, 1.0); }},
      {"trnrand::chi_squared", [&] { trnrand::chi_squared(bad, std::span<double>(d), 1.0); }},
      {"trnrand::student_t", [&] { trnrand::student_t(bad, std::span<float>(f), 3.0f); }},
      {"trnrand::binomial", [&] { trnrand::binomial(bad, k, 0, 0.5); }},
      {"trnrand::geometric", [&] { trnrand::geometric(bad, k, 0.5); }},
      {"trnrand::AliasTable::sample", [&] { table.sample(bad, k); }},
      {"trnrand::categorical", [&] { trnrand::categorical(bad, k, std::vector<double>{1.0}); }},
      {"trnrand::truncated_normal", [&] { trnrand::truncated_normal(bad, std::span<double>(d), 0.0, 1.0, 0.0, 0.0); }},
      {"trnrand::multivariate_normal", [&] { trnrand::multivariate_normal(bad, std::span<double>(d), mean, L); }},
      {"trnrand::sim::fill_uint32", [&] { trnrand::sim::fill_uint32(bad, w, core); }},
      {"trnrand::sim::fill_uniform", [&] { trnrand::sim::fill_uniform(bad, f, trnrand::Interval::open_closed, core); }},
      {"trnrand::sim::normal", [&] { trnrand::sim::normal(bad, f, 0.0f, 1.0f, core); }},
  };
  for (const auto& [name, call] : calls)
    trnsci_testing::expect_error<trncore::InvalidArgument>(call, name, {name + expected_tail});
  // Constant cases and empty outputs read no words and still refuse the generator.
  EXPECT_THROW(trnrand::poisson(bad, std::span<std::int64_t>(), 0.0), trncore::InvalidArgument);
  EXPECT_THROW(trnrand::sim::normal(bad, std::span<float>(), 0.0f, 1.0f, core), trncore::InvalidArgument);
}

}  // namespace
