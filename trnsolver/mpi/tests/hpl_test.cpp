// trnsolver::mpi HPL-MxP and solve on 1-4 ranks (every rank runs every case, on every grid P×Q = ranks).
// Oracles: the serial trnsolver::hpl_mxp_system (bitwise), a 1×1 grid on rank 0 alone (bitwise: every BLAS
// call covers one global block and every reduction runs in global block order, so neither P×Q nor the rank
// count changes a bit), the LU backward error bound, LAPACK dgesv in fp64 on the gathered matrix and the
// single-process trnsolver::solve (within the rigorous residual bound: its LU calls OpenBLAS with other
// shapes, whose kernels round differently, and its refinement sums in OpenBLAS's dgemv/dtrsv order).
#include <trnsolver/mpi/hpl_mxp.hpp>
#include <trnsolver/mpi/solve.hpp>

#include "hpl/dist_lu.hpp"

#include <trncore/error.hpp>

#include <gtest/gtest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int context);
void pdgesv_(const int* n, const int* nrhs, double* a, const int* ia, const int* ja, const int* desca, int* ipiv,
             double* b, const int* ib, const int* jb, const int* descb, int* info);
}

namespace {

namespace tm = trncore::mpi;
using trnsolver::mpi::DistMatrix;
using trnsolver::mpi::ProcessGrid;

constexpr double kU = 0x1p-53;

tm::Communicator& world() {
  static tm::Communicator c = tm::Communicator::world();
  return c;
}

// Every P×Q = ranks (1×1; 1×2, 2×1; 1×3, 3×1; 2×2, 1×4, 4×1).
std::vector<std::pair<int, int>> grids() {
  std::vector<std::pair<int, int>> out;
  const int s = world().size();
  if (s == 4) out.push_back({2, 2});
  for (int p = 1; p <= s; ++p)
    if (s % p == 0 && !(s == 4 && p == 2)) out.push_back({p, s / p});
  return out;
}

// The global column-major matrix of a distributed one, on every rank.
template <class T>
std::vector<T> gather_all(const ProcessGrid& g, const tm::Descriptor& d, const T* local) {
  std::vector<T> global(static_cast<std::size_t>(std::max<std::int64_t>(1, d.m * d.n)));
  tm::gather<T>(g, d, local, global.data(), std::max<std::int64_t>(1, d.m), 0);
  g.comm().broadcast(std::span<T>(global), 0);
  global.resize(static_cast<std::size_t>(d.m * d.n));
  return global;
}

struct System {
  tm::Descriptor da, db;
  std::vector<double> a, b;
};

System make_system(const ProcessGrid& g, std::int64_t n, std::int64_t nb, std::uint64_t seed) {
  System s;
  s.da = tm::make_descriptor(g, n, n, nb, nb);
  s.db = tm::make_descriptor(g, n, 1, nb, 1);
  s.a.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, tm::local_size(s.da, g))), 0.0);
  s.b.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, tm::local_size(s.db, g))), 0.0);
  trnsolver::mpi::hpl_mxp_system(g, {s.da, s.a.data()}, {s.db, s.b.data()}, seed);
  return s;
}

bool bitwise_equal(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

// ‖A⁻¹‖∞ from LAPACK's fp64 inverse (its relative error ~κ·n·u ≲ 1e-12 here is covered by the 1 + 1e-6).
double inverse_norm(std::int64_t n, std::vector<double> a) {
  std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
  EXPECT_EQ(LAPACKE_dgetrf(LAPACK_COL_MAJOR, static_cast<int>(n), static_cast<int>(n), a.data(), static_cast<int>(n),
                           ipiv.data()),
            0);
  EXPECT_EQ(LAPACKE_dgetri(LAPACK_COL_MAJOR, static_cast<int>(n), a.data(), static_cast<int>(n), ipiv.data()), 0);
  double m = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += std::abs(a[static_cast<std::size_t>(i + j * n)]);
    m = std::max(m, s);
  }
  return m * (1 + 1e-6);
}

// A rigorous bound on ‖x̂ − x‖∞/‖x̂‖∞ from the residual: ‖A⁻¹‖∞(‖r̂‖∞ + γ_{n+1}‖|A||x̂| + |b|‖∞)/‖x̂‖∞,
// r̂ computed in fp64 (its rounding error is the γ term).
double residual_bound(std::int64_t n, const std::vector<double>& a, const std::vector<double>& b,
                      const std::vector<double>& x, double ainv) {
  double r = 0, s = 0, xn = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double ri = b[static_cast<std::size_t>(i)], si = std::abs(b[static_cast<std::size_t>(i)]);
    for (std::int64_t j = 0; j < n; ++j) {
      ri -= a[static_cast<std::size_t>(i + j * n)] * x[static_cast<std::size_t>(j)];
      si += std::abs(a[static_cast<std::size_t>(i + j * n)] * x[static_cast<std::size_t>(j)]);
    }
    r = std::max(r, std::abs(ri));
    s = std::max(s, si);
    xn = std::max(xn, std::abs(x[static_cast<std::size_t>(i)]));
  }
  const double g = (n + 1) * kU / (1 - (n + 1) * kU);
  return ainv * (r + g * s * (1 + g)) / xn * (1 + 4 * kU);
}

double relative_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double d = 0, m = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d = std::max(d, std::abs(x[i] - y[i]));
    m = std::max(m, std::abs(y[i]));
  }
  return d / m;
}

std::vector<double> dgesv(std::int64_t n, std::vector<double> a, std::vector<double> b) {
  std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
  EXPECT_EQ(LAPACKE_dgesv(LAPACK_COL_MAJOR, static_cast<int>(n), 1, a.data(), static_cast<int>(n), ipiv.data(),
                          b.data(), static_cast<int>(n)),
            0);
  return b;
}

trnsolver::SolveOptions hpl_rules() {
  trnsolver::SolveOptions o;
  o.refinement = trnsolver::Refinement::gmres_ir;
  o.residual = trnsolver::ResidualPrecision::fp64;
  o.factor = trnsolver::FactorPrecision::fp32;
  o.pivoting = false;
  o.fallback = false;
  o.error_bounds = false;
  return o;
}

// The distributed system equals the serial hpl_mxp_system bitwise, for n = 1, primes, nb − 1, nb, nb + 1 and
// a few block sizes, on every grid.
TEST(HplMxpMpi, SystemEqualsSerialBitwise) {
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    for (const std::int64_t nb : {1, 5, 16})
      for (const std::int64_t n :
           {std::int64_t{1}, std::int64_t{2}, std::int64_t{13}, std::int64_t{37}, nb - 1, nb, nb + 1, 3 * nb + 2}) {
        if (n < 1) continue;
        const System s = make_system(g, n, nb, 7);
        std::vector<double> a, b;
        trnsolver::hpl_mxp_system(n, 7, a, b);
        EXPECT_TRUE(bitwise_equal(gather_all(g, s.da, s.a.data()), a)) << p << "x" << q << " n " << n << " nb " << nb;
        EXPECT_TRUE(bitwise_equal(gather_all(g, s.db, s.b.data()), b)) << p << "x" << q << " n " << n << " nb " << nb;
      }
  }
}

// The distributed factors (host fp32, sim bf16) are the same bits on every grid and on a 1×1 grid of rank 0
// alone, and satisfy the backward error bound the certificate uses, |L̂Û − A| ≤ c·|L̂||Û| entrywise with
// c = backward_error_constant() (checked in fp64: products of fp32 entries are exact, the sums' rounding is the
// n·2^-50 term). They are not the single-process blocked LU's bits: that one calls one OpenBLAS GEMM per step
// over the whole trailing matrix, and OpenBLAS's kernels round differently for different call shapes, while
// the distributed LU calls one per global nb×nb block so that the grid cannot change a bit.
TEST(HplMxpMpi, FactorsAreGridInvariantAndBackwardStable) {
  const std::int64_t n = 300;
  std::vector<double> a, b;
  trnsolver::hpl_mxp_system(n, 3, a, b);
  for (const bool sim : {false, true})
    for (const std::int64_t nb : {std::int64_t{128}, std::int64_t{37}}) {
      trncore::Options o;
      if (sim) o.backend = trncore::Backend::sim;
      const auto precision = sim ? trnsolver::FactorPrecision::bf16 : trnsolver::FactorPrecision::fp32;
      std::vector<float> f1(static_cast<std::size_t>(n * n));
      double c = 0;
      {
        const tm::Communicator alone = world().split(world().rank() == 0 ? 0 : 1, world().rank());
        if (world().rank() == 0) {
          const ProcessGrid g1(alone, 1, 1);
          const System s = make_system(g1, n, nb, 3);
          const auto lu = trnsolver::mpi::detail::factorize(trnsolver::mpi::detail::Cyclic(g1, n, nb), s.a.data(),
                                                            s.da.lld, precision, o);
          EXPECT_EQ(lu.info, 0);
          EXPECT_TRUE(lu.gemms_certified);
          c = lu.backward_error_constant();
          std::copy(lu.f.begin(), lu.f.end(), f1.begin());
        }
        world().broadcast(std::span<float>(f1), 0);
        world().broadcast(std::span<double>(&c, 1), 0);
      }
      // Backward error of the reference factors.
      double worst = 0;
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) {
          double lu = 0, mag = 0;
          for (std::int64_t k = 0; k <= std::min(i, j); ++k) {
            const double l = k == i ? 1.0 : f1[static_cast<std::size_t>(i + k * n)];
            const double u = f1[static_cast<std::size_t>(k + j * n)];
            lu += l * u;
            mag += std::abs(l * u);
          }
          const double aij = a[static_cast<std::size_t>(i + j * n)];
          const double err = std::abs(lu - aij), allowed = c * mag + n * 0x1p-50 * (mag + std::abs(aij));
          worst = std::max(worst, err / allowed);
        }
      EXPECT_LE(worst, 1.0) << (sim ? "sim bf16" : "host fp32") << " nb " << nb;
      for (const auto& [p, q] : grids()) {
        const ProcessGrid g(world(), p, q);
        const System s = make_system(g, n, nb, 3);
        const auto lu = trnsolver::mpi::detail::factorize(trnsolver::mpi::detail::Cyclic(g, n, nb), s.a.data(),
                                                          s.da.lld, precision, o);
        EXPECT_EQ(lu.info, 0);
        const std::vector<float> f = gather_all(g, s.da, lu.f.data());
        std::int64_t differ = 0, first = -1;
        for (std::size_t i = 0; i < f.size(); ++i)
          if (std::memcmp(&f[i], &f1[i], sizeof(float)) != 0) {
            if (first < 0) first = static_cast<std::int64_t>(i);
            ++differ;
          }
        EXPECT_EQ(differ, 0) << (sim ? "sim bf16 " : "host fp32 ") << p << "x" << q << " nb " << nb << ": first at ("
                             << first % n << ", " << first / n << ")";
      }
    }
}

// The LU's GEMM certificate (trnblas's host conditions, checked block by block): an entry below fp32's normal
// range in A makes it fail on every rank (and a certified solve says why); a normal A keeps it.
TEST(HplMxpMpi, LuCertificateSeesSubnormals) {
  const std::int64_t n = 40, nb = 8;
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    System s = make_system(g, n, nb, 2);
    const trnsolver::mpi::detail::Cyclic cy(g, n, nb);
    EXPECT_TRUE(trnsolver::mpi::detail::factorize(cy, s.a.data(), s.da.lld, trnsolver::FactorPrecision::fp32, {})
                    .gemms_certified);
    // A(35, 20) = 1e-40: normal in fp64, subnormal in fp32.
    if (tm::owner_row(35, s.da, g) == g.row() && tm::owner_col(20, s.da, g) == g.col())
      s.a[static_cast<std::size_t>(tm::global_to_local_row(35, s.da, g) +
                                   tm::global_to_local_col(20, s.da, g) * s.da.lld)] = 1e-40;
    EXPECT_FALSE(trnsolver::mpi::detail::factorize(cy, s.a.data(), s.da.lld, trnsolver::FactorPrecision::fp32, {})
                     .gemms_certified);
    std::vector<double> x(s.b.size(), 0.0);
    trnsolver::SolveOptions o = hpl_rules();
    o.error_bounds = true;
    trnsolver::SolveReport r;
    trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o, r);
    EXPECT_TRUE(r.converged);
    EXPECT_FALSE(r.certified) << r.to_string();
  }
}

// The solution, iteration counts and report are the same bits on every grid and on a 1×1 grid of rank 0
// alone (rank-count invariance), and x is within the rigorous residual bound of LAPACK's dgesv and of the
// single-process trnsolver::solve (whose refinement sums in OpenBLAS's order, so not bitwise).
TEST(HplMxpMpi, SolveIsGridInvariantAndAccurate) {
  for (const std::int64_t nb : {7, 16}) {
    // (n = 1 is the singular [0] in HPL-MxP's system, see SolvesOrderOne; n = 2 is singular when a01·a10 > 0.)
    for (const std::int64_t n : {nb - 1, nb, nb + 1, std::int64_t{97}, std::int64_t{211}}) {
      std::vector<double> a, b;
      trnsolver::hpl_mxp_system(n, 11, a, b);
      // The reference: a 1×1 grid on rank 0 alone.
      std::vector<double> x1(static_cast<std::size_t>(n));
      std::int64_t gmres1 = 0;
      {
        const tm::Communicator alone = world().split(world().rank() == 0 ? 0 : 1, world().rank());
        if (world().rank() == 0) {
          const ProcessGrid g1(alone, 1, 1);
          const System s = make_system(g1, n, nb, 11);
          std::vector<double> x(s.b.size());
          trnsolver::SolveReport r;
          EXPECT_EQ(trnsolver::mpi::solve(g1, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, hpl_rules(), r),
                    0);
          EXPECT_TRUE(r.converged) << r.to_string();
          gmres1 = r.gmres_iterations;
          std::copy(x.begin(), x.begin() + n, x1.begin());
        }
        world().broadcast(std::span<double>(x1), 0);
        world().broadcast(std::span<std::int64_t>(&gmres1, 1), 0);
      }
      const std::vector<double> xg = dgesv(n, a, b);
      const double ainv = inverse_norm(n, a);
      std::vector<double> xs(static_cast<std::size_t>(n));
      trnsolver::SolveReport rs;
      trnsolver::solve(trncore::Layout::col_major, n, 1, a.data(), n, b.data(), n, xs.data(), n, hpl_rules(), rs);
      for (const auto& [p, q] : grids()) {
        const ProcessGrid g(world(), p, q);
        const System s = make_system(g, n, nb, 11);
        std::vector<double> x(s.b.size(), 0.0);
        trnsolver::SolveReport r;
        trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, hpl_rules(), r);
        EXPECT_TRUE(r.converged) << r.to_string();
        EXPECT_EQ(r.gmres_iterations, gmres1);
        const std::vector<double> xd = gather_all(g, s.db, x.data());
        EXPECT_TRUE(bitwise_equal(xd, x1)) << p << "x" << q << " n " << n << " nb " << nb;
        const double bd = residual_bound(n, a, b, xd, ainv), bg = residual_bound(n, a, b, xg, ainv),
                     bs = residual_bound(n, a, b, xs, ainv);
        EXPECT_LE(relative_difference(xd, xg), (bd + bg) * (1 + 1e-6)) << n;
        EXPECT_LE(relative_difference(xd, xs), (bd + bs) * (1 + 1e-6)) << n;
      }
    }
  }
}

// The driver: HPL's check passes, the report names N, NB, P, Q and PASSED, the same on every grid.
TEST(HplMxpMpi, DriverPassesAndReportsGrid) {
  trnsolver::mpi::HplMxpOptions o;
  o.n = 157;
  o.nb = 32;
  double residual = -1;
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    const trnsolver::mpi::HplMxpResult r = trnsolver::mpi::hpl_mxp(g, o);
    EXPECT_TRUE(r.passed) << r.to_string();
    EXPECT_LE(r.scaled_residual, 16.0);
    EXPECT_EQ(r.p, p);
    EXPECT_EQ(r.q, q);
    if (residual >= 0) {
      EXPECT_EQ(r.scaled_residual, residual);  // bitwise the same solution on every grid
    }
    residual = r.scaled_residual;
    const std::string text = r.to_string();
    char line[64];
    std::snprintf(line, sizeof line, "%8d %5d %5d %5d", 157, 32, p, q);
    EXPECT_NE(text.find(line), std::string::npos) << text;
    EXPECT_NE(text.find("PASSED"), std::string::npos);
    EXPECT_NE(text.find("T/V"), std::string::npos);
  }
}

// bf16 factors with TensorEngine trailing updates (sim) still pass HPL's check after GMRES-IR.
TEST(HplMxpMpi, SimBf16Passes) {
  trnsolver::mpi::HplMxpOptions o;
  o.n = 150;
  o.nb = 64;
  o.backend = trncore::Backend::sim;
  o.factor = trnsolver::FactorPrecision::bf16;
  double residual = -1;
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    const trnsolver::mpi::HplMxpResult r = trnsolver::mpi::hpl_mxp(g, o);
    EXPECT_TRUE(r.passed) << r.to_string();
    EXPECT_NE(r.to_string().find("WR_trnsci_sim_bf16"), std::string::npos) << r.to_string();
    if (residual >= 0) {
      EXPECT_EQ(r.scaled_residual, residual);  // the same solution bits on every grid
    }
    residual = r.scaled_residual;
  }
}

// With a target: certified bounds (normwise bound ≥ the true error vs dgesv), the condition estimate, met.
TEST(HplMxpMpi, SolveWithTargetIsCertified) {
  const std::int64_t n = 120, nb = 16;
  std::vector<double> a, b;
  trnsolver::hpl_mxp_system(n, 5, a, b);
  const std::vector<double> xg = dgesv(n, a, b);
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    const System s = make_system(g, n, nb, 5);
    std::vector<double> x(s.b.size(), 0.0);
    trnsolver::SolveOptions o;
    o.pivoting = false;
    o.target_forward_error = 1e-12;
    trnsolver::SolveReport r;
    trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o, r);
    EXPECT_TRUE(r.certified) << r.to_string();
    EXPECT_TRUE(r.met) << r.to_string();
    EXPECT_GT(r.condition_estimate, 0.0);
    EXPECT_LE(r.a_priori_bound, 1e-12);
    const std::vector<double> xd = gather_all(g, s.db, x.data());
    // The true error (dgesv's own error is ≤ 1e-15 here, far below the bound's scale) within the bound.
    EXPECT_LE(relative_difference(xd, xg), r.forward_error_bound_normwise + 1e-15) << r.to_string();
    EXPECT_TRUE(std::isfinite(r.backward_error_componentwise));
    // The no-report overload with the same target does not throw; without bounds it does (uncertified).
    std::vector<double> x2(s.b.size(), 0.0);
    EXPECT_NO_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x2.data()}, o));
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x2.data()}, hpl_rules()),
                 trncore::TargetNotMet);
  }
}

// A target no bound can meet: solved, bounded, not met; the no-report overload throws TargetNotMet on every rank.
// And bf16 factors on sim with a target (the bound's μ includes the TensorEngine's bf16 rounding).
TEST(HplMxpMpi, TargetsMetOrRefusedTogether) {
  const std::int64_t n = 90, nb = 12;
  std::vector<double> a, b;
  trnsolver::hpl_mxp_system(n, 8, a, b);
  const std::vector<double> xg = dgesv(n, a, b);
  double bound1 = -1;
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    const System s = make_system(g, n, nb, 8);
    std::vector<double> x(s.b.size(), 0.0);
    trnsolver::SolveOptions o;
    o.pivoting = false;
    o.target_forward_error = 1e-17;
    trnsolver::SolveReport r;
    trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o, r);
    EXPECT_TRUE(r.certified) << r.to_string();
    EXPECT_FALSE(r.met);
    EXPECT_GT(r.a_priori_bound, 1e-17);
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o),
                 trncore::TargetNotMet);
    o.backend = trncore::Backend::sim;
    o.factor = trnsolver::FactorPrecision::bf16;
    o.target_forward_error = 1e-10;
    std::vector<double> x2(s.b.size(), 0.0);
    trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x2.data()}, o, r);
    EXPECT_TRUE(r.met) << r.to_string();
    EXPECT_EQ(r.factor, trnsolver::FactorPrecision::bf16);
    const std::vector<double> xd = gather_all(g, s.db, x2.data());
    EXPECT_LE(relative_difference(xd, xg), r.forward_error_bound_normwise + 1e-15) << r.to_string();
    if (bound1 >= 0) {
      EXPECT_EQ(r.forward_error_bound_normwise, bound1);  // the same bits on every grid, the estimator's too
    }
    bound1 = r.forward_error_bound_normwise;
  }
}

// ScaLAPACK interop: a system laid out by ScaLAPACK descriptors (descinit's layout, converted with
// from_scalapack) is solved in place, and agrees with pdgesv on the same arrays within both residual bounds.
TEST(HplMxpMpi, AgreesWithScalapackPdgesv) {
  const std::int64_t n = 173, nb = 24;
  std::vector<double> a, b;
  trnsolver::hpl_mxp_system(n, 21, a, b);
  const double ainv = inverse_norm(n, a);
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    const System s = make_system(g, n, nb, 21);
    int ctxt = Csys2blacs_handle(g.comm().native());
    Cblacs_gridinit(&ctxt, "Row", p, q);
    const auto desca = tm::to_scalapack(s.da, ctxt), descb = tm::to_scalapack(s.db, ctxt);
    // Our solve on the ScaLAPACK descriptors.
    std::vector<double> x(s.b.size(), 0.0);
    trnsolver::SolveReport r;
    trnsolver::mpi::solve(g, {tm::from_scalapack(desca.data()), s.a.data()},
                          {tm::from_scalapack(descb.data()), s.b.data()}, {tm::from_scalapack(descb.data()), x.data()},
                          hpl_rules(), r);
    EXPECT_TRUE(r.converged) << r.to_string();
    // pdgesv on copies.
    std::vector<double> la = s.a, lb = s.b;
    std::vector<int> ipiv(static_cast<std::size_t>(tm::local_rows(s.da, g) + nb));
    const int ni = static_cast<int>(n), one = 1;
    int info = -1;
    pdgesv_(&ni, &one, la.data(), &one, &one, desca.data(), ipiv.data(), lb.data(), &one, &one, descb.data(), &info);
    EXPECT_EQ(info, 0);
    Cblacs_gridexit(ctxt);
    const std::vector<double> xd = gather_all(g, s.db, x.data()), xp = gather_all(g, s.db, lb.data());
    const double bd = residual_bound(n, a, b, xd, ainv), bp = residual_bound(n, a, b, xp, ainv);
    EXPECT_LE(relative_difference(xd, xp), (bd + bp) * (1 + 1e-6)) << p << "x" << q;
  }
}

// A monitor: called with the same values on every rank; a stop asked on one rank stops all (uncertified, the
// single-process semantics); a monitor set on one rank only is refused on every rank.
TEST(HplMxpMpi, MonitorStopsEveryRank) {
  const std::int64_t n = 64, nb = 8;
  const ProcessGrid g = ProcessGrid::square(world());
  const System s = make_system(g, n, nb, 4);
  std::vector<double> x(s.b.size(), 0.0);
  trnsolver::SolveOptions o = hpl_rules();
  std::vector<double> seen;
  o.monitor = [&](const trncore::Progress& p) {
    seen.push_back(p.residual);
    return world().rank() == 0 ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
  };
  trnsolver::SolveReport r;
  trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o, r);
  EXPECT_TRUE(r.stopped_by_monitor);
  EXPECT_FALSE(r.certified);
  EXPECT_NE(r.uncertified_reason.find("stopped by the monitor at refinement step 1"), std::string::npos)
      << r.uncertified_reason;
  ASSERT_EQ(seen.size(), 1u);
  double first = seen[0];
  world().broadcast(std::span<double>(&first, 1), 0);
  EXPECT_EQ(seen[0], first);  // the same progress value on every rank
  if (world().size() > 1) {
    trnsolver::SolveOptions one = hpl_rules();
    if (world().rank() == 0) one.monitor = [](const trncore::Progress&) { return trncore::MonitorAction::proceed; };
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, one),
                 trncore::DimensionMismatch);
  }
}

// Several right-hand sides (B n×3 in column blocks of 2) solved column by column, each as the single one.
TEST(HplMxpMpi, SeveralRightHandSides) {
  const std::int64_t n = 50, nb = 8, nrhs = 3;
  const ProcessGrid g = ProcessGrid::square(world());
  const System s = make_system(g, n, nb, 9);
  std::vector<double> a, b;
  trnsolver::hpl_mxp_system(n, 9, a, b);
  std::vector<double> bb(static_cast<std::size_t>(n * nrhs));
  for (std::int64_t c = 0; c < nrhs; ++c)
    for (std::int64_t i = 0; i < n; ++i)
      bb[static_cast<std::size_t>(i + c * n)] = b[static_cast<std::size_t>(i)] * (c + 1);
  const tm::Descriptor d = tm::make_descriptor(g, n, nrhs, nb, 2, 0, std::min(1, g.cols() - 1));
  std::vector<double> local = tm::scatter<double>(g, d, bb.data(), n, 0), x(local.size(), 0.0);
  trnsolver::SolveReport r;
  trnsolver::mpi::solve(g, {s.da, s.a.data()}, {d, local.data()}, {d, x.data()}, hpl_rules(), r);
  EXPECT_TRUE(r.converged) << r.to_string();
  const std::vector<double> xs = gather_all(g, d, x.data());
  const double ainv = inverse_norm(n, a);
  for (std::int64_t c = 0; c < nrhs; ++c) {
    const std::vector<double> xc(xs.begin() + c * n, xs.begin() + (c + 1) * n),
        bc(bb.begin() + c * n, bb.begin() + (c + 1) * n);
    EXPECT_LE(residual_bound(n, a, bc, xc, ainv), 1e-13) << c;
  }
}

// n = 1 (HPL-MxP's system is the singular [0] there: the zero pivot is reported, x not written) and a
// regular 1×1 system, on every grid (most ranks hold nothing).
TEST(HplMxpMpi, SolvesOrderOne) {
  for (const auto& [p, q] : grids()) {
    const ProcessGrid g(world(), p, q);
    const tm::Descriptor d = tm::make_descriptor(g, 1, 1, 4, 4);
    const bool mine = tm::local_rows(d, g) * tm::local_cols(d, g) > 0;
    double a = mine ? 4.0 : 0.0, b = mine ? 2.0 : 0.0, x = -1.0;
    trnsolver::SolveReport r;
    trnsolver::mpi::solve(g, {d, &a}, {d, &b}, {d, &x}, hpl_rules(), r);
    EXPECT_TRUE(r.converged) << r.to_string();
    if (mine) {
      EXPECT_EQ(x, 0.5);
    }
    const System s = make_system(g, 1, 4, 1);
    std::vector<double> x1(s.b.size(), -1.0);
    trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x1.data()}, hpl_rules(), r);
    EXPECT_FALSE(r.converged);
    EXPECT_FALSE(r.certified);
    EXPECT_NE(r.uncertified_reason.find("zero pivot at 1"), std::string::npos) << r.uncertified_reason;
    EXPECT_EQ(x1[0], -1.0);
  }
}

// Bad input on one rank: the same error on every rank, no hang.
TEST(HplMxpMpi, BadInputFailsOnEveryRank) {
  const ProcessGrid g = ProcessGrid::square(world());
  const int last = world().size() - 1;
  const System s = make_system(g, 40, 8, 1);
  std::vector<double> x(s.b.size(), 0.0);
  auto opts = hpl_rules();
  // A different n on the last rank (a DimensionMismatch naming the ranks; a plain mismatch on 1 rank is none).
  if (world().size() > 1) {
    tm::Descriptor da = s.da;
    if (world().rank() == last) da.m = da.n = 41;
    EXPECT_THROW(trnsolver::mpi::solve(g, {da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, opts),
                 trncore::DimensionMismatch);
    trnsolver::mpi::HplMxpOptions ho;
    ho.n = world().rank() == last ? 31 : 30;
    EXPECT_THROW(trnsolver::mpi::hpl_mxp(g, ho), trncore::DimensionMismatch);
  }
  // hpl_mxp_system with another n on the last rank, or n = 0.
  if (world().size() > 1) {
    tm::Descriptor da = s.da, db = s.db;
    if (world().rank() == last) da.m = da.n = db.m = 39;
    std::vector<double> a2 = s.a, b2 = s.b;
    EXPECT_THROW(trnsolver::mpi::hpl_mxp_system(g, {da, a2.data()}, {db, b2.data()}, 1), trncore::DimensionMismatch);
  }
  {
    const tm::Descriptor d0 = tm::make_descriptor(g, 0, 0, 8, 8), b0 = tm::make_descriptor(g, 0, 1, 8, 1);
    double dummy = 0;
    EXPECT_THROW(trnsolver::mpi::hpl_mxp_system(g, {d0, &dummy}, {b0, &dummy}, 1), trncore::InvalidArgument);
    // An empty system solves trivially (certified, nothing written).
    trnsolver::SolveReport r;
    EXPECT_EQ(trnsolver::mpi::solve(g, {d0, &dummy}, {b0, &dummy}, {b0, &dummy}, opts, r), 0);
    EXPECT_TRUE(r.converged);
  }
  // An lld too small on the last rank.
  {
    tm::Descriptor da = s.da;
    if (world().rank() == last) da.lld = 0;
    EXPECT_THROW(trnsolver::mpi::solve(g, {da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, opts),
                 trncore::DimensionMismatch);
  }
  // A NaN on rank 0 (which holds A(0, 0)).
  {
    std::vector<double> a = s.a;
    if (world().rank() == 0) a[0] = std::nan("");
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, opts),
                 trncore::InvalidArgument);
  }
  // Options the distributed solve does not offer, and the HPL rules' refusals.
  {
    auto o = opts;
    o.pivoting = true;
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o),
                 trncore::NotSupported);
    o = opts;
    o.refinement = trnsolver::Refinement::lu_ir;
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o),
                 trncore::NotSupported);
    o = opts;
    o.factor = trnsolver::FactorPrecision::bf16;  // host
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, s.b.data()}, {s.db, x.data()}, o),
                 trncore::InvalidArgument);
    trnsolver::mpi::HplMxpOptions ho;
    ho.n = 30;
    ho.target_forward_error = 1e-10;
    EXPECT_THROW(trnsolver::mpi::hpl_mxp(g, ho), trncore::NotSupported);
    ho.target_forward_error.reset();
    ho.nb = 0;
    EXPECT_THROW(trnsolver::mpi::hpl_mxp(g, ho), trncore::InvalidArgument);
  }
  // x sharing b's storage: found on the ranks that hold entries of b, raised on every rank.
  {
    std::vector<double> b2 = s.b;
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {s.db, b2.data()}, {s.db, b2.data()}, opts),
                 trncore::InvalidArgument);
  }
  // Mismatched B (different row blocking) on every rank.
  {
    const tm::Descriptor db = tm::make_descriptor(g, 40, 1, 4, 1);
    std::vector<double> b2(static_cast<std::size_t>(std::max<std::int64_t>(1, tm::local_size(db, g))), 1.0);
    EXPECT_THROW(trnsolver::mpi::solve(g, {s.da, s.a.data()}, {db, b2.data()}, {db, b2.data()}, opts),
                 trncore::DimensionMismatch);
  }
}

}  // namespace
