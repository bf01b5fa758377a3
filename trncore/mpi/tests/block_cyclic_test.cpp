// The block-cyclic layout against its definition (block (I, J) on process ((I + rsrc) mod P, (J + csrc) mod
// Q), column-major local storage), by brute force over every index, and scatter/gather round trips.
#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

using namespace trncore::mpi;

namespace {

// Every grid shape this rank count allows: 1×size, size×1 and the square one.
std::vector<std::pair<int, int>> shapes(int size) {
  std::vector<std::pair<int, int>> out{{1, size}};
  if (size > 1) out.emplace_back(size, 1);
  for (int p = 2; p * p <= size; ++p)
    if (size % p == 0) out.emplace_back(p, size / p);
  return out;
}

}  // namespace

TEST(BlockCyclic, NumrocCountsByBruteForce) {
  for (std::int64_t n : {0, 1, 2, 7, 31, 32, 33, 100})
    for (std::int64_t nb : {1, 3, 32})
      for (std::int64_t procs : {1, 2, 3, 4})
        for (std::int64_t src = 0; src < procs; ++src) {
          std::vector<std::int64_t> count(static_cast<std::size_t>(procs), 0);
          for (std::int64_t i = 0; i < n; ++i) ++count[static_cast<std::size_t>((i / nb + src) % procs)];
          for (std::int64_t p = 0; p < procs; ++p)
            ASSERT_EQ(numroc(n, nb, p, src, procs), count[static_cast<std::size_t>(p)])
                << "n " << n << " nb " << nb << " p " << p << "/" << procs << " src " << src;
        }
}

TEST(BlockCyclic, IndexMapsAreInverseAndMatchOwnership) {
  auto comm = Communicator::world();
  for (auto [p, q] : shapes(comm.size())) {
    ProcessGrid grid(comm, p, q);
    EXPECT_EQ(grid.rank_of(grid.row(), grid.col()), comm.rank());
    for (std::int64_t mb : {1, 4, 5}) {
      const auto d = make_descriptor(grid, 23, 17, mb, mb + 1, p - 1, 0);
      std::int64_t rows = 0, cols = 0;
      for (std::int64_t i = 0; i < d.m; ++i) {
        if (owner_row(i, d, grid) != grid.row()) continue;
        const auto il = global_to_local_row(i, d, grid);
        EXPECT_EQ(il, rows++);  // local rows are the owned global rows in increasing order
        EXPECT_EQ(local_to_global_row(il, d, grid), i);
      }
      for (std::int64_t j = 0; j < d.n; ++j) {
        if (owner_col(j, d, grid) != grid.col()) continue;
        const auto jl = global_to_local_col(j, d, grid);
        EXPECT_EQ(jl, cols++);
        EXPECT_EQ(local_to_global_col(jl, d, grid), j);
      }
      EXPECT_EQ(rows, local_rows(d, grid));
      EXPECT_EQ(cols, local_cols(d, grid));
      EXPECT_EQ(d.lld, std::max<std::int64_t>(1, rows));
    }
  }
}

TEST(BlockCyclic, ScatterPlacesEachElementAndGatherRestoresTheMatrix) {
  auto comm = Communicator::world();
  for (auto [p, q] : shapes(comm.size())) {
    ProcessGrid grid(comm, p, q);
    for (auto [m, n, mb, nb] : std::vector<std::array<std::int64_t, 4>>{
             {0, 5, 2, 2}, {1, 1, 1, 1}, {7, 5, 2, 3}, {31, 33, 32, 32}, {33, 31, 32, 8}}) {
      auto d = make_descriptor(grid, m, n, mb, nb);
      d.lld += 2;  // a padded local array, as ScaLAPACK allows
      const std::int64_t ld = m + 1;
      std::vector<double> global(static_cast<std::size_t>(ld * n));
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i) global[static_cast<std::size_t>(i + j * ld)] = 1000.0 * i + j;
      const auto local = scatter(grid, d, comm.rank() == 0 ? global.data() : nullptr, ld, 0);
      ASSERT_EQ(static_cast<std::int64_t>(local.size()), local_size(d, grid));
      for (std::int64_t jl = 0; jl < local_cols(d, grid); ++jl)
        for (std::int64_t il = 0; il < local_rows(d, grid); ++il)
          ASSERT_EQ(local[static_cast<std::size_t>(il + jl * d.lld)],
                    1000.0 * local_to_global_row(il, d, grid) + local_to_global_col(jl, d, grid));
      const int root = comm.size() - 1;
      std::vector<double> back(global.size(), -1.0);
      gather(grid, d, local.data(), comm.rank() == root ? back.data() : nullptr, ld, root);
      if (comm.rank() == root) {
        for (std::int64_t j = 0; j < n; ++j)
          for (std::int64_t i = 0; i < m; ++i)
            ASSERT_EQ(back[static_cast<std::size_t>(i + j * ld)], global[static_cast<std::size_t>(i + j * ld)]);
      }
    }
  }
}

TEST(BlockCyclic, BadGridsAndDescriptorsFailOnEveryRank) {
  auto comm = Communicator::world();
  EXPECT_THROW(ProcessGrid(comm, comm.size() + 1, 1), trncore::InvalidArgument);
  EXPECT_THROW(ProcessGrid(comm, 0, comm.size()), trncore::InvalidArgument);
  ProcessGrid grid = ProcessGrid::square(comm);
  EXPECT_EQ(grid.rows() * grid.cols(), comm.size());
  EXPECT_LE(grid.rows(), grid.cols());
  EXPECT_THROW(make_descriptor(grid, -1, 3, 2, 2), trncore::InvalidArgument);
  EXPECT_THROW(make_descriptor(grid, 3, 3, 0, 2), trncore::InvalidArgument);
  EXPECT_THROW(make_descriptor(grid, 3, 3, 2, 2, grid.rows(), 0), trncore::InvalidArgument);

  std::vector<double> global(64, 1.0);
  // One rank's descriptor has a different m: DimensionMismatch on every rank.
  const auto d = make_descriptor(grid, comm.rank() == comm.size() - 1 && comm.size() > 1 ? 7 : 8, 8, 2, 2);
  if (comm.size() > 1) {
    EXPECT_THROW(scatter(grid, d, global.data(), 8, 0), trncore::DimensionMismatch);
  }
  // lld below the local rows on the last rank only.
  auto tight = make_descriptor(grid, 8, 8, 2, 2);
  if (comm.rank() == comm.size() - 1) tight.lld = 0;
  EXPECT_THROW(scatter(grid, tight, global.data(), 8, 0), trncore::DimensionMismatch);
  // ld too small on root.
  EXPECT_THROW(scatter(grid, make_descriptor(grid, 8, 8, 2, 2), global.data(), 4, 0), trncore::DimensionMismatch);
  EXPECT_EQ(comm.allreduce_max(1), 1);
}

TEST(BlockCyclic, ScalapackDescriptorRoundTrip) {
  auto comm = Communicator::world();
  ProcessGrid grid = ProcessGrid::square(comm);
  const auto d = make_descriptor(grid, 100, 50, 16, 8);
  const auto s = to_scalapack(d, 7);
  EXPECT_EQ(s[0], 1);
  EXPECT_EQ(s[1], 7);
  EXPECT_EQ(from_scalapack(s.data()), d);
  auto bad = s;
  bad[0] = 2;
  EXPECT_THROW(from_scalapack(bad.data()), trncore::InvalidArgument);
  EXPECT_THROW(from_scalapack(nullptr), trncore::InvalidArgument);
  auto huge = d;
  huge.m = 1LL << 33;
  EXPECT_THROW(to_scalapack(huge, 0), trncore::InvalidArgument);
}
