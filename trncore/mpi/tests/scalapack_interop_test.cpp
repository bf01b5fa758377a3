// The block-cyclic layout against ScaLAPACK itself (Debian's libscalapack-openmpi, the oracle): NUMROC,
// DESCINIT's descriptor, the BLACS "Row" grid over the same communicator, and where ScaLAPACK finds each
// element of an array we scattered (PDELGET).
#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* ictxt, const int* lld, int* info);
void pdelget_(const char* scope, const char* top, double* alpha, const double* a, const int* ia, const int* ja,
              const int* desca);
}

using namespace trncore::mpi;

namespace {

// A BLACS grid over MPI_COMM_WORLD, released at scope exit.
struct BlacsGrid {
  int context = -1;
  BlacsGrid(int p, int q) {
    context = Csys2blacs_handle(MPI_COMM_WORLD);
    Cblacs_gridinit(&context, "Row", p, q);
  }
  ~BlacsGrid() { Cblacs_gridexit(context); }
};

}  // namespace

TEST(ScalapackInterop, NumrocMatchesScalapacks) {
  for (int n : {0, 1, 7, 32, 33, 100})
    for (int nb : {1, 5, 32})
      for (int procs : {1, 2, 3, 4})
        for (int src = 0; src < procs; ++src)
          for (int p = 0; p < procs; ++p) ASSERT_EQ(numroc(n, nb, p, src, procs), numroc_(&n, &nb, &p, &src, &procs));
}

TEST(ScalapackInterop, GridDescriptorAndElementPlacementMatchScalapack) {
  auto comm = Communicator::world();
  for (auto [p, q] : std::vector<std::pair<int, int>>{{1, comm.size()}, {comm.size(), 1}}) {
    ProcessGrid grid(comm, p, q);
    BlacsGrid blacs(p, q);
    int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
    Cblacs_gridinfo(blacs.context, &nprow, &npcol, &myrow, &mycol);
    ASSERT_EQ(nprow, p);
    ASSERT_EQ(npcol, q);
    EXPECT_EQ(myrow, grid.row());
    EXPECT_EQ(mycol, grid.col());

    const int m = 13, n = 11, mb = 3, nb = 2, rsrc = p - 1, csrc = 0;
    const auto d = make_descriptor(grid, m, n, mb, nb, rsrc, csrc);
    int lld = static_cast<int>(d.lld), info = -1;
    int desc[9];
    descinit_(desc, &m, &n, &mb, &nb, &rsrc, &csrc, &blacs.context, &lld, &info);
    ASSERT_EQ(info, 0);
    const auto ours = to_scalapack(d, blacs.context);
    for (int k = 0; k < 9; ++k) EXPECT_EQ(ours[static_cast<std::size_t>(k)], desc[k]) << "field " << k;
    EXPECT_EQ(from_scalapack(desc), d);

    std::vector<double> global(static_cast<std::size_t>(m * n));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) global[static_cast<std::size_t>(i + j * m)] = 100.0 * i + j;
    const auto local = scatter(grid, d, global.data(), m, 0);
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= m; ++i) {
        double value = -1.0;
        pdelget_("A", " ", &value, local.data(), &i, &j, desc);  // ScaLAPACK reads our local arrays
        ASSERT_EQ(value, 100.0 * (i - 1) + (j - 1)) << "(" << i << ", " << j << ") on a " << p << "x" << q << " grid";
      }
  }
}
