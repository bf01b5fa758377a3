// Distributed fills (streams.hpp): every one reduces to fill_range — value i of the serial fill is value 0
// of a fill from skip_ahead(s, budget·i) — after one CollectiveCheck; only randperm communicates its data.
#include <trncore/detail/parallel.hpp>
#include <trncore/error.hpp>
#include <trncore/mpi/collective_check.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/mpi/streams.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace trnrand::mpi {

namespace {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::Descriptor;
using trncore::mpi::ErrorKind;
using trncore::mpi::ProcessGrid;

constexpr std::uint64_t kWindow = std::uint64_t{1} << 32;

std::int64_t bits(std::uint64_t x) { return std::bit_cast<std::int64_t>(x); }

// The stream, sampler and backend must be the same on every rank, or the slices are of different fills.
template <class T>
void same_fill(CollectiveCheck& check, const Stream& s, const Sampler<T>& sampler, const trncore::Options& options) {
  check.same("stream seed", bits(s.seed));
  check.same("stream subsequence", bits(s.subsequence));
  check.same("stream offset", bits(s.offset));
  check.same("stream generator", static_cast<std::int64_t>(s.generator));
  check.same("sampler (distribution and parameters)", bits(sampler.fingerprint()));
  check.same("sampler budget", bits(sampler.budget()));
  check.same("sampler width", static_cast<std::int64_t>(sampler.width()));
  check.same("options.backend", static_cast<std::int64_t>(options.backend));
}

// The sampler's own checks (parameters, options, generator, backend) on an empty output.
template <class T>
void validate_sampler(CollectiveCheck& check, const Stream& s, const Sampler<T>& sampler,
                      const trncore::Options& options) {
  check.capture([&] { sampler(s, std::span<T>{}, options); });
}

bool valid_layout(Layout layout) { return layout == Layout::column_major || layout == Layout::row_major; }

// A fill of `values` values uses budget·values words; a stream holds 2^64 words, so beyond that (2^32 values
// for the window samplers) words — and values — would repeat. Empty when the fill fits, else the problem.
std::string words_overflow(std::uint64_t budget, std::uint64_t values, const std::string& name) {
  std::uint64_t words = 0;
  if (!__builtin_mul_overflow(budget, values, &words)) return {};
  return std::to_string(values) + " values of " + name + " need " + std::to_string(budget) +
         " words each, more than the 2^64 words of a stream (values 2^64/budget apart would repeat)";
}
constexpr std::string_view kOverflowHint = "split the fill over several streams (skip_ahead_sequence)";

// words_overflow for an m×n matrix (negative sizes are reported elsewhere).
template <class T>
std::string matrix_overflow(const Sampler<T>& sampler, std::int64_t m, std::int64_t n) {
  if (m < 0 || n < 0) return {};
  std::uint64_t mn = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(n), &mn))
    return "m * n = " + std::to_string(m) + " * " + std::to_string(n) + " values overflow 2^64";
  return words_overflow(sampler.budget(), mn, sampler.name());
}

}  // namespace

Slice local_slice(const Communicator& comm, std::uint64_t total) noexcept {
  return partition(total, comm.size(), comm.rank());
}

template <class T>
Stream fill_range(Stream s, std::uint64_t begin, const Sampler<T>& sampler, std::span<T> out,
                  const trncore::Options& options) {
  if (out.size() % sampler.width() != 0)
    throw trncore::DimensionMismatch("trnrand::mpi::fill_range",
                                     "out.size() = " + std::to_string(out.size()) + " is not a multiple of " +
                                         sampler.name() + "'s width " + std::to_string(sampler.width()),
                                     "pass whole values: width elements each");
  return sampler(skip_ahead(s, sampler.budget() * begin), out, options);
}

template <class T>
Stream fill(const Communicator& comm, Stream s, std::uint64_t total, const Sampler<T>& sampler, std::span<T> local,
            const trncore::Options& options) {
  CollectiveCheck check(comm, "trnrand::mpi::fill");
  const Slice slice = local_slice(comm, total);
  check.same("total", bits(total));
  same_fill(check, s, sampler, options);
  const std::string overflow = words_overflow(sampler.budget(), total, sampler.name());
  check.require(overflow.empty(), ErrorKind::invalid_argument, overflow, kOverflowHint);
  const std::uint64_t want = slice.count * sampler.width();
  check.require(local.size() == want, ErrorKind::dimension_mismatch,
                "local.size() = " + std::to_string(local.size()) +
                    ", but this rank's slice of total = " + std::to_string(total) + " values over " +
                    std::to_string(comm.size()) + " ranks is values " + std::to_string(slice.begin) + " ... " +
                    std::to_string(slice.begin + slice.count) + " (exclusive), " + std::to_string(slice.count) +
                    " values of " + std::to_string(sampler.width()) + " elements",
                "size local as trnrand::mpi::local_slice(comm, total).count * sampler.width()");
  validate_sampler(check, s, sampler, options);
  check.finish();
  fill_range(s, slice.begin, sampler, local, options);
  return skip_ahead(s, sampler.budget() * total);
}

template <class T>
Stream fill_submatrix(Stream s, std::int64_t m, std::int64_t n, Layout layout, std::span<const std::int64_t> rows,
                      std::span<const std::int64_t> cols, const Sampler<T>& sampler, std::span<T> out, std::int64_t ld,
                      const trncore::Options& options) {
  constexpr std::string_view function = "trnrand::mpi::fill_submatrix";
  auto bad = [&](const std::string& problem, std::string_view hint) {
    throw trncore::InvalidArgument(function, problem, hint);
  };
  if (!valid_layout(layout))
    bad("layout = " + std::to_string(static_cast<int>(layout)) + " is not a Layout value",
        "pass Layout::column_major or Layout::row_major");
  if (m < 0 || n < 0)
    bad("m = " + std::to_string(m) + ", n = " + std::to_string(n) + ": sizes must be >= 0", "pass m, n >= 0");
  std::int64_t mn = 0;
  if (__builtin_mul_overflow(m, n, &mn))
    bad("m * n = " + std::to_string(m) + " * " + std::to_string(n) + " overflows int64", "pass a smaller matrix");
  if (const std::string overflow = words_overflow(sampler.budget(), static_cast<std::uint64_t>(mn), sampler.name());
      !overflow.empty())
    bad(overflow, kOverflowHint);
  if (sampler.width() != 1)
    throw trncore::NotSupported(function,
                                sampler.name() + " has values of " + std::to_string(sampler.width()) +
                                    " elements; a matrix of them has no single element layout",
                                "fill whole values (rows of the multivariate normal) with trnrand::mpi::fill_range");
  const auto nr = static_cast<std::int64_t>(rows.size()), nc = static_cast<std::int64_t>(cols.size());
  if (ld < std::max<std::int64_t>(1, nr))
    bad("ld = " + std::to_string(ld) + " < max(1, rows.size() = " + std::to_string(nr) + ")",
        "pass ld >= max(1, rows.size())");
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (rows[r] < 0 || rows[r] >= m)
      bad("rows[" + std::to_string(r) + "] = " + std::to_string(rows[r]) + " is outside [0, m = " + std::to_string(m) +
              ")",
          "pass row indices of the m x n matrix");
  for (std::size_t c = 0; c < cols.size(); ++c)
    if (cols[c] < 0 || cols[c] >= n)
      bad("cols[" + std::to_string(c) + "] = " + std::to_string(cols[c]) + " is outside [0, n = " + std::to_string(n) +
              ")",
          "pass column indices of the m x n matrix");
  const std::int64_t need = nr == 0 || nc == 0 ? 0 : ld * (nc - 1) + nr;
  if (static_cast<std::int64_t>(out.size()) < need)
    throw trncore::DimensionMismatch(
        function,
        "out.size() = " + std::to_string(out.size()) + " < ld * (cols - 1) + rows = " + std::to_string(need) +
            " (ld = " + std::to_string(ld) + ", rows = " + std::to_string(nr) + ", cols = " + std::to_string(nc) + ")",
        "pass an output of ld * cols.size() elements");
  sampler(s, std::span<T>{}, options);  // the sampler's own checks, also when nothing is filled
  const Stream after = skip_ahead(s, sampler.budget() * static_cast<std::uint64_t>(mn));
  if (nr == 0 || nc == 0) return after;

  // Column-major G: value i + j·m, runs of consecutive rows within a column, written contiguously. Row-major
  // G: value i·n + j, runs of consecutive columns within a row, written with stride ld through a buffer.
  const bool column_major = layout == Layout::column_major;
  const std::span<const std::int64_t> outer = column_major ? cols : rows;
  const std::span<const std::int64_t> inner = column_major ? rows : cols;
  const std::int64_t outer_stride = column_major ? m : n;
  auto do_outer = [&](std::int64_t o, const trncore::Options& opt, std::vector<T>& buffer) {
    const std::int64_t base = outer[static_cast<std::size_t>(o)] * outer_stride;
    std::size_t p = 0;
    while (p < inner.size()) {
      std::size_t q = p + 1;
      while (q < inner.size() && inner[q] == inner[q - 1] + 1) ++q;
      const auto first = static_cast<std::uint64_t>(base + inner[p]);
      const std::size_t len = q - p;
      if (column_major) {
        fill_range(s, first, sampler, out.subspan(static_cast<std::size_t>(o * ld) + p, len), opt);
      } else {
        buffer.resize(len);
        fill_range(s, first, sampler, std::span<T>(buffer), opt);
        for (std::size_t t = 0; t < len; ++t)
          out[static_cast<std::size_t>(o) + (p + t) * static_cast<std::size_t>(ld)] = buffer[t];
      }
      p = q;
    }
  };
  const int threads = trncore::detail::resolve_threads(options.threads);
  if (options.backend == trncore::Backend::host && threads > 1 &&
      static_cast<std::int64_t>(outer.size()) >= 2 * threads) {
    // Many columns (rows): one per task, each run on the task's thread.
    trncore::Options one = options;
    one.threads = 1;
    trncore::detail::parallel_for(static_cast<std::int64_t>(outer.size()), threads, [&](std::int64_t o) {
      std::vector<T> buffer;
      do_outer(o, one, buffer);
    });
  } else {
    std::vector<T> buffer;
    for (std::int64_t o = 0; o < static_cast<std::int64_t>(outer.size()); ++o) do_outer(o, options, buffer);
  }
  return after;
}

std::vector<std::int64_t> owned_rows(const Descriptor& desc, const ProcessGrid& grid) {
  std::vector<std::int64_t> rows(static_cast<std::size_t>(std::max<std::int64_t>(0, local_rows(desc, grid))));
  for (std::size_t il = 0; il < rows.size(); ++il)
    rows[il] = local_to_global_row(static_cast<std::int64_t>(il), desc, grid);
  return rows;
}

std::vector<std::int64_t> owned_cols(const Descriptor& desc, const ProcessGrid& grid) {
  std::vector<std::int64_t> cols(static_cast<std::size_t>(std::max<std::int64_t>(0, local_cols(desc, grid))));
  for (std::size_t jl = 0; jl < cols.size(); ++jl)
    cols[jl] = local_to_global_col(static_cast<std::int64_t>(jl), desc, grid);
  return cols;
}

template <class T>
Stream fill_block_cyclic(const ProcessGrid& grid, const Descriptor& desc, Stream s, const Sampler<T>& sampler,
                         std::span<T> local, Layout layout, const trncore::Options& options) {
  CollectiveCheck check(grid.comm(), "trnrand::mpi::fill_block_cyclic");
  check_descriptor(check, grid, desc, "desc");
  same_fill(check, s, sampler, options);
  const std::string overflow = matrix_overflow(sampler, desc.m, desc.n);
  check.require(overflow.empty(), ErrorKind::invalid_argument, overflow, kOverflowHint);
  check.same("layout", static_cast<std::int64_t>(layout));
  check.require(valid_layout(layout), ErrorKind::invalid_argument,
                "layout = " + std::to_string(static_cast<int>(layout)) + " is not a Layout value",
                "pass Layout::column_major or Layout::row_major");
  check.require(sampler.width() == 1, ErrorKind::not_supported,
                sampler.name() + " has values of " + std::to_string(sampler.width()) + " elements",
                "distribute scalar samplers; fill multivariate rows with trnrand::mpi::fill_range");
  const std::int64_t need = check.failed_locally() ? 0 : trncore::mpi::local_size(desc, grid);
  check.require(static_cast<std::int64_t>(local.size()) >= need, ErrorKind::dimension_mismatch,
                "local.size() = " + std::to_string(local.size()) + " < lld * local columns = " + std::to_string(need),
                "size local as trncore::mpi::local_size(desc, grid)");
  validate_sampler(check, s, sampler, options);
  check.finish();
  const std::vector<std::int64_t> rows = owned_rows(desc, grid), cols = owned_cols(desc, grid);
  return fill_submatrix(s, desc.m, desc.n, layout, rows, cols, sampler, local, desc.lld, options);
}

template <class T>
Stream fill_rows(const ProcessGrid& grid, const Descriptor& desc, RowsOf follow, std::int64_t k, Stream s,
                 const Sampler<T>& sampler, std::span<T> out, std::int64_t ld, Layout layout,
                 const trncore::Options& options) {
  CollectiveCheck check(grid.comm(), "trnrand::mpi::fill_rows");
  check_descriptor(check, grid, desc, "desc");
  same_fill(check, s, sampler, options);
  check.same("k", k);
  check.same("follow", static_cast<std::int64_t>(follow));
  check.same("layout", static_cast<std::int64_t>(layout));
  check.require(follow == RowsOf::rows || follow == RowsOf::columns, ErrorKind::invalid_argument,
                "follow = " + std::to_string(static_cast<int>(follow)) + " is not a RowsOf value",
                "pass RowsOf::rows or RowsOf::columns");
  check.require(valid_layout(layout), ErrorKind::invalid_argument,
                "layout = " + std::to_string(static_cast<int>(layout)) + " is not a Layout value",
                "pass Layout::column_major or Layout::row_major");
  check.require(k >= 0, ErrorKind::invalid_argument, "k = " + std::to_string(k) + " < 0", "pass k >= 0");
  const std::string overflow = matrix_overflow(sampler, follow == RowsOf::columns ? desc.n : desc.m, k);
  check.require(overflow.empty(), ErrorKind::invalid_argument, overflow, kOverflowHint);
  check.require(sampler.width() == 1, ErrorKind::not_supported,
                sampler.name() + " has values of " + std::to_string(sampler.width()) + " elements",
                "distribute scalar samplers; fill multivariate rows with trnrand::mpi::fill_range");
  // The count only: the rows themselves are listed after the check (a huge descriptor must fail the check
  // on every rank, not run out of memory on some).
  std::int64_t nr = 0;
  if (!check.failed_locally()) nr = follow == RowsOf::rows ? local_rows(desc, grid) : local_cols(desc, grid);
  check.require(ld >= std::max<std::int64_t>(1, nr), ErrorKind::invalid_argument,
                "ld = " + std::to_string(ld) + " < max(1, rows held here = " + std::to_string(nr) + ")",
                "pass ld >= max(1, the rows this process holds)");
  const std::int64_t need = nr == 0 || k <= 0 ? 0 : ld * (k - 1) + nr;
  check.require(
      static_cast<std::int64_t>(out.size()) >= need, ErrorKind::dimension_mismatch,
      "out.size() = " + std::to_string(out.size()) + " < ld * (k - 1) + rows held here = " + std::to_string(need),
      "pass an output of ld * k elements");
  validate_sampler(check, s, sampler, options);
  check.finish();
  const std::vector<std::int64_t> rows = follow == RowsOf::rows ? owned_rows(desc, grid) : owned_cols(desc, grid);
  std::vector<std::int64_t> cols(static_cast<std::size_t>(k));
  std::iota(cols.begin(), cols.end(), std::int64_t{0});
  const std::int64_t m = follow == RowsOf::rows ? desc.m : desc.n;
  return fill_submatrix(s, m, k, layout, rows, cols, sampler, out, ld, options);
}

Stream randperm(const Communicator& comm, Stream s, std::uint64_t total, std::span<std::int64_t> local,
                const trncore::Options& options) {
  CollectiveCheck check(comm, "trnrand::mpi::randperm");
  const Slice slice = local_slice(comm, total);
  check.same("total", bits(total));
  check.same("stream seed", bits(s.seed));
  check.same("stream subsequence", bits(s.subsequence));
  check.same("stream offset", bits(s.offset));
  check.same("stream generator", static_cast<std::int64_t>(s.generator));
  check.require(total <= kWindow, ErrorKind::invalid_argument,
                "total = " + std::to_string(total) + " exceeds 2^32: steps 2^32 apart would draw from the same " +
                    "window of 2^32 words (a stream holds 2^64 words)",
                "pass a permutation of at most 2^32 elements");
  check.require(local.size() == slice.count, ErrorKind::dimension_mismatch,
                "local.size() = " + std::to_string(local.size()) +
                    ", but this rank's slice of total = " + std::to_string(total) + " over " +
                    std::to_string(comm.size()) + " ranks has " + std::to_string(slice.count) + " elements",
                "size local as trnrand::mpi::local_slice(comm, total).count");
  check.capture([&] { randperm_draws(s, 0, std::span<std::int64_t>{}, options); });
  check.finish();
  // Draw this rank's steps, share all draws, replay the swaps k = total − 1 … 1 (as trnrand::randperm does).
  std::vector<std::int64_t> draws(slice.count);
  randperm_draws(s, slice.begin, std::span<std::int64_t>(draws), options);
  std::vector<std::int64_t> all = comm.allgatherv(std::span<const std::int64_t>(draws));
  draws = {};
  std::vector<std::int64_t> p(total);
  std::iota(p.begin(), p.end(), std::int64_t{0});
  for (std::size_t k = p.size(); k-- > 1;) std::swap(p[k], p[static_cast<std::size_t>(all[k])]);
  std::copy_n(p.begin() + static_cast<std::ptrdiff_t>(slice.begin), slice.count, local.begin());
  return skip_ahead(s, total * kWindow);
}

#define TRNRAND_MPI_INSTANTIATE(T)                                                                                  \
  template Stream fill(const Communicator&, Stream, std::uint64_t, const Sampler<T>&, std::span<T>,                 \
                       const trncore::Options&);                                                                    \
  template Stream fill_range(Stream, std::uint64_t, const Sampler<T>&, std::span<T>, const trncore::Options&);      \
  template Stream fill_submatrix(Stream, std::int64_t, std::int64_t, Layout, std::span<const std::int64_t>,         \
                                 std::span<const std::int64_t>, const Sampler<T>&, std::span<T>, std::int64_t,      \
                                 const trncore::Options&);                                                          \
  template Stream fill_block_cyclic(const ProcessGrid&, const Descriptor&, Stream, const Sampler<T>&, std::span<T>, \
                                    Layout, const trncore::Options&);                                               \
  template Stream fill_rows(const ProcessGrid&, const Descriptor&, RowsOf, std::int64_t, Stream, const Sampler<T>&, \
                            std::span<T>, std::int64_t, Layout, const trncore::Options&);
TRNRAND_MPI_INSTANTIATE(float)
TRNRAND_MPI_INSTANTIATE(double)
TRNRAND_MPI_INSTANTIATE(std::uint32_t)
TRNRAND_MPI_INSTANTIATE(std::uint64_t)
TRNRAND_MPI_INSTANTIATE(std::int64_t)
TRNRAND_MPI_INSTANTIATE(std::uint8_t)
#undef TRNRAND_MPI_INSTANTIATE

}  // namespace trnrand::mpi
