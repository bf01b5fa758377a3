#pragma once
/// @file
/// Row-distributed sparse matrices (docs/distributed.md, "Row-distributed CSR"): each process holds a
/// contiguous range of rows with global column indices; a HaloPlan, built once, knows which entries of a
/// distributed vector each process needs from which other and exchanges exactly those in every product;
/// the products and the Krylov solvers (trnsolver's one stack, with its distributed reductions) run on it.
///
/// Reproducibility: a product computes each row with trnsparse::spmv's kernel in storage order on the same
/// values, so y is bitwise the single-process spmv's for any number of processes; with rows split by
/// trnsolver::mpi::aligned_rows the solvers are bitwise the single-process solve as well.

#include <trnsparse/formats.hpp>
#include <trnsparse/matrix_market.hpp>

#include <trnsolver/krylov.hpp>

#include <trncore/mpi/communicator.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace trnsparse::mpi {

/// One process's rows of a row-distributed sparse matrix.
template <class T, class I = std::int32_t>
struct DistCsr {
  std::int64_t global_rows = 0;  ///< rows of the whole matrix
  std::int64_t row_begin = 0;    ///< the first global row held here
  /// Rows [row_begin, row_begin + local.rows) of the matrix; local.cols is the whole matrix's column count
  /// and the column indices are global.
  Csr<T, I> local;
};

/// Rows [row_begin, row_begin + row_count) of `a` as a DistCsr (local; no communication): a test and
/// convenience helper for matrices every process can build.
/// @throws trncore::InvalidArgument for an invalid `a` or a range outside its rows.
template <class T, class I>
DistCsr<T, I> rows_of(const Csr<T, I>& a, std::int64_t row_begin, std::int64_t row_count);

/// This process's rows [row_begin, row_begin + row_count) of the Matrix Market file at `path`
/// (trnsparse::read_matrix_market_rows, then to_csr): every process parses the file and keeps only its
/// rows, so no process holds the whole matrix. Collective: a problem on any process (unreadable file, parse
/// error, a range outside the matrix, ranges that do not tile the rows) is thrown on every process.
/// @throws on every process: trncore::InvalidArgument for a file that cannot be read or parsed (the message
/// names the process and carries the reader's message, line and column included) or a bad range;
/// DimensionMismatch when the ranges do not tile the matrix's rows.
template <class T = double, class I = std::int32_t>
DistCsr<T, I> read_matrix_market_rows(const trncore::mpi::Communicator& comm, const std::string& path,
                                      std::int64_t row_begin, std::int64_t row_count);

/// The communication plan of products y = A·x for a row-distributed A and x distributed by contiguous
/// ranges over the same processes. Built once (collective): the needed columns of each process's rows that
/// other processes hold (the halo) are requested once, and every product then sends exactly those entries
/// in one all-to-all. The plan keeps its own copy of the local rows (columns renumbered: this process's x
/// entries first, then the halo) and a duplicate of the communicator.
template <class T, class I = std::int32_t>
class HaloPlan {
 public:
  /// @param comm     the processes holding A's rows (every one calls)
  /// @param a        this process's rows
  /// @param x_begin  the first global entry of x (of B's rows, for spmm) held here
  /// @param x_count  how many entries of x are held here; the processes' ranges must tile [0, A's columns)
  /// @throws on every process: InvalidArgument for an invalid local CSR or negative ranges;
  ///         DimensionMismatch when the processes disagree on A's shape, or the row or x ranges do not tile
  ///         the matrix (naming the offending range).
  HaloPlan(const trncore::mpi::Communicator& comm, const DistCsr<T, I>& a, std::int64_t x_begin, std::int64_t x_count);

  std::int64_t global_rows() const noexcept { return global_rows_; }  ///< rows of A
  std::int64_t global_cols() const noexcept { return global_cols_; }  ///< columns of A
  std::int64_t row_begin() const noexcept { return row_begin_; }      ///< first row held here
  std::int64_t local_rows() const noexcept { return local_.rows; }    ///< rows held here
  std::int64_t x_begin() const noexcept { return x_begin_; }          ///< first x entry held here
  std::int64_t x_count() const noexcept { return x_count_; }          ///< x entries held here
  /// Entries of x this process receives per product (the halo).
  std::int64_t halo_size() const noexcept { return static_cast<std::int64_t>(halo_columns_.size()); }
  /// Entries of x this process sends per product.
  std::int64_t send_size() const noexcept { return static_cast<std::int64_t>(send_index_.size()); }
  /// The plan's communicator (a duplicate of the one it was built with).
  const trncore::mpi::Communicator& communicator() const noexcept { return *comm_; }
  /// The global columns of the halo, in the order they arrive (by owner process, then ascending).
  const std::vector<std::int64_t>& halo_columns() const noexcept { return halo_columns_; }

  /// y = alpha·A·x + beta·y on this process's rows (x: this process's x_count entries; y: its local_rows()
  /// entries). One all-to-all of the halo, then trnsparse::spmv on the local rows: each row is the
  /// single-process spmv's, bit for bit, for any number of processes. Collective.
  /// Accuracy: as trnsparse::spmv. @throws as trnsparse::spmv (DimensionMismatch for wrong lengths) — on the
  /// process whose arguments are wrong, after the exchange (sizes are checked collectively first).
  void spmv(T alpha, std::span<const T> x, T beta, std::span<T> y, const trncore::Options& options = {}) const;
  /// C = alpha·A·B + beta·C for n right-hand columns: B holds this process's x_count rows of the
  /// (A's columns × n) matrix, C its local_rows() rows, both row-major with leading dimensions ldb, ldc ≥
  /// max(1, n). One all-to-all of the halo rows, then trnsparse::spmm; bitwise the single-process spmm's rows.
  /// Collective. @throws as trnsparse::spmm, after a collective size check.
  void spmm(T alpha, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta, std::span<T> c, std::int64_t ldc,
            const trncore::Options& options = {}) const;
  /// The operator x ↦ A·x on this process's part, for the Krylov stack (A square, x distributed like A's
  /// rows). Every application is collective. The operator refers to this plan: keep the plan alive while
  /// it is used.
  trnsolver::LinearOperator<T> linear_operator(const trncore::Options& options = {}) const;

 private:
  void exchange(std::span<const T> x, std::int64_t width, std::vector<T>& compact) const;
  void check_call(const char* function, std::int64_t x_len, std::int64_t y_len) const;

  std::shared_ptr<trncore::mpi::Communicator> comm_;
  std::int64_t global_rows_ = 0, global_cols_ = 0, row_begin_ = 0, x_begin_ = 0, x_count_ = 0;
  Csr<T, I> local_;                         // columns: [0, x_count) own, then the halo in arrival order
  std::vector<std::int64_t> halo_columns_;  // global column of each halo slot
  std::vector<std::int64_t> send_index_;    // local x entries to send, grouped by destination process
  std::vector<std::int64_t> send_counts_;   // per destination process
};

/// The Jacobi preconditioner y = x / diag(A) on this process's rows (local, no communication).
/// @throws trncore::InvalidArgument when a diagonal entry held here is missing or not positive (local).
template <class T, class I>
trnsolver::LinearOperator<T> jacobi_preconditioner(const DistCsr<T, I>& a);

///@{
/// trnsolver's cg, gmres, bicgstab and minres on a row-distributed square A: b and x are this process's parts
/// (distributed like A's rows, which must equal the plan's x ranges); the reductions go through
/// trnsolver::mpi::distributed_reduction, so with rows split by trnsolver::mpi::aligned_rows the result is
/// bitwise the single-process solve's (trnsparse::cg or trnsolver::gmres on matrix_operator). Collective;
/// bad input on any process is thrown on every process. Accuracy and stopping: as the trnsolver solvers.
/// @throws trncore::DimensionMismatch on every process when A is not square or its rows are not distributed
/// like x; otherwise as the trnsolver solver.
template <class T, class I>
trnsolver::KrylovResult cg(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                           const trnsolver::KrylovOptions& options = {},
                           const trnsolver::LinearOperator<T>& preconditioner = {});
template <class T, class I>
trnsolver::KrylovResult gmres(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                              const trnsolver::KrylovOptions& options = {},
                              const trnsolver::LinearOperator<T>& preconditioner = {});
template <class T, class I>
trnsolver::KrylovResult bicgstab(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                                 const trnsolver::KrylovOptions& options = {},
                                 const trnsolver::LinearOperator<T>& preconditioner = {});
template <class T, class I>
trnsolver::KrylovResult minres(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                               const trnsolver::KrylovOptions& options = {},
                               const trnsolver::LinearOperator<T>& preconditioner = {});
///@}

}  // namespace trnsparse::mpi
