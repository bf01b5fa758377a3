// ScaLAPACK interop of trnsolver::mpi::rsvd (Debian's libscalapack-openmpi): the input matrix is laid out by a
// ScaLAPACK descriptor (DESCINIT on a BLACS P×1 "Row" grid over the same communicator) and read through
// from_scalapack(); the returned U is handed back to ScaLAPACK through to_scalapack(u_desc) and used by PDGEMM:
// UᵀU = I and UᵀA = diag(s)·Vᵀ (the identities of the rsvd's factors: U = Q·Z with B = QᵀA = Z·Σ·Wᵀ gives
// UᵀA = Σ·Wᵀ exactly in exact arithmetic), both to fp64 rounding: |·| ≤ 1e-12·σ₁ (terms of size ≤ √n·u·σ₁
// with n ≤ 60, u = 1.1e-16: ≈ 1e-15; 1e-12 leaves room for the orthonormalisation's c·m·l·u).
#include <trnsolver/mpi/randomized.hpp>

#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int context);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* ictxt, const int* lld, int* info);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
}

namespace {

namespace tm = trncore::mpi;

struct BlacsGrid {
  int context = -1;
  BlacsGrid(int p, int q) {
    context = Csys2blacs_handle(MPI_COMM_WORLD);
    Cblacs_gridinit(&context, "Row", p, q);
  }
  ~BlacsGrid() { Cblacs_gridexit(context); }
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;
};

// The global m×n (ld m) of a P×1-distributed local array, on every rank.
std::vector<double> gather_all(const tm::ProcessGrid& g, const tm::Descriptor& d, const std::vector<double>& local) {
  std::vector<std::int64_t> rows;
  std::vector<double> values;
  for (std::int64_t il = 0; il < tm::local_rows(d, g); ++il) {
    rows.push_back(tm::local_to_global_row(il, d, g));
    for (std::int64_t j = 0; j < d.n; ++j) values.push_back(local[static_cast<std::size_t>(il + j * d.lld)]);
  }
  const auto all_rows = g.comm().allgatherv<std::int64_t>(rows);
  const auto all_values = g.comm().allgatherv<double>(values);
  std::vector<double> out(static_cast<std::size_t>(d.m * d.n));
  for (std::size_t t = 0; t < all_rows.size(); ++t)
    for (std::int64_t j = 0; j < d.n; ++j)
      out[static_cast<std::size_t>(all_rows[t] + j * d.m)] = all_values[t * static_cast<std::size_t>(d.n) + j];
  return out;
}

TEST(MpiRsvdScalapack, ScalapackMatrixInScalapackFactorsOut) {
  const tm::Communicator world = tm::Communicator::world();
  const int p = world.size();
  const tm::ProcessGrid grid(world, p, 1);
  const BlacsGrid blacs(p, 1);
  const int m = 59, n = 37, mb = 5, nb = 4, rsrc = p - 1, csrc = 0, k = 6;
  const std::int64_t lr = tm::numroc(m, mb, grid.row(), rsrc, p);
  int lld = static_cast<int>(std::max<std::int64_t>(1, lr)), info = -1;
  int desca[9];
  descinit_(desca, &m, &n, &mb, &nb, &rsrc, &csrc, &blacs.context, &lld, &info);
  ASSERT_EQ(info, 0);
  const tm::Descriptor da = tm::from_scalapack(desca);
  // A(i, j) = Σ_t 0.6^t·cos((i + 1)(t + 1)/3)·sin((j + 2)(t + 1)/5): smooth, numerically low rank.
  std::vector<double> local(static_cast<std::size_t>(lld * n), 0.0);
  for (std::int64_t il = 0; il < lr; ++il) {
    const auto i = static_cast<double>(tm::local_to_global_row(il, da, grid));
    for (int j = 0; j < n; ++j) {
      double v = 0.0;
      for (int t = 0; t < 12; ++t)
        v += std::pow(0.6, t) * std::cos((i + 1) * (t + 1) / 3.0) * std::sin((j + 2.0) * (t + 1) / 5.0);
      local[static_cast<std::size_t>(il + j * lld)] = v;
    }
  }
  trnsolver::mpi::RandomizedOptions o;
  o.range_precision = trnsolver::mpi::RangePrecision::working;
  o.block_rows = 8;
  const auto r = trnsolver::mpi::rsvd<double>(grid, tm::DistMatrix<const double>{da, local.data()}, k, o);
  ASSERT_EQ(r.rank, k);
  const auto descu = tm::to_scalapack(r.u_desc, blacs.context);
  EXPECT_EQ(descu[4], mb);    // U keeps A's row blocks
  EXPECT_EQ(descu[6], rsrc);  // and A's source row

  // G = UᵀU (k×k) and C = UᵀA (k×n), computed by ScaLAPACK on our U and the ScaLAPACK A.
  const tm::Descriptor dg = tm::make_descriptor(grid, k, k, 2, 2), dc = tm::make_descriptor(grid, k, n, 2, 4);
  std::vector<double> g(static_cast<std::size_t>(dg.lld * k)), c(static_cast<std::size_t>(dc.lld * n));
  const auto descg = tm::to_scalapack(dg, blacs.context), descc = tm::to_scalapack(dc, blacs.context);
  const int one = 1;
  const double alpha = 1.0, beta = 0.0;
  pdgemm_("T", "N", &k, &k, &m, &alpha, r.u.data(), &one, &one, descu.data(), r.u.data(), &one, &one, descu.data(),
          &beta, g.data(), &one, &one, descg.data());
  pdgemm_("T", "N", &k, &n, &m, &alpha, r.u.data(), &one, &one, descu.data(), local.data(), &one, &one, desca, &beta,
          c.data(), &one, &one, descc.data());
  const std::vector<double> gg = gather_all(grid, dg, g), cc = gather_all(grid, dc, c);
  const double s1 = r.s[0];
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i)
      EXPECT_NEAR(gg[static_cast<std::size_t>(i + j * k)], i == j ? 1.0 : 0.0, 1e-12) << i << "," << j;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < k; ++i)
      EXPECT_NEAR(cc[static_cast<std::size_t>(i + j * k)], r.s[static_cast<std::size_t>(i)] * r.vt(i, j), 1e-12 * s1)
          << i << "," << j;
}

}  // namespace
