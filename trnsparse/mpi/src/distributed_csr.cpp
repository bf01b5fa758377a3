#include <trnsparse/mpi/distributed_csr.hpp>
#include <trnsparse/iterative.hpp>
#include <trnsparse/ops.hpp>

#include <trnsolver/mpi/krylov.hpp>

#include <trncore/mpi/collective_check.hpp>
#include <trncore/mpi/ranges.hpp>
#include <trncore/detail/checks.hpp>
#include <trncore/detail/format_number.hpp>

#include <algorithm>
#include <fstream>
#include <string>

namespace trnsparse::mpi {

namespace {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

template <class T, class I>
DistCsr<T, I> rows_of(const Csr<T, I>& a, std::int64_t row_begin, std::int64_t row_count) {
  constexpr const char* fn = "trnsparse::mpi::rows_of";
  validate(a, fn);
  if (row_begin < 0 || row_count < 0 || row_begin + row_count > a.rows)
    throw trncore::InvalidArgument(
        fn, "rows [" + str(row_begin) + ", " + str(row_begin + row_count) + ") of a " + str(a.rows) + "-row matrix",
        "pass a range inside the matrix's rows");
  DistCsr<T, I> out;
  out.global_rows = a.rows;
  out.row_begin = row_begin;
  out.local.rows = row_count;
  out.local.cols = a.cols;
  const auto first = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(row_begin)]);
  const auto last = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(row_begin + row_count)]);
  out.local.indptr.resize(static_cast<std::size_t>(row_count) + 1);
  for (std::int64_t r = 0; r <= row_count; ++r)
    out.local.indptr[static_cast<std::size_t>(r)] =
        static_cast<I>(a.indptr[static_cast<std::size_t>(row_begin + r)] - static_cast<I>(first));
  out.local.indices.assign(a.indices.begin() + static_cast<std::ptrdiff_t>(first),
                           a.indices.begin() + static_cast<std::ptrdiff_t>(last));
  out.local.values.assign(a.values.begin() + static_cast<std::ptrdiff_t>(first),
                          a.values.begin() + static_cast<std::ptrdiff_t>(last));
  return out;
}

template <class T, class I>
DistCsr<T, I> read_matrix_market_rows(const Communicator& comm, const std::string& path, std::int64_t row_begin,
                                      std::int64_t row_count) {
  constexpr const char* fn = "trnsparse::mpi::read_matrix_market_rows";
  DistCsr<T, I> out;
  MmHeader header;
  CollectiveCheck check(comm, fn);
  check.capture([&] {
    std::ifstream in(path);
    if (!in) throw trncore::IoError(fn, "cannot open '" + path + "' for reading", "check the path and its permissions");
    out.local = to_csr(trnsparse::read_matrix_market_rows<T, I>(in, row_begin, row_count, &header));
  });
  check.finish();
  out.global_rows = header.rows;
  out.row_begin = row_begin;
  trncore::mpi::gather_ranges(comm, fn, "rows", header.rows, {row_begin, row_count});
  return out;
}

template <class T, class I>
HaloPlan<T, I>::HaloPlan(const Communicator& comm, const DistCsr<T, I>& a, std::int64_t x_begin, std::int64_t x_count)
    : comm_(std::make_shared<Communicator>(comm.duplicate())),
      global_rows_(a.global_rows),
      global_cols_(a.local.cols),
      row_begin_(a.row_begin),
      x_begin_(x_begin),
      x_count_(x_count) {
  constexpr const char* fn = "trnsparse::mpi::HaloPlan";
  CollectiveCheck check(*comm_, fn);
  check.same("global rows", a.global_rows).same("global columns", a.local.cols);
  check.capture([&] { validate(a.local, fn); });
  check.finish();
  trncore::mpi::gather_ranges(*comm_, fn, "rows", a.global_rows, {a.row_begin, a.local.rows});
  const auto x_ranges = trncore::mpi::gather_ranges(*comm_, fn, "x entries", a.local.cols, {x_begin, x_count});

  // The columns this process's rows need from others, ascending, then grouped by owner (ranges need not be
  // in rank order).
  std::vector<std::int64_t> needed;
  for (I c : a.local.indices) {
    const auto j = static_cast<std::int64_t>(c);
    if (j < x_begin || j >= x_begin + x_count) needed.push_back(j);
  }
  std::sort(needed.begin(), needed.end());
  needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
  const int ranks = comm_->size();
  std::vector<std::vector<std::int64_t>> by_owner(static_cast<std::size_t>(ranks));
  for (auto j : needed) by_owner[static_cast<std::size_t>(trncore::mpi::owner_of(x_ranges, j))].push_back(j);
  std::vector<std::int64_t> request_counts(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    request_counts[static_cast<std::size_t>(r)] =
        static_cast<std::int64_t>(by_owner[static_cast<std::size_t>(r)].size());
    halo_columns_.insert(halo_columns_.end(), by_owner[static_cast<std::size_t>(r)].begin(),
                         by_owner[static_cast<std::size_t>(r)].end());
  }
  // Each owner learns which of its entries to send to whom: the requests, in requester order.
  const auto requests = comm_->alltoallv(std::span<const std::int64_t>(halo_columns_), request_counts);
  const std::vector<std::int64_t> mine(request_counts);
  // How many each requester asked for: an all-to-all of the counts (one value per pair).
  const auto asked = comm_->alltoallv(std::span<const std::int64_t>(mine), std::vector<std::int64_t>(mine.size(), 1));
  send_counts_ = asked;
  send_index_.reserve(requests.size());
  for (auto j : requests) send_index_.push_back(j - x_begin);

  // The local rows with columns renumbered: own entries at j − x_begin, halo entries after them in arrival
  // order (slot = position in halo_columns_).
  std::vector<std::pair<std::int64_t, std::int64_t>> slot_of;  // (global column, slot), sorted by column
  for (std::size_t k = 0; k < halo_columns_.size(); ++k)
    slot_of.emplace_back(halo_columns_[k], x_count + static_cast<std::int64_t>(k));
  std::sort(slot_of.begin(), slot_of.end());
  local_ = a.local;
  for (auto& c : local_.indices) {
    const auto j = static_cast<std::int64_t>(c);
    if (j >= x_begin && j < x_begin + x_count) {
      c = static_cast<I>(j - x_begin);
    } else {
      const auto at = std::lower_bound(slot_of.begin(), slot_of.end(), std::pair<std::int64_t, std::int64_t>{j, 0});
      c = static_cast<I>(at->second);
    }
  }
  local_.cols = x_count + static_cast<std::int64_t>(halo_columns_.size());
  trncore::detail::check_fits_index<I>(fn, "x entries plus halo", local_.cols);
}

template <class T, class I>
void HaloPlan<T, I>::check_call(const char* function, std::int64_t x_len, std::int64_t y_len) const {
  CollectiveCheck check(*comm_, function);
  check.require(x_len == x_count_, ErrorKind::dimension_mismatch,
                "x (or B) holds " + str(x_len) + " entries here, the plan " + str(x_count_),
                "pass this process's part of x, as given to the plan");
  check.require(y_len == local_.rows, ErrorKind::dimension_mismatch,
                "y (or C) holds " + str(y_len) + " entries here, A " + str(local_.rows) + " rows",
                "pass this process's rows of y");
  check.finish();
}

template <class T, class I>
void HaloPlan<T, I>::exchange(std::span<const T> x, std::int64_t width, std::vector<T>& compact) const {
  std::vector<T> send(send_index_.size() * static_cast<std::size_t>(width));
  for (std::size_t k = 0; k < send_index_.size(); ++k)
    std::copy_n(x.data() + send_index_[k] * width, width, send.data() + k * static_cast<std::size_t>(width));
  std::vector<std::int64_t> counts(send_counts_);
  for (auto& c : counts) c *= width;
  const auto halo = comm_->alltoallv(std::span<const T>(send), counts);
  compact.resize(static_cast<std::size_t>((x_count_ + halo_size()) * width));
  std::copy_n(x.data(), x_count_ * width, compact.data());
  std::copy(halo.begin(), halo.end(), compact.begin() + x_count_ * width);
}

template <class T, class I>
void HaloPlan<T, I>::spmv(T alpha, std::span<const T> x, T beta, std::span<T> y,
                          const trncore::Options& options) const {
  check_call("trnsparse::mpi::HaloPlan::spmv", static_cast<std::int64_t>(x.size()),
             static_cast<std::int64_t>(y.size()));
  std::vector<T> compact;
  exchange(x, 1, compact);
  trnsparse::spmv(trnblas::Op::no_trans, alpha, local_, std::span<const T>(compact), beta, y, options);
}

template <class T, class I>
void HaloPlan<T, I>::spmm(T alpha, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta, std::span<T> c,
                          std::int64_t ldc, const trncore::Options& options) const {
  constexpr const char* fn = "trnsparse::mpi::HaloPlan::spmm";
  {
    CollectiveCheck check(*comm_, fn);
    check.same("n", n);
    check.require(n >= 0 && ldb >= std::max<std::int64_t>(1, n) && ldc >= std::max<std::int64_t>(1, n),
                  ErrorKind::invalid_argument, "n = " + str(n) + ", ldb = " + str(ldb) + ", ldc = " + str(ldc),
                  "pass n >= 0 and leading dimensions >= max(1, n)");
    check.require(static_cast<std::int64_t>(b.size()) >= (x_count_ > 0 ? (x_count_ - 1) * ldb + n : 0) &&
                      static_cast<std::int64_t>(c.size()) >= (local_.rows > 0 ? (local_.rows - 1) * ldc + n : 0),
                  ErrorKind::dimension_mismatch,
                  "B holds " + str(b.size()) + " and C " + str(c.size()) + " values for " + str(x_count_) + " and " +
                      str(local_.rows) + " rows of " + str(n),
                  "pass this process's rows of B (the plan's x entries) and of C");
    check.finish();
  }
  // Pack B's rows densely (ld = n) so the exchange moves n values per row.
  std::vector<T> dense(static_cast<std::size_t>(x_count_ * n));
  for (std::int64_t r = 0; r < x_count_; ++r) std::copy_n(b.data() + r * ldb, n, dense.data() + r * n);
  std::vector<T> compact;
  exchange(std::span<const T>(dense), n, compact);
  trnsparse::spmm(trnblas::Op::no_trans, alpha, local_, n, std::span<const T>(compact), std::max<std::int64_t>(1, n),
                  beta, c, ldc, options);
}

template <class T, class I>
trnsolver::LinearOperator<T> HaloPlan<T, I>::linear_operator(const trncore::Options& options) const {
  const HaloPlan* self = this;
  return trnsolver::LinearOperator<T>(
      local_.rows, [self, options](std::span<const T> x, std::span<T> y) { self->spmv(T(1), x, T(0), y, options); });
}

template <class T, class I>
trnsolver::LinearOperator<T> jacobi_preconditioner(const DistCsr<T, I>& a) {
  // The local rows as a square block of their own: row i's diagonal is global column row_begin + i.
  constexpr const char* fn = "trnsparse::mpi::jacobi_preconditioner";
  validate(a.local, fn);
  std::vector<T> inverse(static_cast<std::size_t>(a.local.rows));
  for (std::int64_t i = 0; i < a.local.rows; ++i) {
    T d = 0;
    bool found = false;
    for (auto k = a.local.indptr[static_cast<std::size_t>(i)]; k < a.local.indptr[static_cast<std::size_t>(i) + 1]; ++k)
      if (static_cast<std::int64_t>(a.local.indices[static_cast<std::size_t>(k)]) == a.row_begin + i) {
        d += a.local.values[static_cast<std::size_t>(k)];
        found = true;
      }
    if (!found || !(d > 0))
      throw trncore::InvalidArgument(fn,
                                     "diagonal entry of row " + str(a.row_begin + i) + " is " +
                                         (found ? trncore::detail::sci(d) : std::string("missing")),
                                     "Jacobi needs a positive diagonal (an SPD matrix)");
    inverse[static_cast<std::size_t>(i)] = T(1) / d;
  }
  return trnsolver::LinearOperator<T>(a.local.rows, [inverse](std::span<const T> x, std::span<T> y) {
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = x[i] * inverse[i];
  });
}

namespace {

enum class Method { cg, gmres, bicgstab, minres };

template <class T, class I>
trnsolver::KrylovResult solve(Method method, const char* fn, const HaloPlan<T, I>& a, std::span<const T> b,
                              std::span<T> x, trnsolver::KrylovOptions options,
                              const trnsolver::LinearOperator<T>& preconditioner, const Communicator& comm) {
  {
    CollectiveCheck check(comm, fn);
    check.require(a.global_rows() == a.global_cols() && a.row_begin() == a.x_begin() && a.local_rows() == a.x_count(),
                  ErrorKind::dimension_mismatch,
                  "A is " + str(a.global_rows()) + "x" + str(a.global_cols()) + " with rows [" + str(a.row_begin()) +
                      ", +" + str(a.local_rows()) + ") and x entries [" + str(a.x_begin()) + ", +" + str(a.x_count()) +
                      ") here",
                  "the solvers need a square A whose rows are distributed like x (the plan's x ranges)");
    check.finish();
  }
  options.distributed = trnsolver::mpi::distributed_reduction(comm, a.global_rows(), a.row_begin(), a.local_rows());
  const auto op = a.linear_operator(options);
  switch (method) {
    case Method::cg: return trnsolver::cg(op, b, x, options, preconditioner);
    case Method::gmres: return trnsolver::gmres(op, b, x, options, preconditioner);
    case Method::bicgstab: return trnsolver::bicgstab(op, b, x, options, preconditioner);
    case Method::minres: return trnsolver::minres(op, b, x, options, preconditioner);
  }
  return {};
}

}  // namespace

template <class T, class I>
trnsolver::KrylovResult cg(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                           const trnsolver::KrylovOptions& options,
                           const trnsolver::LinearOperator<T>& preconditioner) {
  return solve(Method::cg, "trnsparse::mpi::cg", a, b, x, options, preconditioner, a.communicator());
}

template <class T, class I>
trnsolver::KrylovResult gmres(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                              const trnsolver::KrylovOptions& options,
                              const trnsolver::LinearOperator<T>& preconditioner) {
  return solve(Method::gmres, "trnsparse::mpi::gmres", a, b, x, options, preconditioner, a.communicator());
}

template <class T, class I>
trnsolver::KrylovResult bicgstab(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                                 const trnsolver::KrylovOptions& options,
                                 const trnsolver::LinearOperator<T>& preconditioner) {
  return solve(Method::bicgstab, "trnsparse::mpi::bicgstab", a, b, x, options, preconditioner, a.communicator());
}

template <class T, class I>
trnsolver::KrylovResult minres(const HaloPlan<T, I>& a, std::span<const T> b, std::span<T> x,
                               const trnsolver::KrylovOptions& options,
                               const trnsolver::LinearOperator<T>& preconditioner) {
  return solve(Method::minres, "trnsparse::mpi::minres", a, b, x, options, preconditioner, a.communicator());
}

#define TRNSPARSE_MPI_INSTANTIATE(T, I)                                                                            \
  template DistCsr<T, I> rows_of(const Csr<T, I>&, std::int64_t, std::int64_t);                                    \
  template DistCsr<T, I> read_matrix_market_rows<T, I>(const Communicator&, const std::string&, std::int64_t,      \
                                                       std::int64_t);                                              \
  template class HaloPlan<T, I>;                                                                                   \
  template trnsolver::LinearOperator<T> jacobi_preconditioner(const DistCsr<T, I>&);                               \
  template trnsolver::KrylovResult cg(const HaloPlan<T, I>&, std::span<const T>, std::span<T>,                     \
                                      const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&);       \
  template trnsolver::KrylovResult gmres(const HaloPlan<T, I>&, std::span<const T>, std::span<T>,                  \
                                         const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&);    \
  template trnsolver::KrylovResult bicgstab(const HaloPlan<T, I>&, std::span<const T>, std::span<T>,               \
                                            const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&); \
  template trnsolver::KrylovResult minres(const HaloPlan<T, I>&, std::span<const T>, std::span<T>,                 \
                                          const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&);
TRNSPARSE_MPI_INSTANTIATE(float, std::int32_t)
TRNSPARSE_MPI_INSTANTIATE(double, std::int32_t)
TRNSPARSE_MPI_INSTANTIATE(float, std::int64_t)
TRNSPARSE_MPI_INSTANTIATE(double, std::int64_t)
#undef TRNSPARSE_MPI_INSTANTIATE

}  // namespace trnsparse::mpi
