// trnblas::mpi::gemm (SUMMA) on grids 1x1, 1x2, 2x1, 1x3, 3x1, 2x2 (those that fit the rank count; ranks outside
// a grid sit the case out). Oracles:
//  - the serial trnblas::gemm on the global matrices: BITWISE where the reproducibility contract promises it
//    (default panel; host with single-threaded OpenBLAS, sim fp32/tf32/bf16/fp16/fp8/sr/compensated), and the
//    same call on a 1x1 grid over MPI_COMM_SELF for a finite panel width (bitwise across grids for one kb);
//  - an fp64 OpenBLAS oracle: |C − C_ref| within the reported bound times |alpha||op(A)||op(B)| + |beta||C|
//    (plus the oracle's own γ_{k+2} in fp64), for every case including the ones only promised within the bound
//    (sim ozaki, whose slice count depends on the local block);
//  - ScaLAPACK's pdgemm on the same distributed arrays, with descriptors made by DESCINIT on a BLACS "Row" grid
//    and passed in through from_scalapack; our result handed back to ScaLAPACK (PDGEADD reads it).
// Every case also checks that the report is byte-identical on every rank. Bad input must give the same error on
// every rank.
#include <trnblas/gemm.hpp>
#include <trnblas/mpi/gemm.hpp>
#include <trncore/mpi.hpp>

#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* ictxt, const int* lld, int* info);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
void pdgeadd_(const char* trans, const int* m, const int* n, const double* alpha, const double* a, const int* ia,
              const int* ja, const int* desca, const double* beta, double* c, const int* ic, const int* jc,
              const int* descc);
void openblas_set_num_threads(int n);
}

namespace {

namespace tm = trncore::mpi;
using trnblas::Op;
using trncore::Backend;
using trncore::MathMode;

const std::vector<std::pair<int, int>> kGrids = {{1, 1}, {1, 2}, {2, 1}, {1, 3}, {3, 1}, {2, 2}};

// The ranks of a p×q grid (the first p·q of the world) and the grid; others get nothing.
struct SubGrid {
  std::optional<tm::Communicator> comm;
  std::optional<tm::ProcessGrid> grid;
};

SubGrid make_grid(const tm::Communicator& world, int p, int q) {
  SubGrid s;
  const bool member = world.rank() < p * q;
  tm::Communicator sub = world.split(member ? 0 : 1, world.rank());
  if (member) {
    s.comm.emplace(std::move(sub));
    s.grid.emplace(*s.comm, p, q);
  }
  return s;
}

// A deterministic value in [-1, 1) of (seed, i, j), with a spread of magnitudes over about 3 binades.
double value(std::uint64_t seed, std::int64_t i, std::int64_t j) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(i) * 0xBF58476D1CE4E5B9ull +
                    static_cast<std::uint64_t>(j) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86657A7F1ull;
  x ^= x >> 29;
  const double u = static_cast<double>(x >> 11) * 0x1p-53;  // [0, 1)
  return (2 * u - 1) * std::ldexp(1.0, -static_cast<int>((x >> 3) % 4));
}

template <class T>
std::vector<T> global_matrix(std::uint64_t seed, std::int64_t rows, std::int64_t cols) {
  std::vector<T> g(static_cast<std::size_t>(std::max<std::int64_t>(1, rows * cols)));
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i)
      g[static_cast<std::size_t>(i + j * rows)] = static_cast<T>(value(seed, i, j));
  return g;
}

// This rank's local array of a global column-major matrix (ld = d.m) under descriptor d.
template <class T>
std::vector<T> local_of(const tm::ProcessGrid& grid, const tm::Descriptor& d, const std::vector<T>& global) {
  const std::int64_t lr = tm::local_rows(d, grid), lc = tm::local_cols(d, grid);
  std::vector<T> local(static_cast<std::size_t>(std::max<std::int64_t>(1, d.lld * lc)), T(0));
  for (std::int64_t jl = 0; jl < lc; ++jl)
    for (std::int64_t il = 0; il < lr; ++il)
      local[static_cast<std::size_t>(il + jl * d.lld)] = global[static_cast<std::size_t>(
          tm::local_to_global_row(il, d, grid) + tm::local_to_global_col(jl, d, grid) * d.m)];
  return local;
}

template <class T>
bool same_bits(T x, T y) {
  if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
  else
    return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
}

double gamma64(std::int64_t n) {
  const double nu = static_cast<double>(n) * 0x1p-53;
  return nu / (1 - nu);
}

// Every rank's string equals rank 0's.
void expect_same_on_every_rank(const tm::Communicator& comm, const std::string& s, const std::string& what) {
  const std::vector<std::int64_t> len =
      comm.allgatherv(std::span<const std::int64_t>(std::vector<std::int64_t>{static_cast<std::int64_t>(s.size())}));
  const std::vector<char> all = comm.allgatherv(std::span<const char>(s.data(), s.size()));
  const std::string first(all.data(), static_cast<std::size_t>(len[0]));
  std::size_t at = 0;
  for (int r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(std::string(all.data() + at, static_cast<std::size_t>(len[static_cast<std::size_t>(r)])), first)
        << what << " differs between rank 0 and rank " << r;
    at += static_cast<std::size_t>(len[static_cast<std::size_t>(r)]);
  }
}

struct Blocks {
  std::int64_t mb = 4, nb = 4, rsrc = 0, csrc = 0;
};

enum class Expect : std::uint8_t {
  serial_bitwise,     // bitwise trnblas::gemm on the global matrices (default panel)
  self_grid_bitwise,  // bitwise the same call on a 1x1 grid (finite panel)
  bound_only,         // within the reported bound
};

struct Case {
  int p = 1, q = 1;
  std::int64_t m = 0, n = 0, k = 0;
  Op ta = Op::no_trans, tb = Op::no_trans;
  Blocks a, b, c;
  double alpha = 1.5, beta = -0.75;
  trnblas::mpi::GemmOptions options;
  Expect expect = Expect::serial_bitwise;
  std::uint64_t seed = 1;

  std::string name() const {
    return std::to_string(p) + "x" + std::to_string(q) + " grid, m=" + std::to_string(m) + " n=" + std::to_string(n) +
           " k=" + std::to_string(k) + " " + std::string(trnblas::to_string(ta)) + "/" +
           std::string(trnblas::to_string(tb)) + " blocks A " + std::to_string(a.mb) + "x" + std::to_string(a.nb) +
           " B " + std::to_string(b.mb) + "x" + std::to_string(b.nb) + " C " + std::to_string(c.mb) + "x" +
           std::to_string(c.nb) + " panel " + std::to_string(options.panel) + " alpha " + std::to_string(alpha) +
           " beta " + std::to_string(beta) + " [" + trncore::to_string(static_cast<const trncore::Options&>(options)) +
           "]";
  }
};

tm::Descriptor descriptor(const tm::ProcessGrid& g, std::int64_t m, std::int64_t n, const Blocks& b) {
  return tm::make_descriptor(g, m, n, b.mb, b.nb, b.rsrc % g.rows(), b.csrc % g.cols());
}

// Runs one case on its grid; returns false (and records failures) when something did not hold.
template <class T>
void run_case(const tm::Communicator& world, const Case& cs) {
  if (cs.p * cs.q > world.size()) return;
  SubGrid sg = make_grid(world, cs.p, cs.q);
  if (!sg.grid) return;
  const tm::ProcessGrid& grid = *sg.grid;
  SCOPED_TRACE(cs.name());
  // Host: OpenBLAS's micro-kernels treat the edge rows/columns of their register tiles differently (seen here:
  // the last column of a local block differs in the last bit), so beyond one rank only the bound is promised.
  const Expect expect = cs.options.backend == Backend::host && cs.p * cs.q > 1 ? Expect::bound_only : cs.expect;
  const bool ta = cs.ta != Op::no_trans, tb = cs.tb != Op::no_trans;
  const std::int64_t ar = ta ? cs.k : cs.m, ac = ta ? cs.m : cs.k, br = tb ? cs.n : cs.k, bc = tb ? cs.k : cs.n;
  const auto ga = global_matrix<T>(cs.seed, ar, ac), gb = global_matrix<T>(cs.seed + 1, br, bc),
             gc = global_matrix<T>(cs.seed + 2, cs.m, cs.n);
  const auto da = descriptor(grid, ar, ac, cs.a), db = descriptor(grid, br, bc, cs.b),
             dc = descriptor(grid, cs.m, cs.n, cs.c);
  const auto la = local_of(grid, da, ga), lb = local_of(grid, db, gb);
  auto lc = local_of(grid, dc, gc);
  trncore::AccuracyReport report;
  trnblas::mpi::gemm(grid, cs.ta, cs.tb, static_cast<T>(cs.alpha), {da, la.data()}, {db, lb.data()},
                     static_cast<T>(cs.beta), {dc, lc.data()}, cs.options, report);
  expect_same_on_every_rank(grid.comm(), report.to_string(), "the report");
  EXPECT_TRUE(report.certified) << report.to_string();

  // The bitwise reference.
  std::vector<T> ref = gc;
  const std::int64_t ldc = std::max<std::int64_t>(1, cs.m);
  std::optional<trncore::AccuracyReport> serial_report;
  if (expect == Expect::serial_bitwise || cs.expect == Expect::serial_bitwise) {
    serial_report.emplace();
    trnblas::gemm<T>(trncore::Layout::col_major, cs.ta, cs.tb, cs.m, cs.n, cs.k, static_cast<T>(cs.alpha), ga.data(),
                     std::max<std::int64_t>(1, ar), gb.data(), std::max<std::int64_t>(1, br), static_cast<T>(cs.beta),
                     ref.data(), ldc, cs.options, *serial_report);
  } else if (expect == Expect::self_grid_bitwise) {
    tm::Communicator self(MPI_COMM_SELF);
    tm::ProcessGrid one(self, 1, 1);
    trncore::AccuracyReport r1;
    const auto d1a = descriptor(one, ar, ac, cs.a), d1b = descriptor(one, br, bc, cs.b),
               d1c = descriptor(one, cs.m, cs.n, cs.c);
    trnblas::mpi::gemm(one, cs.ta, cs.tb, static_cast<T>(cs.alpha), {d1a, ga.data()}, {d1b, gb.data()},
                       static_cast<T>(cs.beta), {d1c, ref.data()}, cs.options, r1);
  }
  // On a 1x1 grid with one panel the call is trnblas::gemm itself, report included.
  if (serial_report && cs.p * cs.q == 1 && cs.options.panel == 0) {
    EXPECT_EQ(report.to_string(), serial_report->to_string());
  }
  // The same bound as the serial call when it does not depend on the data or on alpha = 0's shortcut (the local
  // calls then run with k = 0: a tighter, equally valid bound).
  if (serial_report && cs.alpha != 0 && cs.options.math_mode != MathMode::ozaki &&
      !(cs.options.backend == Backend::sim && cs.options.math_mode == MathMode::automatic)) {
    EXPECT_EQ(report.a_priori_bound, serial_report->a_priori_bound);
  }

  // The fp64 oracle: R = alpha·op(A)·op(B) + beta·C and M = |alpha||op(A)||op(B)| + |beta||C|.
  std::vector<double> r(gc.begin(), gc.end()), mag(gc.size());
  for (std::size_t i = 0; i < gc.size(); ++i) mag[i] = std::abs(static_cast<double>(gc[i]));
  if (cs.m > 0 && cs.n > 0) {
    std::vector<double> a64(ga.begin(), ga.end()), b64(gb.begin(), gb.end()), aa(a64.size()), ab(b64.size());
    for (std::size_t i = 0; i < a64.size(); ++i) aa[i] = std::abs(a64[i]);
    for (std::size_t i = 0; i < b64.size(); ++i) ab[i] = std::abs(b64[i]);
    const auto op = [](bool t) { return t ? CblasTrans : CblasNoTrans; };
    const auto m = static_cast<int>(cs.m), n = static_cast<int>(cs.n), k = static_cast<int>(cs.k);
    const int lda = static_cast<int>(std::max<std::int64_t>(1, ar)),
              ldb = static_cast<int>(std::max<std::int64_t>(1, br));
    const double alpha = static_cast<double>(static_cast<T>(cs.alpha)),
                 beta = static_cast<double>(static_cast<T>(cs.beta));
    cblas_dgemm(CblasColMajor, op(ta), op(tb), m, n, k, alpha, a64.data(), lda, b64.data(), ldb, beta, r.data(),
                static_cast<int>(ldc));
    cblas_dgemm(CblasColMajor, op(ta), op(tb), m, n, k, std::abs(alpha), aa.data(), lda, ab.data(), ldb, std::abs(beta),
                mag.data(), static_cast<int>(ldc));
  }
  const double slack = 2 * gamma64(cs.k + 4);  // the oracle's own rounding (R and M)
  std::int64_t bad_bits = 0, bad_bound = 0;
  const std::int64_t lr = tm::local_rows(dc, grid), lcn = tm::local_cols(dc, grid);
  for (std::int64_t jl = 0; jl < lcn; ++jl)
    for (std::int64_t il = 0; il < lr; ++il) {
      const std::int64_t i = tm::local_to_global_row(il, dc, grid), j = tm::local_to_global_col(jl, dc, grid);
      const T got = lc[static_cast<std::size_t>(il + jl * dc.lld)];
      const auto g = static_cast<std::size_t>(i + j * cs.m);
      if (expect != Expect::bound_only && !same_bits(got, ref[g]) && bad_bits++ < 3)
        ADD_FAILURE() << "C(" << i << ", " << j << ") = " << got << " differs from the reference " << ref[g]
                      << " in its bits";
      const double err = std::abs(static_cast<double>(got) - r[g]);
      const double tol = (report.a_priori_bound * (1 + 0x1p-30) + slack) * mag[g];
      if (!(err <= tol) && bad_bound++ < 3)
        ADD_FAILURE() << "C(" << i << ", " << j << "): error " << err << " above the bound " << tol << " (bound "
                      << report.a_priori_bound << ")";
    }
}

// The shape list: sizes 0, 1, primes, block edges (nb − 1, nb, nb + 1 with nb = 4), skewed.
struct Shape {
  std::int64_t m, n, k;
};
const std::vector<Shape> kShapes = {{0, 5, 3},   {5, 0, 3},  {4, 3, 0},   {1, 1, 1}, {3, 4, 5},
                                    {7, 11, 13}, {2, 37, 5}, {31, 3, 17}, {9, 8, 23}};

const std::vector<std::pair<Op, Op>> kOps = {{Op::no_trans, Op::no_trans},
                                             {Op::trans, Op::no_trans},
                                             {Op::no_trans, Op::trans},
                                             {Op::trans, Op::trans},
                                             {Op::conj_trans, Op::conj_trans}};

// C's 4x4 blocks with A and B alike, and a mixed layout: A in 3x5 blocks from the last process row, B in 2x7
// blocks from the last process column, C in 4x3 blocks from process (last row, last column).
const std::vector<std::array<Blocks, 3>> kLayouts = {
    {Blocks{4, 4, 0, 0}, Blocks{4, 4, 0, 0}, Blocks{4, 4, 0, 0}},
    {Blocks{3, 5, 5, 0}, Blocks{2, 7, 0, 5}, Blocks{4, 3, 5, 5}},
};

class Summa : public ::testing::Test {
 protected:
  void SetUp() override { openblas_set_num_threads(1); }  // the host contract's condition (gemm.hpp)
  tm::Communicator world = tm::Communicator::world();
};

TEST_F(Summa, HostDoubleMatchesTheSerialGemmOnEveryGridShapeOpAndLayout) {
  for (const auto& [p, q] : kGrids)
    for (const Shape& s : kShapes)
      for (const auto& [ta, tb] : kOps)
        for (const auto& layout : kLayouts) {
          Case cs;
          cs.p = p;
          cs.q = q;
          cs.m = s.m;
          cs.n = s.n;
          cs.k = s.k;
          cs.ta = ta;
          cs.tb = tb;
          cs.a = layout[0];
          cs.b = layout[1];
          cs.c = layout[2];
          run_case<double>(world, cs);
        }
}

TEST_F(Summa, HostFloatAndBlasQuickCasesMatchTheSerialGemm) {
  for (const auto& [p, q] : kGrids)
    for (const auto& [alpha, beta] : std::vector<std::pair<double, double>>{{1.5, -0.75}, {0.0, 2.5}, {-1.0, 0.0}})
      for (const auto& [ta, tb] : kOps) {
        Case cs;
        cs.p = p;
        cs.q = q;
        cs.m = 13;
        cs.n = 10;
        cs.k = 11;
        cs.ta = ta;
        cs.tb = tb;
        cs.alpha = alpha;
        cs.beta = beta;
        cs.a = kLayouts[1][0];
        cs.b = kLayouts[1][1];
        cs.c = kLayouts[1][2];
        run_case<float>(world, cs);
      }
}

TEST_F(Summa, HostLargerKBeyondOpenBlasBlockingIsWithinTheBound) {
  // K beyond OpenBLAS's K blocking (GEMM_Q) and M, N beyond its register tiles.
  for (const auto& [p, q] : kGrids) {
    Case cs;
    cs.p = p;
    cs.q = q;
    cs.m = 67;
    cs.n = 45;
    cs.k = 601;
    cs.a = cs.b = cs.c = Blocks{16, 16, 0, 0};
    cs.ta = Op::trans;
    run_case<double>(world, cs);
  }
}

TEST_F(Summa, SimModesAreBitwiseTheSerialGemmWhereTheLocalOrderAllowsIt) {
  struct Mode {
    MathMode mode;
    bool is_double;
  };
  for (const auto& [p, q] : kGrids)
    for (const Mode md :
         {Mode{MathMode::bf16, false}, Mode{MathMode::sr, false}, Mode{MathMode::compensated, false},
          Mode{MathMode::fp32, false}, Mode{MathMode::tf32, true}, Mode{MathMode::fp8_e4m3, true},
          Mode{MathMode::fp16, false}, Mode{MathMode::fp8_e5m2, false}, Mode{MathMode::automatic, false}})
      for (const auto& [ta, tb] : {std::pair{Op::no_trans, Op::no_trans}, std::pair{Op::trans, Op::trans}}) {
        Case cs;
        cs.p = p;
        cs.q = q;
        cs.m = 11;
        cs.n = 9;
        cs.k = md.mode == MathMode::compensated ? 141 : 19;  // compensated: K in two chunks of <= 128
        cs.ta = ta;
        cs.tb = tb;
        cs.a = kLayouts[1][0];
        cs.b = kLayouts[1][1];
        cs.c = kLayouts[1][2];
        cs.options.with_backend(Backend::sim).with_math_mode(md.mode).with_seed(7, 3);
        if (md.is_double)
          run_case<double>(world, cs);
        else
          run_case<float>(world, cs);
      }
}

TEST_F(Summa, SimOzakiIsWithinItsBoundOnEveryGrid) {
  // ozaki picks its slice count from the whole local call's data: bitwise across grids is not promised.
  for (const auto& [p, q] : kGrids) {
    Case cs;
    cs.p = p;
    cs.q = q;
    cs.m = 10;
    cs.n = 12;
    cs.k = 15;
    cs.tb = Op::trans;
    cs.options.with_backend(Backend::sim).with_math_mode(MathMode::ozaki);
    cs.expect = Expect::bound_only;
    run_case<double>(world, cs);
  }
}

TEST_F(Summa, FinitePanelsAreBitwiseAcrossGridsForOneWidthAndWithinTheComposedBound) {
  struct Mode {
    Backend backend;
    MathMode mode;
    bool is_double;
  };
  for (const auto& [p, q] : kGrids)
    for (const Mode md : {Mode{Backend::host, MathMode::automatic, true}, Mode{Backend::sim, MathMode::bf16, false},
                          Mode{Backend::sim, MathMode::sr, false}, Mode{Backend::host, MathMode::automatic, false}})
      for (const std::int64_t kb : {1, 5})
        for (const bool aligned : {false, true}) {
          // aligned: A, B and C in 4x4 blocks from process (0, 0), no_trans: on 1xQ grids B and on Px1 grids A
          // are read in place (their local arrays are the working panels); mixed: everything is exchanged.
          Case cs;
          cs.p = p;
          cs.q = q;
          cs.m = 9;
          cs.n = 7;
          cs.k = 17;
          cs.ta = aligned ? Op::no_trans : Op::trans;
          cs.a = kLayouts[aligned ? 0 : 1][0];
          cs.b = kLayouts[aligned ? 0 : 1][1];
          cs.c = kLayouts[aligned ? 0 : 1][2];
          cs.options.with_backend(md.backend).with_math_mode(md.mode).with_panel(kb);
          cs.expect = Expect::self_grid_bitwise;
          if (md.is_double)
            run_case<double>(world, cs);
          else
            run_case<float>(world, cs);
        }
}

TEST_F(Summa, TheComposedHostBoundIsTheProductOfThePanelBounds) {
  // 17 = 5 + 5 + 5 + 2: 1 + δ = (1 + γ_7)³(1 + γ_4) (γ_{kb+2} of each local host call), rounded upward.
  auto sg = make_grid(world, 1, std::min(world.size(), 2));
  if (!sg.grid) return;
  const auto& grid = *sg.grid;
  const auto d = tm::make_descriptor(grid, 6, 17, 2, 2), e = tm::make_descriptor(grid, 17, 5, 2, 2),
             f = tm::make_descriptor(grid, 6, 5, 2, 2);
  const auto ga = global_matrix<double>(3, 6, 17), gb = global_matrix<double>(4, 17, 5);
  auto gc = global_matrix<double>(5, 6, 5);
  const auto la = local_of(grid, d, ga), lb = local_of(grid, e, gb);
  auto lc = local_of(grid, f, gc);
  trncore::AccuracyReport report;
  trnblas::mpi::gemm(grid, Op::no_trans, Op::no_trans, 1.0, {d, la.data()}, {e, lb.data()}, 1.0, {f, lc.data()},
                     trnblas::mpi::GemmOptions{}.with_panel(5), report);
  const double g7 = gamma64(7), g4 = gamma64(4);
  const double expected = 3 * g7 + g4;  // (the cross terms are ~1e-30)
  EXPECT_GE(report.a_priori_bound, expected);
  EXPECT_LE(report.a_priori_bound, expected * (1 + 1e-12));
  EXPECT_TRUE(report.certified);
  EXPECT_TRUE(report.met);
  EXPECT_NE(report.trajectory.front().description.find("4 panel(s) of 5"), std::string::npos)
      << report.trajectory.front().description;
}

TEST_F(Summa, ATargetIsSplitOverPanelsAndJudgedOnTheComposedBound) {
  auto sg = make_grid(world, std::min(world.size(), 2), 1);
  if (!sg.grid) return;
  const auto& grid = *sg.grid;
  const std::int64_t m = 8, n = 6, k = 40;
  const auto d = tm::make_descriptor(grid, m, k, 3, 3), e = tm::make_descriptor(grid, k, n, 3, 3),
             f = tm::make_descriptor(grid, m, n, 3, 3);
  const auto ga = global_matrix<float>(3, m, k), gb = global_matrix<float>(4, k, n), gc = global_matrix<float>(5, m, n);
  const auto la = local_of(grid, d, ga), lb = local_of(grid, e, gb);
  for (const double target : {1e-2, 1e-6}) {
    auto lc = local_of(grid, f, gc);
    trncore::AccuracyReport report;
    const auto options = trnblas::mpi::GemmOptions{}.with_backend(Backend::sim).with_target(target).with_panel(10);
    trnblas::mpi::gemm(grid, Op::no_trans, Op::no_trans, 1.0f, {d, la.data()}, {e, lb.data()}, 0.5f, {f, lc.data()},
                       options, report);
    EXPECT_TRUE(report.certified) << report.to_string();
    EXPECT_TRUE(report.met) << report.to_string();
    EXPECT_LE(report.a_priori_bound, target);
    expect_same_on_every_rank(grid.comm(), report.to_string(), "the report");
  }
  // Unreachable by bf16: the report says so and the no-report overload throws TargetNotMet on every rank.
  auto lc = local_of(grid, f, gc);
  const auto bf16 =
      trnblas::mpi::GemmOptions{}.with_backend(Backend::sim).with_math_mode(MathMode::bf16).with_target(1e-6);
  EXPECT_THROW(trnblas::mpi::gemm(grid, Op::no_trans, Op::no_trans, 1.0f, {d, la.data()}, {e, lb.data()}, 0.5f,
                                  {f, lc.data()}, bf16),
               trncore::TargetNotMet);
}

TEST_F(Summa, NonFiniteInputIsUncertifiedOnEveryRankWithTheRankNamed) {
  auto sg = make_grid(world, 1, world.size());
  const auto& grid = *sg.grid;
  const std::int64_t m = 5, n = 9, k = 4;
  const auto d = tm::make_descriptor(grid, m, k, 2, 2), e = tm::make_descriptor(grid, k, n, 2, 2),
             f = tm::make_descriptor(grid, m, n, 2, 2);
  auto ga = global_matrix<double>(3, m, k);
  const auto gb = global_matrix<double>(4, k, n), gc = global_matrix<double>(5, m, n);
  ga[2] = std::numeric_limits<double>::quiet_NaN();  // row 2 of A: every rank's C has row 2
  const auto la = local_of(grid, d, ga), lb = local_of(grid, e, gb);
  auto lc = local_of(grid, f, gc);
  trncore::AccuracyReport report;
  trnblas::mpi::gemm(grid, Op::no_trans, Op::no_trans, 1.0, {d, la.data()}, {e, lb.data()}, 1.0, {f, lc.data()}, {},
                     report);
  EXPECT_FALSE(report.certified);
  EXPECT_FALSE(report.met);
  EXPECT_NE(report.uncertified_reason.find("op(A) holds inf or NaN"), std::string::npos) << report.uncertified_reason;
  if (world.size() > 1) {  // (on one rank, the 1x1 grid's report is trnblas::gemm's own)
    EXPECT_NE(report.uncertified_reason.find("on rank 0, K panel 1 of 1: op(A) holds inf or NaN"), std::string::npos)
        << report.uncertified_reason;
  }
  expect_same_on_every_rank(grid.comm(), report.to_string(), "the report");
  EXPECT_THROW(
      trnblas::mpi::gemm(grid, Op::no_trans, Op::no_trans, 1.0, {d, la.data()}, {e, lb.data()}, 1.0, {f, lc.data()}),
      trncore::TargetNotMet);
}

// ------------------------------------------------------------------------------------------------------------------
// ScaLAPACK interop: descriptors from DESCINIT on a BLACS "Row" grid, our gemm through from_scalapack, pdgemm on
// the same arrays, our result handed back to PDGEADD.

struct Blacs {
  int context = -1;
  Blacs(int p, int q) {
    context = Csys2blacs_handle(MPI_COMM_WORLD);
    Cblacs_gridinit(&context, "Row", p, q);
  }
  ~Blacs() {
    if (context >= 0) Cblacs_gridexit(context);
  }
  Blacs(const Blacs&) = delete;
  Blacs& operator=(const Blacs&) = delete;
};

TEST_F(Summa, AgreesWithScalapackPdgemmOnTheSameDistributedMatrices) {
  for (const auto& [p, q] : kGrids) {
    if (p * q > world.size()) continue;
    Blacs blacs(p, q);  // collective over the world; ranks outside the grid get no context
    SubGrid sg = make_grid(world, p, q);
    if (!sg.grid) continue;
    const auto& grid = *sg.grid;
    int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
    Cblacs_gridinfo(blacs.context, &nprow, &npcol, &myrow, &mycol);
    ASSERT_EQ(myrow, grid.row());
    ASSERT_EQ(mycol, grid.col());
    for (const Shape& s : {Shape{13, 11, 7}, Shape{4, 5, 3}, Shape{1, 9, 1}, Shape{0, 3, 2}, Shape{23, 2, 19}})
      for (const auto& [ta, tb] : kOps) {
        SCOPED_TRACE(std::to_string(p) + "x" + std::to_string(q) + " m=" + std::to_string(s.m) +
                     " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) + " " +
                     std::string(trnblas::to_string(ta)) + "/" + std::string(trnblas::to_string(tb)));
        const bool at = ta != Op::no_trans, bt = tb != Op::no_trans;
        const int ar = static_cast<int>(at ? s.k : s.m), ac = static_cast<int>(at ? s.m : s.k);
        const int br = static_cast<int>(bt ? s.n : s.k), bc = static_cast<int>(bt ? s.k : s.n);
        const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
        const int nb = 3, zero = 0;
        // DESCINIT's descriptors (lld from our numroc, which the interop test of trncore checks against NUMROC).
        const auto scalapack_desc = [&](int rows, int cols) {
          std::array<int, 9> desc{};
          const auto ours = tm::make_descriptor(grid, rows, cols, nb, nb);
          int lld = static_cast<int>(ours.lld), info = -1;
          descinit_(desc.data(), &rows, &cols, &nb, &nb, &zero, &zero, &blacs.context, &lld, &info);
          EXPECT_EQ(info, 0);
          return desc;
        };
        const auto sa = scalapack_desc(ar, ac), sb = scalapack_desc(br, bc), sc = scalapack_desc(m, n);
        const auto da = tm::from_scalapack(sa.data()), db = tm::from_scalapack(sb.data()),
                   dc = tm::from_scalapack(sc.data());
        const auto ga = global_matrix<double>(11, ar, ac), gb = global_matrix<double>(12, br, bc),
                   gc = global_matrix<double>(13, m, n);
        const auto la = local_of(grid, da, ga), lb = local_of(grid, db, gb);
        auto ours = local_of(grid, dc, gc);
        auto theirs = ours;
        const double alpha = 0.75, beta = -1.25;
        trncore::AccuracyReport report;
        trnblas::mpi::gemm(grid, ta, tb, alpha, {da, la.data()}, {db, lb.data()}, beta, {dc, ours.data()}, {}, report);
        const char tra = at ? 'T' : 'N', trb = bt ? 'T' : 'N';
        const int one = 1;
        pdgemm_(&tra, &trb, &m, &n, &k, &alpha, la.data(), &one, &one, sa.data(), lb.data(), &one, &one, sb.data(),
                &beta, theirs.data(), &one, &one, sc.data());
        // Handed back: ScaLAPACK reads our C: theirs := ours − theirs.
        const double plus = 1.0, minus = -1.0;
        pdgeadd_("N", &m, &n, &plus, ours.data(), &one, &one, sc.data(), &minus, theirs.data(), &one, &one, sc.data());
        // |ours − pdgemm| ≤ (our bound + pdgemm's γ_{2k+2}) · M, M = |alpha||op(A)||op(B)| + |beta||C| (fp64 oracle).
        std::vector<double> mag(gc.size()), aa(ga.size()), ab(gb.size());
        for (std::size_t i = 0; i < gc.size(); ++i) mag[i] = std::abs(gc[i]);
        for (std::size_t i = 0; i < ga.size(); ++i) aa[i] = std::abs(ga[i]);
        for (std::size_t i = 0; i < gb.size(); ++i) ab[i] = std::abs(gb[i]);
        if (m > 0 && n > 0)
          cblas_dgemm(CblasColMajor, at ? CblasTrans : CblasNoTrans, bt ? CblasTrans : CblasNoTrans, m, n, k,
                      std::abs(alpha), aa.data(), std::max(1, ar), ab.data(), std::max(1, br), std::abs(beta),
                      mag.data(), std::max(1, m));
        const double tol = (report.a_priori_bound + gamma64(2 * k + 2)) * (1 + 1e-6);
        const auto lr = tm::local_rows(dc, grid), lcn = tm::local_cols(dc, grid);
        for (std::int64_t jl = 0; jl < lcn; ++jl)
          for (std::int64_t il = 0; il < lr; ++il) {
            const auto g = static_cast<std::size_t>(tm::local_to_global_row(il, dc, grid) +
                                                    tm::local_to_global_col(jl, dc, grid) * m);
            ASSERT_LE(std::abs(theirs[static_cast<std::size_t>(il + jl * dc.lld)]), tol * mag[g])
                << "C(" << tm::local_to_global_row(il, dc, grid) << ", " << tm::local_to_global_col(jl, dc, grid)
                << ")";
          }
      }
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Bad input: the same exception, with the same message, on every rank.

template <class E, class F>
void expect_on_every_rank(const tm::Communicator& comm, F&& f, const std::string& fragment) {
  std::string what = "(no exception)";
  try {
    f();
  } catch (const E& e) {
    what = e.what();
    EXPECT_EQ(e.function(), "trnblas::mpi::gemm");
  } catch (const std::exception& e) {
    what = std::string("wrong exception type: ") + e.what();
  }
  EXPECT_NE(what.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << what;
  expect_same_on_every_rank(comm, what, "the error message");
}

struct Operands {
  tm::Descriptor da, db, dc;
  std::vector<double> a, b, c;
};

Operands operands(const tm::ProcessGrid& grid, std::int64_t m, std::int64_t n, std::int64_t k) {
  Operands o;
  o.da = tm::make_descriptor(grid, m, k, 2, 2);
  o.db = tm::make_descriptor(grid, k, n, 2, 2);
  o.dc = tm::make_descriptor(grid, m, n, 2, 2);
  o.a = local_of(grid, o.da, global_matrix<double>(1, m, k));
  o.b = local_of(grid, o.db, global_matrix<double>(2, k, n));
  o.c = local_of(grid, o.dc, global_matrix<double>(3, m, n));
  return o;
}

TEST_F(Summa, BadInputGivesTheSameErrorOnEveryRank) {
  auto sg = make_grid(world, 1, world.size());
  const auto& grid = *sg.grid;
  const auto& comm = grid.comm();
  const int last = comm.size() - 1;
  Operands o = operands(grid, 7, 6, 5);
  const auto call = [&](Op ta, Op tb, double alpha, tm::Descriptor da, tm::Descriptor db, tm::Descriptor dc,
                        const trnblas::mpi::GemmOptions& options = {}) {
    trncore::AccuracyReport r;
    trnblas::mpi::gemm(grid, ta, tb, alpha, {da, o.a.data()}, {db, o.b.data()}, 0.5, {dc, o.c.data()}, options, r);
  };
  const Op N = Op::no_trans;
  // Shapes that do not conform.
  {
    auto db = o.db;
    db.m = 4;  // op(B) 4 x 6 against op(A) 7 x 5
    db.lld = std::max<std::int64_t>(1, tm::local_rows(db, grid));
    expect_on_every_rank<trncore::DimensionMismatch>(
        comm, [&] { call(N, N, 1.0, o.da, db, o.dc); }, "op(A) is 7x5 (transa = no_trans), op(B) is 4x6");
  }
  // One rank passing a different k (A's columns) or a different alpha: found before any communication.
  if (comm.size() > 1) {
    auto da = o.da;
    if (comm.rank() == last) da.n = 6;
    expect_on_every_rank<trncore::DimensionMismatch>(
        comm, [&] { call(N, N, 1.0, da, o.db, o.dc); }, "differs");
    expect_on_every_rank<trncore::DimensionMismatch>(
        comm, [&] { call(N, N, comm.rank() == last ? 2.0 : 1.0, o.da, o.db, o.dc); }, "alpha");
    // Mismatched descriptors: a different block size on one rank.
    auto dc = o.dc;
    if (comm.rank() == last) {
      dc.mb = 3;
      dc.lld = std::max<std::int64_t>(1, tm::local_rows(dc, grid));
    }
    expect_on_every_rank<trncore::DimensionMismatch>(
        comm, [&] { call(N, N, 1.0, o.da, o.db, dc); }, "differs");
    trnblas::mpi::GemmOptions panel;
    panel.panel = comm.rank() == last ? 2 : 0;
    expect_on_every_rank<trncore::DimensionMismatch>(
        comm, [&] { call(N, N, 1.0, o.da, o.db, o.dc, panel); }, "options.panel");
  }
  // A bad descriptor on one rank only (lld below the local rows).
  {
    auto dc = o.dc;
    if (comm.rank() == last && tm::local_rows(dc, grid) > 1) dc.lld = 1;
    if (comm.any_of(dc.lld != o.dc.lld))
      expect_on_every_rank<trncore::InvalidArgument>(
          comm, [&] { call(N, N, 1.0, o.da, o.db, dc); }, "on rank " + std::to_string(last));
  }
  expect_on_every_rank<trncore::InvalidArgument>(
      comm, [&] { call(static_cast<Op>(7), N, 1.0, o.da, o.db, o.dc); }, "transa has the invalid value 7");
  expect_on_every_rank<trncore::InvalidArgument>(
      comm, [&] { call(N, N, 1.0, o.da, o.db, o.dc, trnblas::mpi::GemmOptions{}.with_panel(-1)); },
      "options.panel = -1");
  expect_on_every_rank<trncore::NotSupported>(
      comm, [&] { call(N, N, 1.0, o.da, o.db, o.dc, trnblas::mpi::GemmOptions{}.with_math_mode(MathMode::bf16)); },
      "math mode bf16 is not a host mode");
  expect_on_every_rank<trncore::NotSupported>(
      comm,
      [&] {
        call(N, N, 1.0, o.da, o.db, o.dc,
             trnblas::mpi::GemmOptions{}.with_backend(Backend::sim).with_math_mode(MathMode::fp64));
      },
      "fp64 has no TensorEngine algorithm");
  expect_on_every_rank<trncore::InvalidArgument>(
      comm, [&] { call(N, N, 1.0, o.da, o.db, o.dc, trnblas::mpi::GemmOptions{}.with_target(2.0)); }, "target");
  // C overlapping A on one rank.
  {
    std::vector<double> shared(o.a.size() + o.c.size() + 64, 1.0);
    const bool alias = comm.rank() == 0;
    trncore::AccuracyReport r;
    expect_on_every_rank<trncore::InvalidArgument>(
        comm,
        [&] {
          trnblas::mpi::gemm(grid, N, N, 1.0, {o.da, alias ? shared.data() : o.a.data()}, {o.db, o.b.data()}, 0.5,
                             {o.dc, alias ? shared.data() + 1 : o.c.data()}, {}, r);
        },
        "C's local array overlaps A's");
    expect_on_every_rank<trncore::InvalidArgument>(
        comm,
        [&] {
          trnblas::mpi::gemm(grid, N, N, 1.0, {o.da, alias ? nullptr : o.a.data()}, {o.db, o.b.data()}, 0.5,
                             {o.dc, o.c.data()}, {}, r);
        },
        "a's local array is null");
  }
  // Nobody is left inside a collective.
  EXPECT_EQ(comm.allreduce_max(1), 1);
}

}  // namespace
