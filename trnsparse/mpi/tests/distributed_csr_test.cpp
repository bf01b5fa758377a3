// Row-distributed CSR against the single-process trnsparse routines on the same matrix (the oracle; each is
// tested against Eigen/SuiteSparse/fp64 references elsewhere): products are bitwise the single-process rows
// for any split; with rows split by aligned_rows the Krylov solves are bitwise the single-process solves.
// Splits include empty parts (4 ranks, 2 blocks) and unaligned uneven ones.
#include <trnsparse/mpi/distributed_csr.hpp>

#include <trnsparse/iterative.hpp>
#include <trnsparse/ops.hpp>
#include <trnsolver/mpi/krylov.hpp>

#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using trncore::mpi::Communicator;
using trncore::mpi::Range;
using trnsparse::Csr;

namespace {

// The m×m grid's 5-point Laplacian plus a first-order convection term c·(u_{i+1} − u_{i−1}) along x
// (c = 0: SPD; c ≠ 0: nonsymmetric), plus a small shift so it is nonsingular and well conditioned.
template <class T>
Csr<T, std::int32_t> grid_matrix(std::int64_t m, double c) {
  trnsparse::Coo<T, std::int32_t> coo;
  coo.rows = coo.cols = m * m;
  auto add = [&](std::int64_t r, std::int64_t col, double v) {
    coo.row.push_back(static_cast<std::int32_t>(r));
    coo.col.push_back(static_cast<std::int32_t>(col));
    coo.values.push_back(static_cast<T>(v));
  };
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < m; ++j) {
      const auto r = i * m + j;
      add(r, r, 4.5);
      if (j > 0) add(r, r - 1, -1 - c);
      if (j + 1 < m) add(r, r + 1, -1 + c);
      if (i > 0) add(r, r - m, -1);
      if (i + 1 < m) add(r, r + m, -1);
    }
  return trnsparse::to_csr(coo);
}

template <class T>
std::vector<T> vec(std::int64_t n, double phase) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<T>(std::sin(0.1 * static_cast<double>(i) + phase));
  return v;
}

// Aligned (block-multiple) parts, or uneven unaligned ones: rank r gets [n·r²/P², n·(r+1)²/P²).
Range split(const Communicator& comm, std::int64_t n, bool aligned) {
  if (aligned) return trnsolver::mpi::aligned_rows(n, comm.size(), comm.rank());
  const auto p = static_cast<std::int64_t>(comm.size()), r = static_cast<std::int64_t>(comm.rank());
  return {n * r * r / (p * p), n * (r + 1) * (r + 1) / (p * p) - n * r * r / (p * p)};
}

template <class T>
std::vector<T> part(const std::vector<T>& v, Range r) {
  return std::vector<T>(v.begin() + r.begin, v.begin() + r.begin + r.count);
}

template <class T>
void spmv_matches(const Communicator& comm, const Csr<T, std::int32_t>& a, Range rows, Range xs) {
  const auto x = vec<T>(a.cols, 0.3);
  auto y = vec<T>(a.rows, 1.1);
  const auto local = trnsparse::mpi::rows_of(a, rows.begin, rows.count);
  const trnsparse::mpi::HaloPlan<T> plan(comm, local, xs.begin, xs.count);
  auto y_local = part(y, rows);
  const auto x_local = part(x, xs);
  plan.spmv(T(1.5), std::span<const T>(x_local), T(0.5), std::span<T>(y_local));
  trnsparse::spmv(trnblas::Op::no_trans, T(1.5), a, std::span<const T>(x), T(0.5), std::span<T>(y));
  for (std::int64_t i = 0; i < rows.count; ++i)
    ASSERT_EQ(y_local[static_cast<std::size_t>(i)], y[static_cast<std::size_t>(rows.begin + i)])
        << "row " << rows.begin + i;
  EXPECT_LE(plan.halo_size(), a.cols - xs.count);
  // A rank holding some but not all rows of this banded matrix needs entries from another rank.
  if (rows.count > 0 && rows.count < a.rows && a.rows == a.cols) {
    EXPECT_GT(plan.halo_size(), 0);
  }
}

}  // namespace

TEST(DistributedCsr, SpmvIsBitwiseTheSingleProcessSpmv) {
  const auto comm = Communicator::world();
  const auto a = grid_matrix<double>(37, 0.3);  // 1369 rows: 2 reduction blocks, so ranks 2 and 3 may be empty
  for (bool aligned : {true, false}) {
    const auto r = split(comm, a.rows, aligned);
    spmv_matches<double>(comm, a, r, r);
    spmv_matches<float>(comm, grid_matrix<float>(37, 0.3), r, r);
  }
  // Rectangular: 500 rows split unevenly, x (1369 entries) split the other way.
  const auto wide = trnsparse::mpi::rows_of(a, 0, 500);
  Csr<double, std::int32_t> rect = wide.local;
  rect.rows = 500;
  spmv_matches<double>(comm, rect, split(comm, 500, false), split(comm, a.cols, true));
}

TEST(DistributedCsr, SpmmIsBitwiseTheSingleProcessSpmm) {
  const auto comm = Communicator::world();
  const auto a = grid_matrix<double>(23, 0.2);
  const std::int64_t n = 3, ldb = 4, ldc = 5;
  const auto r = split(comm, a.rows, false);
  const auto b = vec<double>(a.cols * ldb, 0.7);
  auto c = vec<double>(a.rows * ldc, 0.9);
  const auto local = trnsparse::mpi::rows_of(a, r.begin, r.count);
  const trnsparse::mpi::HaloPlan<double> plan(comm, local, r.begin, r.count);
  std::vector<double> b_local(b.begin() + r.begin * ldb, b.begin() + (r.begin + r.count) * ldb);
  std::vector<double> c_local(c.begin() + r.begin * ldc, c.begin() + (r.begin + r.count) * ldc);
  plan.spmm(2.0, n, std::span<const double>(b_local), ldb, -1.0, std::span<double>(c_local), ldc);
  trnsparse::spmm(trnblas::Op::no_trans, 2.0, a, n, std::span<const double>(b), ldb, -1.0, std::span<double>(c), ldc);
  for (std::int64_t i = 0; i < r.count; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      ASSERT_EQ(c_local[static_cast<std::size_t>(i * ldc + j)], c[static_cast<std::size_t>((r.begin + i) * ldc + j)]);
}

TEST(DistributedCsr, KrylovOnAlignedRowsIsBitwiseTheSingleProcessSolve) {
  const auto comm = Communicator::world();
  trnsolver::KrylovOptions options;
  options.rtol = 1e-10;
  for (std::int64_t m : {1, 37, 50}) {  // 1, 1369 and 2500 unknowns
    const auto spd = grid_matrix<double>(m, 0.0);
    const auto nonsym = grid_matrix<double>(m, 0.4);
    const auto r = split(comm, spd.rows, true);
    const auto b = vec<double>(spd.rows, 0.0);
    const auto b_local = part(b, r);

    const auto spd_local = trnsparse::mpi::rows_of(spd, r.begin, r.count);
    const trnsparse::mpi::HaloPlan<double> spd_plan(comm, spd_local, r.begin, r.count);
    std::vector<double> x(static_cast<std::size_t>(r.count), 0.0), xs(b.size(), 0.0);
    const auto jacobi = trnsparse::mpi::jacobi_preconditioner(spd_local);
    const auto got =
        trnsparse::mpi::cg(spd_plan, std::span<const double>(b_local), std::span<double>(x), options, jacobi);
    const auto want = trnsparse::cg(spd, std::span<const double>(b), std::span<double>(xs), options,
                                    trnsparse::jacobi_preconditioner(spd));
    ASSERT_TRUE(want.converged) << want.detail;
    EXPECT_EQ(got.iterations, want.iterations);
    EXPECT_EQ(got.residual_history, want.residual_history);
    EXPECT_EQ(comm.allgatherv(std::span<const double>(x)), xs) << "cg, m = " << m;

    const auto ns_local = trnsparse::mpi::rows_of(nonsym, r.begin, r.count);
    const trnsparse::mpi::HaloPlan<double> ns_plan(comm, ns_local, r.begin, r.count);
    for (int method = 0; method < 2; ++method) {
      std::fill(x.begin(), x.end(), 0.0);
      std::fill(xs.begin(), xs.end(), 0.0);
      const auto op = trnsparse::matrix_operator(nonsym);
      const auto d =
          method == 0
              ? trnsparse::mpi::gmres(ns_plan, std::span<const double>(b_local), std::span<double>(x), options)
              : trnsparse::mpi::bicgstab(ns_plan, std::span<const double>(b_local), std::span<double>(x), options);
      const auto s = method == 0 ? trnsolver::gmres(op, std::span<const double>(b), std::span<double>(xs), options)
                                 : trnsolver::bicgstab(op, std::span<const double>(b), std::span<double>(xs), options);
      ASSERT_TRUE(s.converged) << s.detail;
      EXPECT_EQ(d.residual_history, s.residual_history) << "method " << method << ", m = " << m;
      EXPECT_EQ(comm.allgatherv(std::span<const double>(x)), xs) << "method " << method << ", m = " << m;
    }
  }
}

TEST(DistributedCsr, MatrixMarketRowsAreTheFilesRows) {
  const auto comm = Communicator::world();
  const auto a = grid_matrix<double>(30, 0.0);  // symmetric: written as the lower triangle, mirrored on reading
  const std::string path = "trnsparse_mpi_rows_np" + std::to_string(comm.size()) + ".mtx";
  if (comm.rank() == 0) trnsparse::write_matrix_market_file(path, a, trnsparse::MmSymmetry::symmetric);
  comm.barrier();
  const auto r = split(comm, a.rows, false);
  const auto local = trnsparse::mpi::read_matrix_market_rows<double>(comm, path, r.begin, r.count);
  const auto want = trnsparse::mpi::rows_of(a, r.begin, r.count);
  EXPECT_EQ(local.global_rows, a.rows);
  EXPECT_EQ(local.local.indptr, want.local.indptr);
  EXPECT_EQ(local.local.indices, want.local.indices);
  EXPECT_EQ(local.local.values, want.local.values);
  // A missing file on one rank only: every rank throws.
  const std::string missing = comm.rank() == comm.size() - 1 ? path + ".missing" : path;
  EXPECT_THROW(trnsparse::mpi::read_matrix_market_rows<double>(comm, missing, r.begin, r.count),
               trncore::InvalidArgument);
  comm.barrier();
  if (comm.rank() == 0) std::remove(path.c_str());
}

TEST(DistributedCsr, BadInputOnOneRankFailsOnEveryRank) {
  const auto comm = Communicator::world();
  const auto a = grid_matrix<double>(10, 0.0);
  const auto r = split(comm, a.rows, false);
  auto local = trnsparse::mpi::rows_of(a, r.begin, r.count);
  // Every rank claims all of x: overlapping ranges.
  if (comm.size() > 1) {
    EXPECT_THROW(trnsparse::mpi::HaloPlan<double>(comm, local, 0, a.cols), trncore::DimensionMismatch);
  }
  // A column index outside the matrix on the last rank holding rows.
  auto broken = local;
  if (comm.rank() == comm.size() - 1 && !broken.local.indices.empty()) broken.local.indices[0] = 1000;
  EXPECT_THROW(trnsparse::mpi::HaloPlan<double>(comm, broken, r.begin, r.count), trncore::InvalidArgument);
  // A wrong x length on rank 0 in a product.
  const trnsparse::mpi::HaloPlan<double> plan(comm, local, r.begin, r.count);
  std::vector<double> x(static_cast<std::size_t>(r.count + (comm.rank() == 0 ? 1 : 0)), 1.0);
  std::vector<double> y(static_cast<std::size_t>(r.count), 0.0);
  EXPECT_THROW(plan.spmv(1.0, std::span<const double>(x), 0.0, std::span<double>(y)), trncore::DimensionMismatch);
  EXPECT_EQ(comm.allreduce_max(1), 1);  // nobody is left waiting
}
