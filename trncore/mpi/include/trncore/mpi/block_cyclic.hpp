#pragma once
/// @file
/// 2-D block-cyclic matrices over a P×Q process grid with ScaLAPACK's conventions (docs/distributed.md,
/// "Grid and descriptors"): a global m×n matrix is cut into mb×nb blocks; block (I, J) lives on process
/// ((I + rsrc) mod P, (J + csrc) mod Q); each process stores its blocks column-major with leading dimension
/// lld. Indices are 0-based here; a ScaLAPACK descriptor converts with to_scalapack()/from_scalapack(), so
/// a matrix distributed by ScaLAPACK is used in place and handed back unchanged.

#include <trncore/mpi/collective_check.hpp>
#include <trncore/mpi/communicator.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace trncore::mpi {

/// A P×Q grid over a communicator's ranks in BLACS "Row" order: rank r is at process row r / Q, column
/// r mod Q (what Cblacs_gridinit(…, "Row", P, Q) gives over the same communicator). Owns its communicators.
class ProcessGrid {
 public:
  /// Duplicates `comm` and splits it into row and column communicators. Collective.
  /// @throws trncore::InvalidArgument on every rank when p < 1, q < 1 or p·q ≠ comm.size().
  ProcessGrid(const Communicator& comm, int p, int q);
  /// The most square grid P ≤ Q with P·Q = comm.size() (4 → 2×2, 3 → 1×3, 6 → 2×3). Collective.
  static ProcessGrid square(const Communicator& comm);

  int rows() const noexcept { return p_; }   ///< P
  int cols() const noexcept { return q_; }   ///< Q
  int row() const noexcept { return row_; }  ///< this process's row in [0, P)
  int col() const noexcept { return col_; }  ///< this process's column in [0, Q)
  /// The grid's communicator (ranks in row-major grid order).
  const Communicator& comm() const noexcept { return comm_; }
  /// The processes of this process row, ranked by grid column.
  const Communicator& row_comm() const noexcept { return row_comm_; }
  /// The processes of this process column, ranked by grid row.
  const Communicator& col_comm() const noexcept { return col_comm_; }
  /// The grid rank of process (row, col).
  int rank_of(int row, int col) const noexcept { return row * q_ + col; }

 private:
  Communicator comm_;
  Communicator row_comm_;
  Communicator col_comm_;
  int p_ = 1, q_ = 1, row_ = 0, col_ = 0;
};

/// A block-cyclic layout, ScaLAPACK's array descriptor without the context (0-based source process).
struct Descriptor {
  std::int64_t m = 0;     ///< global rows
  std::int64_t n = 0;     ///< global columns
  std::int64_t mb = 1;    ///< row block size
  std::int64_t nb = 1;    ///< column block size
  std::int64_t rsrc = 0;  ///< process row owning the first block row
  std::int64_t csrc = 0;  ///< process column owning the first block column
  std::int64_t lld = 1;   ///< leading dimension of the local column-major array (≥ max(1, local rows))
  /// Field-by-field equality.
  bool operator==(const Descriptor&) const = default;
};

/// ScaLAPACK's NUMROC: how many of n indices, cut into blocks of nb and dealt cyclically over nprocs
/// processes starting at isrc, process iproc owns. Never throws (0 for n ≤ 0).
std::int64_t numroc(std::int64_t n, std::int64_t nb, std::int64_t iproc, std::int64_t isrc,
                    std::int64_t nprocs) noexcept;

/// The descriptor of an m×n matrix in mb×nb blocks on `grid` starting at process (rsrc, csrc), with the
/// tightest lld (max(1, local rows) on this process). @throws trncore::InvalidArgument (local, not
/// collective) for negative sizes, block sizes < 1, or a source outside the grid.
Descriptor make_descriptor(const ProcessGrid& grid, std::int64_t m, std::int64_t n, std::int64_t mb, std::int64_t nb,
                           std::int64_t rsrc = 0, std::int64_t csrc = 0);

/// Rows of the global matrix stored on this process.
std::int64_t local_rows(const Descriptor& d, const ProcessGrid& grid) noexcept;
/// Columns of the global matrix stored on this process.
std::int64_t local_cols(const Descriptor& d, const ProcessGrid& grid) noexcept;
/// Elements a local array of `d` holds on this process: lld · local columns.
std::int64_t local_size(const Descriptor& d, const ProcessGrid& grid) noexcept;

/// The process row owning global row i.
std::int64_t owner_row(std::int64_t i, const Descriptor& d, const ProcessGrid& grid) noexcept;
/// The process column owning global column j.
std::int64_t owner_col(std::int64_t j, const Descriptor& d, const ProcessGrid& grid) noexcept;
/// The local row index of global row i on its owner.
std::int64_t global_to_local_row(std::int64_t i, const Descriptor& d, const ProcessGrid& grid) noexcept;
/// The local column index of global column j on its owner.
std::int64_t global_to_local_col(std::int64_t j, const Descriptor& d, const ProcessGrid& grid) noexcept;
/// The global row of local row il on this process.
std::int64_t local_to_global_row(std::int64_t il, const Descriptor& d, const ProcessGrid& grid) noexcept;
/// The global column of local column jl on this process.
std::int64_t local_to_global_col(std::int64_t jl, const Descriptor& d, const ProcessGrid& grid) noexcept;

/// The 9-integer ScaLAPACK descriptor {DTYPE=1, CTXT, M, N, MB, NB, RSRC, CSRC, LLD} of `d` for a BLACS
/// context. @throws trncore::InvalidArgument when a field does not fit a Fortran INTEGER.
std::array<int, 9> to_scalapack(const Descriptor& d, int blacs_context);
/// The layout of a ScaLAPACK descriptor (the context is not used: the grid is passed separately and must
/// be the BLACS grid's — check_descriptor() compares what it can). @throws trncore::InvalidArgument when
/// DTYPE is not 1 (dense) or `desc` is null.
Descriptor from_scalapack(const int* desc);

/// Records into `check` every problem with `d` as the layout of a local array on `grid`: negative sizes,
/// block sizes < 1, sources outside the grid, lld < max(1, local rows); and check.same() on m, n, mb, nb,
/// rsrc and csrc, so ranks with different descriptors fail together. `name` is the argument's name.
void check_descriptor(CollectiveCheck& check, const ProcessGrid& grid, const Descriptor& d, std::string_view name);

/// A rank's part of a distributed matrix: the layout and the local column-major array (T may be const).
template <class T>
struct DistMatrix {
  Descriptor desc;  ///< the global layout
  T* data;          ///< the local array: element (il, jl) at data[il + jl·desc.lld]
};

/// Distributes a global column-major matrix held on `root` (element (i, j) at global[i + j·ld]; ignored
/// elsewhere) over the grid: returns this process's local array (local_size() elements, lld = d.lld).
/// Collective. @throws on every rank (CollectiveCheck) for a bad descriptor, or ld < max(1, m) on root.
template <class T>
std::vector<T> scatter(const ProcessGrid& grid, const Descriptor& d, const T* global, std::int64_t ld, int root = 0);
/// The inverse: assembles the global matrix on `root` into global (ld ≥ max(1, m)); other ranks may pass
/// null. Collective. @throws as scatter().
template <class T>
void gather(const ProcessGrid& grid, const Descriptor& d, const T* local, T* global, std::int64_t ld, int root = 0);

/// @cond
// Instantiated in block_cyclic.cpp for these element types.
extern template std::vector<float> scatter(const ProcessGrid&, const Descriptor&, const float*, std::int64_t, int);
extern template std::vector<double> scatter(const ProcessGrid&, const Descriptor&, const double*, std::int64_t, int);
extern template std::vector<std::int64_t> scatter(const ProcessGrid&, const Descriptor&, const std::int64_t*,
                                                  std::int64_t, int);
extern template void gather(const ProcessGrid&, const Descriptor&, const float*, float*, std::int64_t, int);
extern template void gather(const ProcessGrid&, const Descriptor&, const double*, double*, std::int64_t, int);
extern template void gather(const ProcessGrid&, const Descriptor&, const std::int64_t*, std::int64_t*, std::int64_t,
                            int);
/// @endcond

}  // namespace trncore::mpi
