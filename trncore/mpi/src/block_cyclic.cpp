#include <trncore/mpi/block_cyclic.hpp>

#include <algorithm>
#include <limits>
#include <string>

namespace trncore::mpi {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// The factor pair p ≤ q of `size` with p as large as possible.
int square_rows(int size) {
  int p = 1;
  for (int d = 1; d * d <= size; ++d)
    if (size % d == 0) p = d;
  return p;
}

}  // namespace

ProcessGrid::ProcessGrid(const Communicator& comm, int p, int q)
    : comm_(comm.duplicate()), row_comm_(comm_.duplicate()), col_comm_(comm_.duplicate()), p_(p), q_(q) {
  CollectiveCheck check(comm_, "trncore::mpi::ProcessGrid");
  check.same("p", p).same("q", q);
  check.require(p >= 1 && q >= 1 && static_cast<std::int64_t>(p) * q == comm_.size(), ErrorKind::invalid_argument,
                "a " + str(p) + " x " + str(q) + " grid over " + str(comm_.size()) + " ranks",
                "choose p >= 1 and q >= 1 with p * q equal to the communicator's size (or ProcessGrid::square)");
  check.finish();
  row_ = comm_.rank() / q_;
  col_ = comm_.rank() % q_;
  row_comm_ = comm_.split(row_, col_);
  col_comm_ = comm_.split(col_, row_);
}

ProcessGrid ProcessGrid::square(const Communicator& comm) {
  const int p = square_rows(comm.size());
  return ProcessGrid(comm, p, comm.size() / p);
}

std::int64_t numroc(std::int64_t n, std::int64_t nb, std::int64_t iproc, std::int64_t isrc,
                    std::int64_t nprocs) noexcept {
  if (n <= 0 || nb <= 0 || nprocs <= 0) return 0;
  const std::int64_t mydist = ((iproc - isrc) % nprocs + nprocs) % nprocs;
  const std::int64_t nblocks = n / nb;
  std::int64_t num = (nblocks / nprocs) * nb;
  const std::int64_t extra = nblocks % nprocs;
  if (mydist < extra)
    num += nb;
  else if (mydist == extra)
    num += n % nb;
  return num;
}

Descriptor make_descriptor(const ProcessGrid& grid, std::int64_t m, std::int64_t n, std::int64_t mb, std::int64_t nb,
                           std::int64_t rsrc, std::int64_t csrc) {
  constexpr std::string_view function = "trncore::mpi::make_descriptor";
  if (m < 0 || n < 0)
    throw InvalidArgument(function, "m = " + str(m) + ", n = " + str(n) + ": a size is negative", "pass sizes >= 0");
  if (mb < 1 || nb < 1)
    throw InvalidArgument(function, "mb = " + str(mb) + ", nb = " + str(nb) + ": a block size is below 1",
                          "pass block sizes >= 1 (ScaLAPACK codes typically use 32 to 256)");
  if (rsrc < 0 || rsrc >= grid.rows() || csrc < 0 || csrc >= grid.cols())
    throw InvalidArgument(function,
                          "source process (" + str(rsrc) + ", " + str(csrc) + ") is outside the " + str(grid.rows()) +
                              " x " + str(grid.cols()) + " grid",
                          "pass rsrc in [0, P) and csrc in [0, Q)");
  Descriptor d{m, n, mb, nb, rsrc, csrc, 1};
  d.lld = std::max<std::int64_t>(1, numroc(m, mb, grid.row(), rsrc, grid.rows()));
  return d;
}

std::int64_t local_rows(const Descriptor& d, const ProcessGrid& grid) noexcept {
  return numroc(d.m, d.mb, grid.row(), d.rsrc, grid.rows());
}
std::int64_t local_cols(const Descriptor& d, const ProcessGrid& grid) noexcept {
  return numroc(d.n, d.nb, grid.col(), d.csrc, grid.cols());
}
std::int64_t local_size(const Descriptor& d, const ProcessGrid& grid) noexcept { return d.lld * local_cols(d, grid); }

std::int64_t owner_row(std::int64_t i, const Descriptor& d, const ProcessGrid& grid) noexcept {
  return (i / d.mb + d.rsrc) % grid.rows();
}
std::int64_t owner_col(std::int64_t j, const Descriptor& d, const ProcessGrid& grid) noexcept {
  return (j / d.nb + d.csrc) % grid.cols();
}
std::int64_t global_to_local_row(std::int64_t i, const Descriptor& d, const ProcessGrid& grid) noexcept {
  return (i / d.mb) / grid.rows() * d.mb + i % d.mb;
}
std::int64_t global_to_local_col(std::int64_t j, const Descriptor& d, const ProcessGrid& grid) noexcept {
  return (j / d.nb) / grid.cols() * d.nb + j % d.nb;
}
std::int64_t local_to_global_row(std::int64_t il, const Descriptor& d, const ProcessGrid& grid) noexcept {
  const std::int64_t dist = ((grid.row() - d.rsrc) % grid.rows() + grid.rows()) % grid.rows();
  return ((il / d.mb) * grid.rows() + dist) * d.mb + il % d.mb;
}
std::int64_t local_to_global_col(std::int64_t jl, const Descriptor& d, const ProcessGrid& grid) noexcept {
  const std::int64_t dist = ((grid.col() - d.csrc) % grid.cols() + grid.cols()) % grid.cols();
  return ((jl / d.nb) * grid.cols() + dist) * d.nb + jl % d.nb;
}

std::array<int, 9> to_scalapack(const Descriptor& d, int blacs_context) {
  const std::int64_t fields[] = {d.m, d.n, d.mb, d.nb, d.rsrc, d.csrc, d.lld};
  for (auto v : fields)
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
      throw InvalidArgument("trncore::mpi::to_scalapack", "descriptor field " + str(v) + " does not fit an INTEGER",
                            "ScaLAPACK's descriptors are 32-bit: keep sizes below 2^31");
  return {1,
          blacs_context,
          static_cast<int>(d.m),
          static_cast<int>(d.n),
          static_cast<int>(d.mb),
          static_cast<int>(d.nb),
          static_cast<int>(d.rsrc),
          static_cast<int>(d.csrc),
          static_cast<int>(d.lld)};
}

Descriptor from_scalapack(const int* desc) {
  constexpr std::string_view function = "trncore::mpi::from_scalapack";
  if (desc == nullptr) throw InvalidArgument(function, "desc is null", "pass a 9-integer ScaLAPACK descriptor");
  if (desc[0] != 1)
    throw InvalidArgument(function, "DTYPE = " + str(desc[0]) + " is not 1 (a dense block-cyclic matrix)",
                          "pass a descriptor made by DESCINIT for a dense matrix");
  return {desc[2], desc[3], desc[4], desc[5], desc[6], desc[7], desc[8]};
}

void check_descriptor(CollectiveCheck& check, const ProcessGrid& grid, const Descriptor& d, std::string_view name) {
  const std::string n(name);
  check.same(n + ".m", d.m).same(n + ".n", d.n).same(n + ".mb", d.mb).same(n + ".nb", d.nb);
  check.same(n + ".rsrc", d.rsrc).same(n + ".csrc", d.csrc);
  check.require(d.m >= 0 && d.n >= 0, ErrorKind::invalid_argument,
                n + " is " + str(d.m) + " x " + str(d.n) + ": a size is negative", "pass sizes >= 0");
  check.require(d.mb >= 1 && d.nb >= 1, ErrorKind::invalid_argument,
                n + " has blocks of " + str(d.mb) + " x " + str(d.nb), "pass block sizes >= 1");
  check.require(d.rsrc >= 0 && d.rsrc < grid.rows() && d.csrc >= 0 && d.csrc < grid.cols(), ErrorKind::invalid_argument,
                n + "'s source process (" + str(d.rsrc) + ", " + str(d.csrc) + ") is outside the " + str(grid.rows()) +
                    " x " + str(grid.cols()) + " grid",
                "pass rsrc in [0, P) and csrc in [0, Q)");
  if (d.mb >= 1 && d.rsrc >= 0 && d.rsrc < grid.rows()) {
    const auto rows = local_rows(d, grid);
    check.require(d.lld >= std::max<std::int64_t>(1, rows), ErrorKind::dimension_mismatch,
                  n + ".lld = " + str(d.lld) + " is below the " + str(rows) + " local rows",
                  "pass lld >= max(1, local rows) (make_descriptor computes it)");
  }
}

namespace {

// How many elements process r owns.
std::size_t owned_count(const ProcessGrid& grid, const Descriptor& d, int r) {
  return static_cast<std::size_t>(numroc(d.m, d.mb, r / grid.cols(), d.rsrc, grid.rows()) *
                                  numroc(d.n, d.nb, r % grid.cols(), d.csrc, grid.cols()));
}

// Visits what process r owns in packed order — column-major over its local rows and columns, the order in
// which scatter and gather transfer it: visit(packed_index, global_row, global_col).
template <class Visit>
void for_each_owned(const ProcessGrid& grid, const Descriptor& d, int r, Visit visit) {
  const int pr = r / grid.cols(), pc = r % grid.cols();
  const auto rr = numroc(d.m, d.mb, pr, d.rsrc, grid.rows()), rc = numroc(d.n, d.nb, pc, d.csrc, grid.cols());
  const std::int64_t rdist = ((pr - d.rsrc) % grid.rows() + grid.rows()) % grid.rows();
  const std::int64_t cdist = ((pc - d.csrc) % grid.cols() + grid.cols()) % grid.cols();
  for (std::int64_t jl = 0; jl < rc; ++jl) {
    const auto j = ((jl / d.nb) * grid.cols() + cdist) * d.nb + jl % d.nb;
    for (std::int64_t il = 0; il < rr; ++il)
      visit(static_cast<std::size_t>(il + jl * rr), ((il / d.mb) * grid.rows() + rdist) * d.mb + il % d.mb, j);
  }
}

// The checks scatter and gather share: the descriptor, an agreed valid root, and the root's global array.
void check_root_and_global(CollectiveCheck& check, const ProcessGrid& grid, const Descriptor& d, const void* global,
                           std::int64_t ld, int root) {
  const auto& comm = grid.comm();
  check_descriptor(check, grid, d, "d");
  check.same("root", root);
  check.require(root >= 0 && root < comm.size(), ErrorKind::invalid_argument,
                "root = " + str(root) + " is outside [0, " + str(comm.size()) + ")", "pass a rank of the grid");
  if (comm.rank() == root) {
    check.require(ld >= std::max<std::int64_t>(1, d.m), ErrorKind::dimension_mismatch,
                  "ld = " + str(ld) + " is below max(1, m = " + str(d.m) + ")",
                  "pass the global array's leading dimension");
    check.require(global != nullptr || d.m == 0 || d.n == 0, ErrorKind::invalid_argument, "global is null on root",
                  "pass the global matrix on the root rank");
  }
}

}  // namespace

template <class T>
std::vector<T> scatter(const ProcessGrid& grid, const Descriptor& d, const T* global, std::int64_t ld, int root) {
  const auto& comm = grid.comm();
  CollectiveCheck check(comm, "trncore::mpi::scatter");
  check_root_and_global(check, grid, d, global, ld, root);
  check.finish();

  std::vector<T> local(static_cast<std::size_t>(local_size(d, grid)), T(0));
  const auto rows = local_rows(d, grid), cols = local_cols(d, grid);
  constexpr int tag = 0x7c01;
  std::vector<T> packed(static_cast<std::size_t>(rows * cols));
  if (comm.rank() == root) {
    for (int r = 0; r < comm.size(); ++r) {
      if (r == root) continue;
      std::vector<T> to(owned_count(grid, d, r));
      for_each_owned(grid, d, r, [&](std::size_t k, std::int64_t i, std::int64_t j) { to[k] = global[i + j * ld]; });
      comm.send(std::span<const T>(to), r, tag);
    }
    for_each_owned(grid, d, root,
                   [&](std::size_t k, std::int64_t i, std::int64_t j) { packed[k] = global[i + j * ld]; });
  } else {
    comm.recv(std::span<T>(packed), root, tag);
  }
  for (std::int64_t jl = 0; jl < cols; ++jl) std::copy_n(packed.data() + jl * rows, rows, local.data() + jl * d.lld);
  return local;
}

template <class T>
void gather(const ProcessGrid& grid, const Descriptor& d, const T* local, T* global, std::int64_t ld, int root) {
  const auto& comm = grid.comm();
  CollectiveCheck check(comm, "trncore::mpi::gather");
  check_root_and_global(check, grid, d, global, ld, root);
  const auto rows = local_rows(d, grid), cols = local_cols(d, grid);
  check.require(local != nullptr || rows == 0 || cols == 0, ErrorKind::invalid_argument, "local is null",
                "pass this rank's local array");
  check.finish();

  constexpr int tag = 0x7c02;
  std::vector<T> packed(static_cast<std::size_t>(rows * cols));
  for (std::int64_t jl = 0; jl < cols; ++jl) std::copy_n(local + jl * d.lld, rows, packed.data() + jl * rows);
  if (comm.rank() != root) {
    comm.send(std::span<const T>(packed), root, tag);
    return;
  }
  std::vector<T> from;
  for (int r = 0; r < comm.size(); ++r) {
    if (r != root) {
      from.resize(owned_count(grid, d, r));
      comm.recv(std::span<T>(from), r, tag);
    }
    const auto& src = r == root ? packed : from;
    for_each_owned(grid, d, r, [&](std::size_t k, std::int64_t i, std::int64_t j) { global[i + j * ld] = src[k]; });
  }
}

#define TRNCORE_MPI_BLOCK_CYCLIC_INSTANTIATE(T)                                                        \
  template std::vector<T> scatter(const ProcessGrid&, const Descriptor&, const T*, std::int64_t, int); \
  template void gather(const ProcessGrid&, const Descriptor&, const T*, T*, std::int64_t, int);
TRNCORE_MPI_BLOCK_CYCLIC_INSTANTIATE(float)
TRNCORE_MPI_BLOCK_CYCLIC_INSTANTIATE(double)
TRNCORE_MPI_BLOCK_CYCLIC_INSTANTIATE(std::int64_t)
#undef TRNCORE_MPI_BLOCK_CYCLIC_INSTANTIATE

}  // namespace trncore::mpi
