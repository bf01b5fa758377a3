#pragma once
/// @file
/// Per-rank random streams (docs/distributed.md, "trnrand: per-rank streams"): a fill of `total` values
/// split over the ranks of a communicator, each rank producing its contiguous balanced slice
/// (trnrand::partition), so that the ranks' outputs concatenated in rank order are bitwise one serial
/// trnrand fill of `total` values — for every distribution, any rank count and any thread count. Also fills
/// of any global index range, of any set of rows and columns of a serially filled matrix, and of a
/// block-cyclic matrix's local part (trncore::mpi::Descriptor), each bitwise the corresponding part of the
/// serial fill.
///
/// Why it holds: every trnrand sampler gives value i its own words (distributions.hpp, "word budget"):
/// b·i … b·i + b − 1 after the stream's offset, b fixed per sampler (1, 2, 4, 2·d or 4·d words, or a window
/// of 2^32 words for the rejection samplers). Value i of the global fill is therefore value 0 of a fill
/// from skip_ahead(s, b·i), whoever computes it, with whatever threads; no communication is needed beyond
/// the argument check. Sampler<T> packages a sampler with its budget, so one code path serves all.
///
/// The function templates below are compiled into the library for the samplers' element types: T = float,
/// double, std::uint32_t, std::uint64_t, std::int64_t and std::uint8_t.

#include <trncore/mpi/block_cyclic.hpp>
#include <trncore/mpi/communicator.hpp>
#include <trncore/options.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

/// trnrand's MPI component (trnsci::trnrand_mpi, docs/distributed.md): per-rank slices of serial fills, for
/// every distribution, whose concatenation in rank order is bitwise the serial fill.
namespace trnrand::mpi {

/// A distribution as a value: a fill function with trnrand's calling convention and its word budget.
/// Make one with the factories in trnrand::mpi::samplers; every distributed fill takes one.
///
/// Contract (what makes slices of a fill equal the serial fill): a fill of k values from stream s writes
/// k·width() elements, value i (elements i·width() … (i + 1)·width() − 1) being a function of the words
/// budget()·i … budget()·(i + 1) − 1 after s's offset only (and of the parameters), and returns
/// skip_ahead(s, budget()·k). Every factory's sampler keeps it; a sampler built with the public
/// constructor must keep it too, or the distributed fills lose their guarantee.
template <class T>
class Sampler {
 public:
  /// The fill: (stream, output of a whole number of values, options) → stream after the words used.
  using Fill = std::function<Stream(Stream, std::span<T>, const trncore::Options&)>;

  /// @param name         the distribution and its parameters, for messages (e.g. "trnrand::normal(0, 1)")
  /// @param budget       words of the stream each value uses
  /// @param width        elements per value (1, or d for a d-dimensional multivariate normal)
  /// @param fingerprint  a hash of the parameters: ranks whose samplers differ in it fail a distributed
  ///                     fill's argument check together
  /// @param fill         the fill function (it must validate its parameters when called, also with an
  ///                     empty output, and throw a trncore::Error naming itself for bad ones)
  Sampler(std::string name, std::uint64_t budget, std::size_t width, std::uint64_t fingerprint, Fill fill)
      : name_(std::move(name)), budget_(budget), width_(width), fingerprint_(fingerprint), fill_(std::move(fill)) {}

  /// The distribution and its parameters as text.
  const std::string& name() const noexcept { return name_; }
  /// Words of the stream each value uses.
  std::uint64_t budget() const noexcept { return budget_; }
  /// Elements per value (1 except for multivariate_normal: d).
  std::size_t width() const noexcept { return width_; }
  /// A 64-bit hash of the distribution and its parameters (equal samplers have equal fingerprints).
  std::uint64_t fingerprint() const noexcept { return fingerprint_; }
  /// Fills `out` (a whole number of values) from `s` exactly as the underlying trnrand function would:
  /// returns skip_ahead(s, budget()·out.size()/width()). Throws what that function throws.
  Stream operator()(Stream s, std::span<T> out, const trncore::Options& options = {}) const {
    return fill_(s, out, options);
  }

 private:
  std::string name_;
  std::uint64_t budget_;
  std::size_t width_;
  std::uint64_t fingerprint_;
  Fill fill_;
};

/// The trnrand distributions as Sampler values, one factory per trnrand function and element type, with
/// the same parameters and defaults as the function (distributions.hpp, stream.hpp). A factory never
/// throws for bad parameters: the sampler throws the trnrand function's error when it fills (and a
/// distributed fill's argument check calls it on an empty output, so every rank throws together).
namespace samplers {

/// fill_uint32: one 32-bit word per value (budget 1).
Sampler<std::uint32_t> uint32();
/// fill_uint64: two words per value (budget 2).
Sampler<std::uint64_t> uint64();
/// fill_uniform: T = float (one word, 24-bit grid) or double (two words, 53-bit grid).
template <class T>
Sampler<T> uniform(Interval interval = Interval::open_closed);
/// normal (Box–Muller, cosine half): budget 2 (float) / 4 (double). Backend::sim runs the float one as
/// trnrand::normal does there (normal_engine_order's bits).
Sampler<float> normal(float mean = 0.0f, float stddev = 1.0f);
/// @copydoc normal(float, float)
Sampler<double> normal(double mean, double stddev);
/// normal_engine_order: the sim kernel's roundings on the host (budget 2).
Sampler<float> normal_engine_order(float mean = 0.0f, float stddev = 1.0f);
/// lognormal: budget 2 (float) / 4 (double).
Sampler<float> lognormal(float mean = 0.0f, float stddev = 1.0f);
/// @copydoc lognormal(float, float)
Sampler<double> lognormal(double mean, double stddev);
/// exponential: budget 1 (float) / 2 (double).
Sampler<float> exponential(float rate = 1.0f);
/// @copydoc exponential(float)
Sampler<double> exponential(double rate);
/// bernoulli: budget 2.
Sampler<std::uint8_t> bernoulli(double p);
/// geometric: budget 2.
Sampler<std::int64_t> geometric(double p);
/// categorical over weights (Walker's alias table, built once here and shared by every fill): budget 2.
/// The weights are copied; bad weights make every fill throw the AliasTable constructor's error.
Sampler<std::int64_t> categorical(std::span<const double> weights);
/// randint in [low, high]: window budget (2^32 words per value).
Sampler<std::int64_t> randint(std::int64_t low, std::int64_t high);
/// gamma(shape, scale): window budget.
Sampler<double> gamma(double shape, double scale = 1.0);
/// @copydoc gamma(double, double)
Sampler<float> gamma(float shape, float scale = 1.0f);
/// poisson(λ): window budget.
Sampler<std::int64_t> poisson(double lambda);
/// beta(a, b): window budget.
Sampler<double> beta(double a, double b);
/// @copydoc beta(double, double)
Sampler<float> beta(float a, float b);
/// chi_squared(k): window budget.
Sampler<double> chi_squared(double k);
/// @copydoc chi_squared(double)
Sampler<float> chi_squared(float k);
/// student_t(ν): window budget.
Sampler<double> student_t(double nu);
/// @copydoc student_t(double)
Sampler<float> student_t(float nu);
/// binomial(n, p): window budget.
Sampler<std::int64_t> binomial(std::int64_t n, double p);
/// truncated_normal(mean, stddev, low, high): window budget.
Sampler<double> truncated_normal(double mean, double stddev, double low, double high);
/// @copydoc truncated_normal(double, double, double, double)
Sampler<float> truncated_normal(float mean, float stddev, float low, float high);
/// multivariate_normal(mean, L): one value is one row of d = mean.size() elements (width d), budget 2·d
/// (float) or 4·d (double). mean and L are copied.
Sampler<double> multivariate_normal(std::span<const double> mean, std::span<const double> L);
/// @copydoc multivariate_normal(std::span<const double>, std::span<const double>)
Sampler<float> multivariate_normal(std::span<const float> mean, std::span<const float> L);

}  // namespace samplers

/// This rank's slice of a distributed fill of `total` values: trnrand::partition(total, comm.size(),
/// comm.rank()) — contiguous, in rank order, sizes differing by at most one (the first total mod size
/// ranks get one more). Local, no communication; never throws.
Slice local_slice(const trncore::mpi::Communicator& comm, std::uint64_t total) noexcept;

/// The distributed fill: `local` receives this rank's slice (local_slice(comm, total)) of the serial fill
/// sampler(s, out) of `total` values, so that the ranks' `local` arrays concatenated in rank order are
/// bitwise that serial fill, for any number of ranks and any options.threads on each rank (which may
/// differ between ranks). Collective over `comm`; after the argument check, each rank fills alone (no
/// further communication): local = sampler(skip_ahead(s, budget·begin), local, options).
///
/// @param comm     the ranks sharing the fill (every rank must call)
/// @param s        the stream of the serial fill (the same on every rank)
/// @param total    the values of the serial fill (the same on every rank)
/// @param sampler  the distribution (the same on every rank: name, budget, width and fingerprint)
/// @param local    this rank's values: exactly local_slice(comm, total).count·sampler.width() elements
/// @param options  threads (per rank; 0 = the process default) and backend (the same on every rank)
/// @return skip_ahead(s, budget·total) on every rank — the stream the serial fill returns.
/// @throws on every rank together (trncore::mpi::CollectiveCheck, named "trnrand::mpi::fill"):
/// DimensionMismatch when the ranks disagree about total, the stream (seed, subsequence, offset,
/// generator), the sampler or options.backend, or when local has the wrong size; InvalidArgument when
/// budget·total ≥ 2^64 (the stream's words would wrap and values repeat: more than 2^32 values of a window
/// sampler; the serial fill does not refuse this, the distributed one does); the sampler's own
/// InvalidArgument/NotSupported for bad parameters, options or generator (found by calling it on an empty
/// output on every rank). trncore::mpi::CommunicationError when MPI fails. An error raised by the local
/// fill itself afterwards (ResourceExhausted from a sim kernel) is thrown on the ranks that hit it only;
/// no communication follows, so no rank waits for another.
template <class T>
Stream fill(const trncore::mpi::Communicator& comm, Stream s, std::uint64_t total, const Sampler<T>& sampler,
            std::span<T> local, const trncore::Options& options = {});

/// Values [begin, begin + out.size()/width) of the serial fill sampler(s, ·) of any size: bitwise those
/// values of the serial fill. Local (no communication, any thread): the building block of every fill here.
/// @return skip_ahead(s, budget·(begin + count)) — the stream after the last value filled.
/// @throws trncore::DimensionMismatch ("trnrand::mpi::fill_range") when out.size() is not a multiple of
/// sampler.width(); the sampler's errors.
template <class T>
Stream fill_range(Stream s, std::uint64_t begin, const Sampler<T>& sampler, std::span<T> out,
                  const trncore::Options& options = {});

/// How a serial fill of m·n values is read as an m×n matrix G: column-major (G(i, j) is value i + j·m, the
/// suite's and ScaLAPACK's storage) or row-major (value i·n + j).
enum class Layout : std::uint8_t { column_major, row_major };

/// Any rows × columns of the matrix G that the serial fill sampler(s, ·) of m·n values forms in `layout`:
/// out[r + c·ld] = G(rows[r], cols[c]), bitwise, for r < rows.size(), c < cols.size() (out's other
/// elements are not touched). Indices may come in any order and repeat. Local (no communication).
/// Contiguous runs of indices (consecutive rows in column-major, consecutive columns in row-major) are
/// filled with one sampler call each; options.threads splits the columns (or rows) or, when there are few,
/// each run. With Backend::sim every run is one sim kernel call.
/// @return skip_ahead(s, budget·m·n) — the stream after the whole serial fill.
/// @throws trncore::InvalidArgument ("trnrand::mpi::fill_submatrix") for m < 0, n < 0, budget·m·n ≥ 2^64
/// (words would wrap, as for fill), an index outside
/// [0, m) or [0, n), ld < max(1, rows.size()), or an invalid layout; DimensionMismatch when out holds fewer
/// than ld·(cols.size() − 1) + rows.size() elements; NotSupported for a sampler of width > 1
/// (multivariate_normal: fill its rows with fill_range); the sampler's errors.
template <class T>
Stream fill_submatrix(Stream s, std::int64_t m, std::int64_t n, Layout layout, std::span<const std::int64_t> rows,
                      std::span<const std::int64_t> cols, const Sampler<T>& sampler, std::span<T> out, std::int64_t ld,
                      const trncore::Options& options = {});

/// The global rows of desc stored on this process, in local order (local row il holds global row
/// owned_rows(desc, grid)[il]): the rows of the mb-blocks dealt to grid.row(). Local; never throws.
std::vector<std::int64_t> owned_rows(const trncore::mpi::Descriptor& desc, const trncore::mpi::ProcessGrid& grid);
/// The global columns of desc stored on this process, in local order (the nb-blocks dealt to grid.col()).
std::vector<std::int64_t> owned_cols(const trncore::mpi::Descriptor& desc, const trncore::mpi::ProcessGrid& grid);

/// This process's local part of the block-cyclic m×n matrix `desc` whose global matrix G is the serial
/// fill sampler(s, ·) of desc.m·desc.n values read in `layout`: local[il + jl·desc.lld] =
/// G(owned_rows[il], owned_cols[jl]), bitwise, for every rank count, grid shape and thread count (rows
/// il ≥ local_rows up to lld are not touched). Gathering the local parts (trncore::mpi::gather) gives the
/// serial fill as a column-major m×n matrix. Collective over grid.comm().
/// @param grid     the process grid (every rank of grid.comm() must call)
/// @param desc     the matrix's layout (the same on every rank, lld this process's)
/// @param s        the stream of the serial fill of desc.m·desc.n values
/// @param sampler  the distribution (width 1)
/// @param local    at least trncore::mpi::local_size(desc, grid) elements
/// @param layout   how the serial fill is read as the m×n matrix
/// @param options  threads (per rank) and backend
/// @return skip_ahead(s, budget·m·n) on every rank.
/// @throws on every rank together (CollectiveCheck "trnrand::mpi::fill_block_cyclic"): a bad or mismatched
/// descriptor (trncore::mpi::check_descriptor), ranks disagreeing about the stream, sampler, layout or
/// backend (DimensionMismatch), budget·m·n ≥ 2^64 (InvalidArgument, as for fill), local too small
/// (DimensionMismatch), a sampler of width > 1 (NotSupported), the sampler's errors.
template <class T>
Stream fill_block_cyclic(const trncore::mpi::ProcessGrid& grid, const trncore::mpi::Descriptor& desc, Stream s,
                         const Sampler<T>& sampler, std::span<T> local, Layout layout = Layout::column_major,
                         const trncore::Options& options = {});

/// Which index of a descriptor the rows of a fill_rows matrix follow.
enum class RowsOf : std::uint8_t {
  rows,     ///< desc's row distribution: the matrix has desc.m rows, this process holds owned_rows(desc, grid)
  columns,  ///< desc's column distribution: desc.n rows, this process holds owned_cols(desc, grid) — the rows
            ///< of a sketch Ω (n×k) that multiply this process's columns of A (desc) in A·Ω
};

/// The rows of a global M×k matrix G (the serial fill sampler(s, ·) of M·k values read in `layout`) that
/// follow a block-cyclic distribution of `desc`, with all k columns: out[r + c·ld] = G(rows[r], c), rows =
/// owned_rows(desc, grid) (M = desc.m) or owned_cols(desc, grid) (M = desc.n) as `follow` says, bitwise
/// for every rank count, grid shape and thread count. This is how a distributed sketch draws exactly its
/// share of Ω: with follow = RowsOf::columns, A_local · out is this process's partial product of A·Ω.
/// Processes of the same grid column (rows) or grid row (columns) get the same rows. Collective over
/// grid.comm().
/// @param grid     the process grid (every rank of grid.comm() must call)
/// @param desc     the layout whose row (or column) blocks the rows follow
/// @param follow   RowsOf::rows (M = desc.m) or RowsOf::columns (M = desc.n)
/// @param k        columns of G (the sketch size; the same on every rank)
/// @param s        the stream of the serial fill of M·k values
/// @param sampler  the distribution (width 1)
/// @param out      at least ld·(k − 1) + rows.size() elements (column-major, leading dimension ld)
/// @param ld       ≥ max(1, rows.size())
/// @param layout   how the serial fill is read as the M×k matrix
/// @param options  threads (per rank) and backend
/// @return skip_ahead(s, budget·M·k) on every rank.
/// @throws on every rank together (CollectiveCheck "trnrand::mpi::fill_rows"): as fill_block_cyclic, and
/// for k < 0, ranks disagreeing about k or follow, ld too small, out too small.
template <class T>
Stream fill_rows(const trncore::mpi::ProcessGrid& grid, const trncore::mpi::Descriptor& desc, RowsOf follow,
                 std::int64_t k, Stream s, const Sampler<T>& sampler, std::span<T> out, std::int64_t ld,
                 Layout layout = Layout::column_major, const trncore::Options& options = {});

/// The distributed randperm: `local` receives this rank's slice (local_slice(comm, total)) of the
/// permutation trnrand::randperm(s, p) gives for p of size total, bitwise, for any rank and thread count.
/// Fisher–Yates is sequential, so this is not a pure slice fill: each rank draws its slice of the swap
/// indices (trnrand::randperm_draws, split over options.threads), one allgatherv shares them, and every rank
/// replays the total − 1 swaps (O(total) memory and time per rank; the draws, the costly part, are split).
/// Collective over `comm`.
/// @return skip_ahead(s, total·2^32), as randperm.
/// @throws on every rank together (CollectiveCheck "trnrand::mpi::randperm"): DimensionMismatch for
/// ranks disagreeing about total or the stream, or local of the wrong size; InvalidArgument for total >
/// 2^32 (steps 2^32 apart would share a window of words) or invalid options; NotSupported on Backend::sim. trncore::mpi::CommunicationError when MPI fails.
Stream randperm(const trncore::mpi::Communicator& comm, Stream s, std::uint64_t total, std::span<std::int64_t> local,
                const trncore::Options& options = {});

}  // namespace trnrand::mpi
