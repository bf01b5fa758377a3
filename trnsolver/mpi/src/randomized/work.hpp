#pragma once
// The work layout of the distributed randomized routines and the reproducible building blocks on it: the
// global rows cut into fixed blocks of block_rows, block b on rank b mod P, each stored whole and
// contiguous; row moves between a user's P×1 block-cyclic layout and the work layout; allgathers; sums
// over blocks in ascending block order; flat TSQR; products with a row operator in fixed column tiles.
// Every floating-point operation on a block is the same call on the same data whatever the rank count.
#include <trnsolver/mpi/randomized.hpp>

#include <trncore/mpi.hpp>
#include <trncore/options.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace trnsolver::mpi::randomized_detail {

namespace tm = trncore::mpi;

/// OpenBLAS single-threaded for the guard's lifetime (its count saved and restored): OpenBLAS's results
/// depend on its thread count (measured: sgemm/LAPACK bits change between 1 and 2 threads), and the
/// reproducibility contract must not depend on the environment; one thread per rank is MPI's model anyway.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas();
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  int saved_;
};

/// Columns of A per product tile (fixed: part of the reproducibility contract; also bounds the scratch).
inline constexpr std::int64_t kColumnTile = 4096;

/// The fixed blocks of m rows and which of them this rank owns (ascending).
struct WorkLayout {
  std::int64_t m = 0, rb = 1, nblocks = 0;
  int ranks = 1, rank = 0;
  std::vector<std::int64_t> ids;
  WorkLayout(std::int64_t rows, std::int64_t block_rows, int nranks, int myrank);
  std::int64_t first(std::int64_t id) const noexcept { return id * rb; }
  std::int64_t rows(std::int64_t id) const noexcept { return std::min(rb, m - id * rb); }
  int owner(std::int64_t id) const noexcept { return static_cast<int>(id % ranks); }
};

/// A distributed m×cols matrix in the work layout: data[t] is block ids[t], rows×cols column-major, ld = rows.
template <class T>
struct Blocks {
  std::int64_t cols = 0;
  std::vector<std::vector<T>> data;
};
template <class T>
Blocks<T> make_blocks(const WorkLayout& w, std::int64_t cols);

/// A P×1 block-cyclic row layout (ScaLAPACK: block I of mb rows on process (I + rsrc) mod P).
struct UserRows {
  std::int64_t mb = 1, rsrc = 0, lld = 1;
  int ranks = 1;
  int owner(std::int64_t i) const noexcept { return static_cast<int>((i / mb + rsrc) % ranks); }
  std::int64_t local(std::int64_t i) const noexcept { return (i / mb / ranks) * mb + i % mb; }
};

/// The user's local m×cols array (layout `user`, ld user.lld) moved to the work layout. Collective.
template <class T>
Blocks<T> to_work(const tm::Communicator& comm, const WorkLayout& w, const UserRows& user, const T* local,
                  std::int64_t cols);
/// The inverse: this rank's local array (user.lld × cols) of the work-layout matrix. Collective.
template <class T>
std::vector<T> to_user(const tm::Communicator& comm, const WorkLayout& w, const Blocks<T>& b, const UserRows& user);
/// The whole m×cols matrix on every rank, column-major, ld = m. Collective.
template <class T>
std::vector<T> allgather(const tm::Communicator& comm, const WorkLayout& w, const Blocks<T>& b);

/// Σ over all blocks of the partials (len values per local block, block-major in ids order), in ascending
/// global block order, s = p₀; s += p₁; …, on every rank: trncore::mpi::ordered_sum (a reduce-scatter
/// and an allgather). Collective.
template <class T>
std::vector<T> block_sum(const tm::Communicator& comm, const WorkLayout& w, const std::vector<T>& partials,
                         std::int64_t len);

/// Overwrites y (m×c, m ≥ c) by the Q of a flat Householder TSQR over the work blocks: per-block geqrf, an
/// allgather of the blocks' R factors, one geqrf of their stack (ascending block order) on every rank, and
/// Q_b = Q_b,local·Q_stack,b. When r is given it receives R (c×c, column-major). Collective.
template <class T>
void tsqr(const tm::Communicator& comm, const WorkLayout& w, Blocks<T>& y, std::vector<T>* r,
          const trncore::Options& host);
/// Overwrites the replicated rows×c matrix (ld rows, rows ≥ c) by its Householder Q. Local.
template <class T>
void orth_local(std::vector<T>& a, std::int64_t rows, std::int64_t c, const trncore::Options& host);

/// In place: every value rounded to bf16 (nearest-even) and back, exactly (trncore::convert).
template <class T>
void round_bf16(T* x, std::int64_t count);

/// A: rows×cols, accessed by row blocks of the work layout.
template <class T>
class RowOperator {
 public:
  virtual ~RowOperator() = default;
  RowOperator(std::int64_t rows, std::int64_t cols) : rows_(rows), cols_(cols) {}
  std::int64_t rows() const noexcept { return rows_; }
  std::int64_t cols() const noexcept { return cols_; }
  /// Writes A(first(id) + i, c0 + j), i < rows(id), j < width, into out (ld = rows(id)).
  virtual void tile(const WorkLayout& w, std::int64_t t, std::int64_t c0, std::int64_t width, T* out) const = 0;
  /// A pointer to the stored tile (ld rows(id)) when A is stored, else null (then tile() copies/forms it).
  virtual const T* stored_tile(const WorkLayout&, std::int64_t, std::int64_t) const { return nullptr; }

 private:
  std::int64_t rows_, cols_;
};

/// y = A·x for the replicated x (cols×c, ld cols): per local block, Σ over column tiles (ascending) of
/// tile·x_tile, operands rounded to bf16 first when asked. Local (no communication).
template <class T>
Blocks<T> apply(const WorkLayout& w, const RowOperator<T>& a, const T* x, std::int64_t c, RangePrecision precision,
                const trncore::Options& host);
/// Per local block, A_bᵀ·y_b (cols×c, ld cols), block-major in ids order; column tiles as apply. Local.
template <class T>
std::vector<T> transpose_partials(const WorkLayout& w, const RowOperator<T>& a, const Blocks<T>& y,
                                  RangePrecision precision, const trncore::Options& host);

}  // namespace trnsolver::mpi::randomized_detail
