// trnrand::mpi per-rank streams (docs/distributed.md, "trnrand: per-rank streams"), run under mpirun with
// 1, 2, 3 and 4 ranks. The oracle everywhere is the serial single-process trnrand fill (itself tested
// against Random123's published vectors and the distributions' laws elsewhere); the property is exact, so
// every comparison is bitwise (memcmp), for every rank count:
// - fill: every distribution and element type, both generators, stream offsets 0 and odd, totals 0, 1, 2, 3,
//   primes and odd totals whose rank boundaries split a Box–Muller pair's words, a Philox 4-word block and
//   a 16-lane SIMD group; 1 and 2 threads per rank (a total large enough that 2 threads really split); the
//   sim backend; the returned stream is the serial fill's;
// - fill_range, fill_submatrix (indices in any order, repeated; both layouts), fill_block_cyclic (every P×Q
//   grid of the rank count, uneven edges, a non-zero source process, both layouts; gathered and compared
//   with the serial matrix) and fill_rows (rows following a descriptor's rows or columns, checked on every
//   rank against the serial matrix);
// - randperm against trnrand::randperm;
// - bad input on one rank (a different total, seed, parameter or descriptor; a wrong local size; bad
//   parameters) → the same trncore::Error on every rank, and the communicator still works afterwards.
#include <trncore/error.hpp>
#include <trncore/mpi.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/mpi/streams.hpp>
#include <trnrand/sim.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

using trncore::mpi::Communicator;
using trncore::mpi::Descriptor;
using trncore::mpi::ProcessGrid;
using trnrand::Generator;
using trnrand::Stream;
namespace samplers = trnrand::mpi::samplers;
using trnrand::mpi::Sampler;

trncore::Options threads(int n) { return trncore::Options{}.with_threads(n); }

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Totals: 0, 1, 2, 3, primes, and odd totals whose slices over 2–4 ranks begin at odd values (a Box–Muller
// value's words 2i, 2i + 1 — or 4i … 4i + 3 — then start mid Philox block) and inside 16-lane groups.
constexpr std::uint64_t kTotals[] = {0, 1, 2, 3, 5, 7, 13, 31, 67, 97, 101, 131, 257, 1031};

// Which streams a check covers: both generators at stream offsets 0 and 3 (full), or Philox at offset 3
// and Threefry at 0 (quick, for the large and the sim fills).
enum class Coverage { full, quick };

// The serial fill of `total` values (the oracle, on rank 0 only: the other ranks would only repeat it) and
// the distributed one, gathered on rank 0 and compared bitwise there; the returned streams on every rank.
template <class T>
void check_fill(const Communicator& comm, const Sampler<T>& sampler, std::span<const std::uint64_t> totals,
                std::span<const int> thread_counts = std::span<const int>(),
                const trncore::Options& base = trncore::Options{}, Coverage coverage = Coverage::full) {
  static constexpr int kOne[] = {1};
  if (thread_counts.empty()) thread_counts = kOne;
  for (const Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20})
    for (const std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{3}}) {
      if (coverage == Coverage::quick && (g == Generator::philox4x32_10) != (offset == 3)) continue;
      const Stream s = trnrand::make_stream(0xC0FFEE + offset, 5, offset, g);
      for (const std::uint64_t total : totals) {
        trncore::Options serial_options = base;
        serial_options.threads = 1;
        std::vector<T> serial(comm.rank() == 0 ? total * sampler.width() : 0);
        if (comm.rank() == 0) sampler(s, std::span<T>(serial), serial_options);
        const Stream serial_after = trnrand::skip_ahead(s, sampler.budget() * total);
        for (const int t : thread_counts) {
          trncore::Options options = base;
          options.threads = t;
          const trnrand::Slice slice = trnrand::mpi::local_slice(comm, total);
          std::vector<T> local(slice.count * sampler.width());
          const Stream after = trnrand::mpi::fill(comm, s, total, sampler, std::span<T>(local), options);
          EXPECT_EQ(after, serial_after) << sampler.name() << ", total " << total;
          const std::vector<T> joined = comm.gatherv(std::span<const T>(local), 0);
          // EXPECT, not ASSERT, in loops with collectives: a rank leaving early would leave the others waiting.
          if (comm.rank() == 0) {
            EXPECT_TRUE(same_bits(joined, serial))
                << sampler.name() << ", " << trnrand::to_string(g) << ", offset " << offset << ", total " << total
                << ", " << comm.size() << " ranks, " << t << " threads";
          }
        }
      }
    }
}

// The serial fill returns skip_ahead(s, budget·total) (checked once here, so check_fill may use it).
TEST(MpiStreams, SerialFillsReturnTheBudgetedStream) {
  const Stream s = trnrand::make_stream(1, 2, 3);
  std::vector<double> d(7);
  std::vector<std::int64_t> i(7);
  EXPECT_EQ(samplers::normal(0.0, 1.0)(s, std::span<double>(d)), trnrand::skip_ahead(s, 28));
  EXPECT_EQ(samplers::gamma(2.0)(s, std::span<double>(d)), trnrand::skip_ahead(s, 7 * (std::uint64_t{1} << 32)));
  EXPECT_EQ(samplers::categorical(std::vector<double>{1, 2})(s, std::span<std::int64_t>(i)),
            trnrand::skip_ahead(s, 14));
  const auto mvn =
      samplers::multivariate_normal(std::vector<double>{0, 0, 0}, std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1});
  std::vector<double> rows(7 * 3);
  EXPECT_EQ(mvn(s, std::span<double>(rows)), trnrand::skip_ahead(s, 7 * 12));
}

TEST(MpiStreams, WordsAndUniformsConcatenateToTheSerialFill) {
  const Communicator comm = Communicator::world();
  check_fill(comm, samplers::uint32(), kTotals);
  check_fill(comm, samplers::uint64(), kTotals);
  for (const auto interval : {trnrand::Interval::open_closed, trnrand::Interval::closed_open}) {
    check_fill(comm, samplers::uniform<float>(interval), kTotals);
    check_fill(comm, samplers::uniform<double>(interval), kTotals);
  }
}

TEST(MpiStreams, NormalsConcatenateToTheSerialFill) {
  const Communicator comm = Communicator::world();
  check_fill(comm, samplers::normal(1.5f, 2.0f), kTotals);
  check_fill(comm, samplers::normal(-1.0, 0.5), kTotals);
  check_fill(comm, samplers::normal_engine_order(3.0f, 0.5f), kTotals);
  check_fill(comm, samplers::lognormal(0.0f, 1.0f), kTotals);
  check_fill(comm, samplers::lognormal(0.5, 0.25), kTotals);
  const std::vector<double> mean{1.0, -2.0, 0.5};
  const std::vector<double> L{2.0, 0, 0, 0.5, 1.0, 0, -0.25, 0.125, 3.0};
  const std::vector<float> meanf(mean.begin(), mean.end()), Lf(L.begin(), L.end());
  check_fill(comm, samplers::multivariate_normal(mean, L), kTotals);  // width 3: rows split at odd normals
  check_fill(comm, samplers::multivariate_normal(meanf, Lf), kTotals);
}

TEST(MpiStreams, FixedBudgetSamplersConcatenateToTheSerialFill) {
  const Communicator comm = Communicator::world();
  check_fill(comm, samplers::exponential(2.0f), kTotals);
  check_fill(comm, samplers::exponential(0.5), kTotals);
  check_fill(comm, samplers::bernoulli(0.3), kTotals);
  check_fill(comm, samplers::geometric(0.05), kTotals);
  check_fill(comm, samplers::categorical(std::vector<double>{1, 2, 3, 0, 4, 0.5, 7}), kTotals);
}

TEST(MpiStreams, WindowSamplersConcatenateToTheSerialFill) {
  const Communicator comm = Communicator::world();
  check_fill(comm, samplers::randint(-5, 1000003), kTotals);
  check_fill(comm,
             samplers::randint(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()),
             kTotals);
  check_fill(comm, samplers::gamma(0.3, 2.0), kTotals);
  check_fill(comm, samplers::gamma(4.5), kTotals);
  check_fill(comm, samplers::gamma(2.0f, 0.5f), kTotals);
  for (const double lambda : {0.0, 3.5, 250.0}) check_fill(comm, samplers::poisson(lambda), kTotals);
  check_fill(comm, samplers::beta(2.0, 3.0), kTotals);
  check_fill(comm, samplers::beta(0.01f, 0.5f), kTotals);
  check_fill(comm, samplers::chi_squared(3.0), kTotals);
  check_fill(comm, samplers::chi_squared(0.5f), kTotals);
  check_fill(comm, samplers::student_t(5.0), kTotals);
  check_fill(comm, samplers::student_t(0.5f), kTotals);
  check_fill(comm, samplers::binomial(20, 0.9), kTotals);
  check_fill(comm, samplers::binomial(100000, 0.3), kTotals);
  check_fill(comm, samplers::truncated_normal(0.0, 1.0, 1.0, 4.0), kTotals);
  check_fill(comm, samplers::truncated_normal(1.f, 2.f, -1.f, 0.5f), kTotals);
}

// options.threads splits a fill only from 2 × 64 Ki values on, so the totals here are large enough for 2
// threads to split every rank's slice on up to 4 ranks (2^19 + 3 and 2^18 + 1 values), and odd, so rank
// boundaries fall mid block.
TEST(MpiStreams, ThreadCountsPerRankDoNotChangeTheConcatenation) {
  const Communicator comm = Communicator::world();
  constexpr std::uint64_t totals[] = {(std::uint64_t{1} << 19) + 3};
  constexpr int counts[] = {1, 2};
  const trncore::Options host;
  constexpr auto quick = Coverage::quick;
  check_fill(comm, samplers::uint32(), totals, counts, host, quick);
  check_fill(comm, samplers::uniform<float>(), totals, counts, host, quick);
  check_fill(comm, samplers::uniform<double>(), totals, counts, host, quick);
  check_fill(comm, samplers::normal(0.0f, 1.0f), totals, counts, host, quick);
  check_fill(comm, samplers::normal(0.0, 1.0), totals, counts, host, quick);
  check_fill(comm, samplers::normal_engine_order(0.0f, 1.0f), totals, counts, host, quick);
  check_fill(comm, samplers::exponential(1.0), totals, counts, host, quick);
  constexpr std::uint64_t window_totals[] = {(std::uint64_t{1} << 18) + 1};
  check_fill(comm, samplers::gamma(2.5), window_totals, counts, host, quick);
  check_fill(comm, samplers::poisson(40.0), window_totals, counts, host, quick);
  // Ranks need not agree on their thread counts: odd ranks 2 threads, even ranks 1.
  const int mixed[] = {1 + comm.rank() % 2};
  check_fill(comm, samplers::normal(0.0, 1.0), totals, mixed, host, quick);
  check_fill(comm, samplers::gamma(2.5), window_totals, mixed, host, quick);
}

// The sim kernels (uint32, uniform float, normal float = normal_engine_order's bits) through options.backend:
// each call models whole 128 × 512 batches, so small totals.
TEST(MpiStreams, SimBackendSlicesConcatenateToTheSerialSimFill) {
  const Communicator comm = Communicator::world();
  trncore::Options sim;
  sim.backend = trncore::Backend::sim;
  constexpr std::uint64_t totals[] = {0, 1, 3, 31, 97};
  constexpr auto quick = Coverage::quick;
  check_fill(comm, samplers::uint32(), totals, {}, sim, quick);
  check_fill(comm, samplers::uint64(), totals, {}, sim, quick);
  check_fill(comm, samplers::uniform<float>(trnrand::Interval::closed_open), totals, {}, sim, quick);
  check_fill(comm, samplers::normal(3.0f, 0.5f), totals, {}, sim, quick);
  check_fill(comm, samplers::normal_engine_order(3.0f, 0.5f), totals, {}, sim, quick);
}

TEST(MpiStreams, FillRangeIsTheSliceOfTheSerialFill) {
  const Stream s = trnrand::make_stream(42, 1, 7);
  const auto sampler = samplers::normal(0.0, 2.0);
  std::vector<double> serial(200);
  sampler(s, std::span<double>(serial));
  for (const std::uint64_t begin : {0u, 1u, 3u, 63u, 64u, 65u, 199u})
    for (const std::size_t count : {0u, 1u, 2u, 5u}) {
      if (begin + count > serial.size()) continue;
      std::vector<double> part(count);
      const Stream after = trnrand::mpi::fill_range(s, begin, sampler, std::span<double>(part));
      EXPECT_EQ(after, trnrand::skip_ahead(s, 4 * (begin + count)));
      EXPECT_TRUE(same_bits(part, std::vector<double>(serial.begin() + static_cast<std::ptrdiff_t>(begin),
                                                      serial.begin() + static_cast<std::ptrdiff_t>(begin + count))))
          << begin << " + " << count;
    }
  const auto mvn = samplers::multivariate_normal(std::vector<double>{0, 0}, std::vector<double>{1, 0, 0, 1});
  std::vector<double> three(3);
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnrand::mpi::fill_range(s, 0, mvn, std::span<double>(three)); }, "trnrand::mpi::fill_range", {"width 2"});
}

// G(i, j) of the serial fill of m·n values read in `layout`.
template <class T>
T element(const std::vector<T>& serial, std::int64_t m, std::int64_t n, trnrand::mpi::Layout layout, std::int64_t i,
          std::int64_t j) {
  return serial[static_cast<std::size_t>(layout == trnrand::mpi::Layout::column_major ? i + j * m : i * n + j)];
}

TEST(MpiStreams, FillSubmatrixIsTheSerialMatrixsEntries) {
  using trnrand::mpi::Layout;
  const Stream s = trnrand::make_stream(9, 0, 1);
  const std::int64_t m = 11, n = 7;
  const auto sampler = samplers::uniform<float>();
  std::vector<float> serial(static_cast<std::size_t>(m * n));
  sampler(s, std::span<float>(serial));
  const std::vector<std::int64_t> rows{3, 4, 5, 0, 10, 9, 4, 1, 2};  // runs, reversed, repeated
  const std::vector<std::int64_t> cols{6, 0, 1, 2, 2, 5};
  for (const Layout layout : {Layout::column_major, Layout::row_major})
    for (const int t : {1, 2}) {
      const std::int64_t ld = 12;
      std::vector<float> out(static_cast<std::size_t>(ld) * cols.size(), -7.0f);
      const Stream after =
          trnrand::mpi::fill_submatrix(s, m, n, layout, rows, cols, sampler, std::span<float>(out), ld, threads(t));
      EXPECT_EQ(after, trnrand::skip_ahead(s, static_cast<std::uint64_t>(m * n)));
      for (std::size_t c = 0; c < cols.size(); ++c) {
        for (std::size_t r = 0; r < rows.size(); ++r) {
          const float want = element(serial, m, n, layout, rows[r], cols[c]);
          const float got = out[r + c * static_cast<std::size_t>(ld)];
          ASSERT_EQ(std::memcmp(&got, &want, sizeof want), 0) << "(" << rows[r] << ", " << cols[c] << ")";
        }
        for (std::size_t r = rows.size(); r < static_cast<std::size_t>(ld); ++r)
          ASSERT_EQ(out[r + c * static_cast<std::size_t>(ld)], -7.0f) << "padding touched";
      }
    }
  std::vector<float> out(100);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnrand::mpi::fill_submatrix(s, m, n, Layout::column_major, std::vector<std::int64_t>{11},
                                     std::vector<std::int64_t>{0}, sampler, std::span<float>(out), 1);
      },
      "trnrand::mpi::fill_submatrix", {"rows[0] = 11"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnrand::mpi::fill_submatrix(s, m, n, Layout::column_major, rows, cols, sampler, std::span<float>(out), 3);
      },
      "trnrand::mpi::fill_submatrix", {"ld = 3"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnrand::mpi::fill_submatrix(s, m, n, Layout::row_major, rows, cols, sampler, std::span<float>(out), 20); },
      "trnrand::mpi::fill_submatrix", {"out.size() = 100"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnrand::mpi::fill_submatrix(s, m, n, static_cast<Layout>(9), rows, cols, sampler, std::span<float>(out), 12);
      },
      "trnrand::mpi::fill_submatrix", {"layout"});
  std::vector<double> one(1);
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnrand::mpi::fill_submatrix(s, std::int64_t{1} << 20, std::int64_t{1} << 13, Layout::column_major,
                                     std::vector<std::int64_t>{0}, std::vector<std::int64_t>{0}, samplers::gamma(2.0),
                                     std::span<double>(one), 1);
      },
      "trnrand::mpi::fill_submatrix", {"8589934592 values", "2^64 words"});
}

// Every P×Q grid of the communicator's size.
std::vector<std::pair<int, int>> grids(int size) {
  std::vector<std::pair<int, int>> out;
  for (int p = 1; p <= size; ++p)
    if (size % p == 0) out.emplace_back(p, size / p);
  return out;
}

template <class T>
void check_block_cyclic(const ProcessGrid& grid, const Sampler<T>& sampler) {
  using trnrand::mpi::Layout;
  struct Shape {
    std::int64_t m, n, mb, nb;
  };
  // 0 rows, single element, uneven edges (primes over 2 and 3 processes), blocks of 1 and larger than the
  // matrix.
  constexpr Shape shapes[] = {{0, 3, 2, 2}, {1, 1, 1, 1}, {7, 5, 2, 3}, {13, 11, 4, 2}, {5, 9, 8, 8}, {17, 4, 1, 3}};
  const Stream s = trnrand::make_stream(2026, 4, 3);
  for (const Shape& shape : shapes)
    for (const Layout layout : {Layout::column_major, Layout::row_major})
      for (const std::int64_t src : {0, 1}) {
        const std::int64_t rsrc = src % grid.rows(), csrc = (src * 2) % grid.cols();
        const Descriptor desc = trncore::mpi::make_descriptor(grid, shape.m, shape.n, shape.mb, shape.nb, rsrc, csrc);
        std::vector<T> local(static_cast<std::size_t>(trncore::mpi::local_size(desc, grid)));
        const Stream after =
            trnrand::mpi::fill_block_cyclic(grid, desc, s, sampler, std::span<T>(local), layout, threads(2));
        std::vector<T> serial(static_cast<std::size_t>(shape.m * shape.n));
        const Stream serial_after = sampler(s, std::span<T>(serial));
        EXPECT_EQ(after, serial_after);
        std::vector<T> gathered(static_cast<std::size_t>(std::max<std::int64_t>(1, shape.m) * shape.n));
        trncore::mpi::gather(grid, desc, local.data(), gathered.data(), std::max<std::int64_t>(1, shape.m), 0);
        if (grid.comm().rank() != 0) continue;
        bool ok = true;
        for (std::int64_t j = 0; j < shape.n && ok; ++j)
          for (std::int64_t i = 0; i < shape.m && ok; ++i) {
            const T want = element(serial, shape.m, shape.n, layout, i, j);
            ok = std::memcmp(&gathered[static_cast<std::size_t>(i + j * std::max<std::int64_t>(1, shape.m))], &want,
                             sizeof want) == 0;
          }
        EXPECT_TRUE(ok) << sampler.name() << ", " << shape.m << "x" << shape.n << " in " << shape.mb << "x" << shape.nb
                        << " blocks on " << grid.rows() << "x" << grid.cols() << ", src (" << rsrc << ", " << csrc
                        << "), " << (layout == Layout::column_major ? "column" : "row") << "-major";
      }
}

TEST(MpiStreams, BlockCyclicLocalPartsGatherToTheSerialMatrix) {
  const Communicator comm = Communicator::world();
  for (const auto& [p, q] : grids(comm.size())) {
    const ProcessGrid grid(comm, p, q);
    check_block_cyclic(grid, samplers::normal(0.0, 1.0));
    check_block_cyclic(grid, samplers::uniform<float>());
    check_block_cyclic(grid, samplers::randint(-100, 100));
  }
}

TEST(MpiStreams, FillRowsGivesTheSerialSketchRowsOfADescriptor) {
  using trnrand::mpi::Layout;
  using trnrand::mpi::RowsOf;
  const Communicator comm = Communicator::world();
  const Stream s = trnrand::make_stream(7, 0, 1);
  const auto sampler = samplers::normal(0.0f, 1.0f);
  for (const auto& [p, q] : grids(comm.size())) {
    const ProcessGrid grid(comm, p, q);
    const Descriptor desc = trncore::mpi::make_descriptor(grid, 13, 11, 2, 3);
    for (const RowsOf follow : {RowsOf::rows, RowsOf::columns})
      for (const Layout layout : {Layout::column_major, Layout::row_major})
        for (const std::int64_t k : {0, 1, 4}) {
          const std::vector<std::int64_t> rows =
              follow == RowsOf::rows ? trnrand::mpi::owned_rows(desc, grid) : trnrand::mpi::owned_cols(desc, grid);
          const std::int64_t M = follow == RowsOf::rows ? desc.m : desc.n;
          const std::int64_t ld = static_cast<std::int64_t>(rows.size()) + 1;  // one padding row
          std::vector<float> out(static_cast<std::size_t>(ld * std::max<std::int64_t>(1, k)), -3.0f);
          const Stream after =
              trnrand::mpi::fill_rows(grid, desc, follow, k, s, sampler, std::span<float>(out), ld, layout);
          std::vector<float> serial(static_cast<std::size_t>(M * k));
          EXPECT_EQ(after, sampler(s, std::span<float>(serial)));
          std::int64_t wrong = 0, touched = 0;
          for (std::int64_t c = 0; c < k; ++c) {
            for (std::size_t r = 0; r < rows.size(); ++r) {
              const float want = element(serial, M, k, layout, rows[r], c);
              const float got = out[r + static_cast<std::size_t>(c * ld)];
              wrong += std::memcmp(&got, &want, sizeof want) != 0 ? 1 : 0;
            }
            touched += out[rows.size() + static_cast<std::size_t>(c * ld)] != -3.0f ? 1 : 0;
          }
          EXPECT_EQ(wrong, 0) << "entries differ from the serial matrix on " << p << "x" << q << ", k " << k;
          EXPECT_EQ(touched, 0) << "padding touched";
        }
    // The rows of every process of one grid column (RowsOf::rows) cover 0 … m − 1 exactly once.
    std::vector<std::int64_t> mine =
        grid.col() == 0 ? trnrand::mpi::owned_rows(desc, grid) : std::vector<std::int64_t>{};
    std::vector<std::int64_t> all = comm.allgatherv(std::span<const std::int64_t>(mine));
    std::sort(all.begin(), all.end());
    std::vector<std::int64_t> expect(static_cast<std::size_t>(desc.m));
    std::iota(expect.begin(), expect.end(), std::int64_t{0});
    EXPECT_EQ(all, expect);
  }
}

TEST(MpiStreams, RandpermSlicesConcatenateToTheSerialPermutation) {
  const Communicator comm = Communicator::world();
  for (const Generator g : {Generator::philox4x32_10, Generator::threefry4x32_20})
    for (const std::uint64_t total : {0u, 1u, 2u, 3u, 5u, 97u, 1000u, 4099u}) {
      const Stream s = trnrand::make_stream(99, 2, 1, g);
      std::vector<std::int64_t> serial(total);
      const Stream serial_after = trnrand::randperm(s, std::span<std::int64_t>(serial));
      for (const int t : {1, 2}) {
        std::vector<std::int64_t> local(trnrand::mpi::local_slice(comm, total).count);
        const Stream after = trnrand::mpi::randperm(comm, s, total, std::span<std::int64_t>(local), threads(t));
        EXPECT_EQ(after, serial_after);
        EXPECT_EQ(comm.allgatherv(std::span<const std::int64_t>(local)), serial) << "total " << total;
      }
    }
}

// After a failed call, the communicator must still work on every rank (nobody is stuck in a collective).
void still_in_step(const Communicator& comm) {
  const std::vector<std::int32_t> mine{comm.rank()};
  const auto all = comm.allgatherv(std::span<const std::int32_t>(mine));
  ASSERT_EQ(all.size(), static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) EXPECT_EQ(all[static_cast<std::size_t>(r)], r);
}

TEST(MpiStreams, BadInputOnOneRankFailsOnEveryRank) {
  const Communicator comm = Communicator::world();
  const int last = comm.size() - 1;
  const bool odd_one = comm.rank() == last && comm.size() > 1;
  const Stream s = trnrand::make_stream(5);
  const auto sampler = samplers::normal(0.0f, 1.0f);
  // A different total on the last rank (with one rank there is nobody to disagree with: a wrong local size).
  {
    const std::uint64_t total = odd_one ? 101 : 100;
    std::vector<float> local(trnrand::mpi::local_slice(comm, total).count + (comm.size() == 1 ? 1 : 0));
    trnsci_testing::expect_error<trncore::DimensionMismatch>(
        [&] { trnrand::mpi::fill(comm, s, total, sampler, std::span<float>(local)); }, "trnrand::mpi::fill",
        {comm.size() > 1 ? "'total' differs across ranks" : "local.size() = 101"});
    still_in_step(comm);
  }
  // A different seed on the last rank.
  if (comm.size() > 1) {
    std::vector<float> local(trnrand::mpi::local_slice(comm, 64).count);
    trnsci_testing::expect_error<trncore::DimensionMismatch>(
        [&] { trnrand::mpi::fill(comm, trnrand::make_stream(odd_one ? 6 : 5), 64, sampler, std::span<float>(local)); },
        "trnrand::mpi::fill", {"'stream seed' differs", "rank " + std::to_string(last) + " has 6"});
    still_in_step(comm);
    // A different parameter (stddev) on the last rank.
    trnsci_testing::expect_error<trncore::DimensionMismatch>(
        [&] {
          trnrand::mpi::fill(comm, s, 64, samplers::normal(0.0f, odd_one ? 2.0f : 1.0f), std::span<float>(local));
        },
        "trnrand::mpi::fill", {"'sampler (distribution and parameters)' differs"});
    still_in_step(comm);
  }
  // A wrong local size on the last rank only.
  {
    std::vector<float> local(trnrand::mpi::local_slice(comm, 64).count + (comm.rank() == last ? 2 : 0));
    trnsci_testing::expect_error<trncore::DimensionMismatch>(
        [&] { trnrand::mpi::fill(comm, s, 64, sampler, std::span<float>(local)); }, "trnrand::mpi::fill",
        {"on rank " + std::to_string(last), "local.size()"});
    still_in_step(comm);
  }
  // Bad parameters everywhere: the sampler's own error, from every rank, also those whose slice is empty.
  {
    std::vector<float> local(trnrand::mpi::local_slice(comm, 1).count);
    trnsci_testing::expect_error<trncore::InvalidArgument>(
        [&] { trnrand::mpi::fill(comm, s, 1, samplers::normal(0.0f, -1.0f), std::span<float>(local)); },
        "trnrand::mpi::fill", {"trnrand::normal", "stddev = -1"});
    still_in_step(comm);
    std::vector<std::int64_t> cat(trnrand::mpi::local_slice(comm, 1).count);
    trnsci_testing::expect_error<trncore::InvalidArgument>(
        [&] {
          trnrand::mpi::fill(comm, s, 1, samplers::categorical(std::vector<double>{1, -1}),
                             std::span<std::int64_t>(cat));
        },
        "trnrand::mpi::fill", {"trnrand::AliasTable"});
    still_in_step(comm);
    // More words than a stream holds (2^32 + 1 values of a window sampler): refused on every rank, before
    // the (here deliberately wrong) local size.
    std::vector<double> none;
    trnsci_testing::expect_error<trncore::InvalidArgument>(
        [&] {
          trnrand::mpi::fill(comm, s, (std::uint64_t{1} << 32) + 1, samplers::gamma(2.0), std::span<double>(none));
        },
        "trnrand::mpi::fill", {"4294967297 values", "2^64 words"});
    still_in_step(comm);
    std::vector<std::int64_t> no_perm;
    trnsci_testing::expect_error<trncore::InvalidArgument>(
        [&] { trnrand::mpi::randperm(comm, s, (std::uint64_t{1} << 32) + 1, std::span<std::int64_t>(no_perm)); },
        "trnrand::mpi::randperm", {"exceeds 2^32"});
    still_in_step(comm);
    // No sim kernel for gamma: NotSupported on every rank.
    trncore::Options sim;
    sim.backend = trncore::Backend::sim;
    std::vector<double> g(trnrand::mpi::local_slice(comm, 1).count);
    trnsci_testing::expect_error<trncore::NotSupported>(
        [&] { trnrand::mpi::fill(comm, s, 1, samplers::gamma(2.0), std::span<double>(g), sim); }, "trnrand::mpi::fill",
        {"trnrand::gamma"});
    still_in_step(comm);
  }
  // Block-cyclic: a different row block size on the last rank; a too small local array on the last rank.
  {
    const ProcessGrid grid = ProcessGrid::square(comm);
    Descriptor desc = trncore::mpi::make_descriptor(grid, 9, 7, 2, 2);
    std::vector<double> local(static_cast<std::size_t>(trncore::mpi::local_size(desc, grid)) + 8);
    if (comm.size() > 1) {
      if (odd_one) desc = trncore::mpi::make_descriptor(grid, 9, 7, 3, 2);
      trnsci_testing::expect_error<trncore::DimensionMismatch>(
          [&] { trnrand::mpi::fill_block_cyclic(grid, desc, s, samplers::normal(0.0, 1.0), std::span<double>(local)); },
          "trnrand::mpi::fill_block_cyclic", {"'desc.mb' differs"});
    }
    still_in_step(comm);
    desc = trncore::mpi::make_descriptor(grid, 9, 7, 2, 2);
    const std::size_t small = comm.rank() == last ? 0 : local.size();
    const bool empty_here = trncore::mpi::local_size(desc, grid) == 0;
    if (!(comm.size() == 1 && empty_here)) {
      trnsci_testing::expect_error<trncore::DimensionMismatch>(
          [&] {
            trnrand::mpi::fill_block_cyclic(grid, desc, s, samplers::normal(0.0, 1.0),
                                            std::span<double>(local.data(), small));
          },
          "trnrand::mpi::fill_block_cyclic", {"local.size() = 0"});
    }
    still_in_step(comm);
    // fill_rows: a different k on the last rank.
    if (comm.size() > 1) {
      std::vector<double> out(1000);
      trnsci_testing::expect_error<trncore::DimensionMismatch>(
          [&] {
            trnrand::mpi::fill_rows(grid, desc, trnrand::mpi::RowsOf::columns, odd_one ? 5 : 4, s,
                                    samplers::normal(0.0, 1.0), std::span<double>(out), 16);
          },
          "trnrand::mpi::fill_rows", {"'k' differs"});
      still_in_step(comm);
    }
    // A sketch of more words than a stream holds (2^40 · 2^23 double normals, 4 words each): refused on every
    // rank.
    const Descriptor big = trncore::mpi::make_descriptor(grid, std::int64_t{1} << 40, 3, 64, 1);
    std::vector<double> out(1);
    trnsci_testing::expect_error<trncore::InvalidArgument>(
        [&] {
          trnrand::mpi::fill_rows(grid, big, trnrand::mpi::RowsOf::rows, 1 << 23, s, samplers::normal(0.0, 1.0),
                                  std::span<double>(out), 1);
        },
        "trnrand::mpi::fill_rows", {"2^64 words"});
    still_in_step(comm);
  }
  // randperm: a different total on the last rank.
  if (comm.size() > 1) {
    const std::uint64_t total = odd_one ? 11 : 10;
    std::vector<std::int64_t> local(trnrand::mpi::local_slice(comm, total).count);
    trnsci_testing::expect_error<trncore::DimensionMismatch>(
        [&] { trnrand::mpi::randperm(comm, s, total, std::span<std::int64_t>(local)); }, "trnrand::mpi::randperm",
        {"'total' differs"});
    still_in_step(comm);
  }
}

}  // namespace
