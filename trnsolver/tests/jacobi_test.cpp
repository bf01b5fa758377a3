// trnsolver::eigh_jacobi against LAPACK dsyevd in fp64 (random symmetric matrices) and against a separate
// textbook Jacobi written here in binary128 (graded matrices, where dsyevd is not accurate enough to be the
// oracle). The schedule is checked combinatorially.
#include <trnsolver/jacobi.hpp>

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using trncore::Layout;
using trnsolver::JacobiOptions;

__extension__ typedef __float128 Quad;

// √x in binary128 by Newton's iteration from the double root (each step doubles the correct bits).
Quad sqrt_quad(Quad x) {
  if (x <= 0) return 0;
  Quad y = std::sqrt(static_cast<double>(x));
  for (int i = 0; i < 3; ++i) y = (y + x / y) / 2;
  return y;
}

TEST(JacobiSchedule, EveryPairOncePerSweepInDisjointRounds) {
  for (std::int64_t n = 0; n <= 12; ++n) {
    const auto rounds = trnsolver::jacobi_schedule(n);
    EXPECT_EQ(static_cast<std::int64_t>(rounds.size()), n < 2 ? 0 : (n % 2 == 0 ? n - 1 : n)) << n;
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (const auto& round : rounds) {
      std::set<std::int64_t> used;
      EXPECT_EQ(static_cast<std::int64_t>(round.size()), n / 2) << n;
      for (const auto& [p, q] : round) {
        ASSERT_LT(p, q);
        ASSERT_GE(p, 0);
        ASSERT_LT(q, n);
        EXPECT_TRUE(used.insert(p).second && used.insert(q).second) << "index used twice in a round, n " << n;
        EXPECT_TRUE(seen.insert({p, q}).second) << "pair twice in a sweep, n " << n;
      }
    }
    EXPECT_EQ(static_cast<std::int64_t>(seen.size()), n * (n - 1) / 2) << n;
  }
  EXPECT_THROW(trnsolver::jacobi_schedule(-1), trncore::InvalidArgument);
}

std::vector<double> random_symmetric(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j)
      a[static_cast<std::size_t>(i * n + j)] = a[static_cast<std::size_t>(j * n + i)] = g(rng);
  return a;
}

// Residual ‖AV − VΛ‖_F/‖A‖_F, orthogonality ‖VᵀV − I‖_F, both in long double (row-major data).
template <class T>
std::pair<double, double> residuals(std::int64_t n, const std::vector<double>& a, const std::vector<T>& w,
                                    const std::vector<T>& v) {
  long double res = 0, orth = 0, an = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < n; ++k) {
      long double s = 0, o = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        s += static_cast<long double>(a[static_cast<std::size_t>(i * n + j)]) * v[static_cast<std::size_t>(j * n + k)];
        o += static_cast<long double>(v[static_cast<std::size_t>(j * n + i)]) * v[static_cast<std::size_t>(j * n + k)];
      }
      s -= static_cast<long double>(v[static_cast<std::size_t>(i * n + k)]) * w[static_cast<std::size_t>(k)];
      o -= i == k ? 1 : 0;
      res += s * s;
      orth += o * o;
      an += static_cast<long double>(a[static_cast<std::size_t>(i * n + k)]) * a[static_cast<std::size_t>(i * n + k)];
    }
  return {static_cast<double>(std::sqrt(res / an)), static_cast<double>(std::sqrt(orth))};
}

// Backward error, orthogonality and eigenvalues against dsyevd: all within c·n·u (c = 8 covers the
// rotations' rounding, Higham ASNA §19.x: each rotation is backward stable to a few u, and a Jacobi sweep
// count of ~10 is absorbed in the constant at these sizes); eigenvalues by Weyl: |Δλ| ≤ ‖ΔA‖₂.
TEST(EighJacobi, MatchesLapackOnRandomSymmetricMatrices) {
  for (const std::int64_t n : {1, 2, 3, 17, 64, 129})
    for (const bool sim : {false, true})
      for (const Layout layout : {Layout::row_major, Layout::col_major}) {
        const auto a = random_symmetric(n, static_cast<std::uint64_t>(n));
        std::vector<double> ref = a, wref(static_cast<std::size_t>(n));
        ASSERT_EQ(0, LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'L', static_cast<lapack_int>(n), ref.data(),
                                    static_cast<lapack_int>(n), wref.data()));
        JacobiOptions o;
        if (sim) o.backend = trncore::Backend::sim;
        std::vector<double> w(static_cast<std::size_t>(n)), v(static_cast<std::size_t>(n * n));
        // The symmetric input is its own transpose: either layout reads the same matrix.
        const auto r = trnsolver::eigh_jacobi<double>(layout, n, a.data(), n, w.data(), v.data(), n, o);
        EXPECT_TRUE(r.converged) << n;
        std::vector<double> vr = v;  // row-major copy of V for the residual check
        if (layout == Layout::col_major)
          for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t k = 0; k < n; ++k)
              vr[static_cast<std::size_t>(i * n + k)] = v[static_cast<std::size_t>(i + k * n)];
        const double u = sim ? 0x1p-24 : 0x1p-53, tol = 8.0 * static_cast<double>(std::max<std::int64_t>(n, 2)) * u;
        const auto [res, orth] = residuals<double>(n, a, w, vr);
        // The c·n·u bounds are for 2-norms; these are Frobenius norms, up to √n larger.
        const double frobenius = tol * std::sqrt(static_cast<double>(n));
        EXPECT_LE(res, frobenius) << "n " << n << " sim " << sim;
        EXPECT_LE(orth, frobenius) << "n " << n << " sim " << sim;
        double anorm = 0;
        for (double x : wref) anorm = std::max(anorm, std::abs(x));
        for (std::int64_t k = 0; k < n; ++k)
          EXPECT_LE(std::abs(w[static_cast<std::size_t>(k)] - wref[static_cast<std::size_t>(k)]),
                    tol * anorm * std::sqrt(static_cast<double>(n)))
              << "n " << n << " k " << k << " sim " << sim;
        if (sim) {
          ASSERT_TRUE(r.cost.has_value());
          if (n >= 2) {
            EXPECT_GT(r.cost->stats[trncore::sim::Engine::vector].instructions, 0);
          }
        } else {
          EXPECT_FALSE(r.cost.has_value());
        }
      }
}

// The Householder-tridiagonal + QL path: the same checks as Jacobi against dsyevd (backward error and
// orthogonality c·n·u in the 2-norm, √n more in Frobenius; eigenvalues by Weyl), both backends and layouts,
// plus a values-only run that must give the same eigenvalues.
TEST(EighTridiagonalQl, MatchesLapackOnRandomSymmetricMatrices) {
  for (const std::int64_t n : {1, 2, 3, 17, 64, 129})
    for (const bool sim : {false, true})
      for (const Layout layout : {Layout::row_major, Layout::col_major}) {
        const auto a = random_symmetric(n, static_cast<std::uint64_t>(n) + 40);
        std::vector<double> ref = a, wref(static_cast<std::size_t>(n));
        ASSERT_EQ(0, LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'L', static_cast<lapack_int>(n), ref.data(),
                                    static_cast<lapack_int>(n), wref.data()));
        JacobiOptions o;
        if (sim) o.backend = trncore::Backend::sim;
        std::vector<double> w(static_cast<std::size_t>(n)), v(static_cast<std::size_t>(n * n)), w2(w.size());
        const auto r = trnsolver::eigh_tridiagonal_ql<double>(layout, n, a.data(), n, w.data(), v.data(), n, o);
        EXPECT_TRUE(r.converged) << n;
        EXPECT_EQ(r.cost.has_value(), sim);
        std::vector<double> vr = v;
        if (layout == Layout::col_major)
          for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t k = 0; k < n; ++k)
              vr[static_cast<std::size_t>(i * n + k)] = v[static_cast<std::size_t>(i + k * n)];
        const double u = sim ? 0x1p-24 : 0x1p-53, tol = 8.0 * static_cast<double>(std::max<std::int64_t>(n, 2)) * u;
        const auto [res, orth] = residuals<double>(n, a, w, vr);
        EXPECT_LE(res, tol * std::sqrt(static_cast<double>(n))) << "n " << n << " sim " << sim;
        EXPECT_LE(orth, tol * std::sqrt(static_cast<double>(n))) << "n " << n << " sim " << sim;
        double anorm = 0;
        for (double x : wref) anorm = std::max(anorm, std::abs(x));
        for (std::int64_t k = 0; k < n; ++k)
          EXPECT_LE(std::abs(w[static_cast<std::size_t>(k)] - wref[static_cast<std::size_t>(k)]),
                    tol * anorm * std::sqrt(static_cast<double>(n)))
              << "n " << n << " k " << k;
        o.vectors = false;
        trnsolver::eigh_tridiagonal_ql<double>(layout, n, a.data(), n, w2.data(), nullptr, n, o);
        EXPECT_EQ(w, w2) << "values-only run differs, n " << n;
      }
}

// Quadratic convergence (Golub–Van Loan §8.5.3): once off(A) is small, each sweep roughly squares it.
TEST(EighJacobi, ConvergesQuadratically) {
  const std::int64_t n = 40;
  const auto a = random_symmetric(n, 99);
  std::vector<double> w(static_cast<std::size_t>(n));
  JacobiOptions o;
  o.vectors = false;
  const auto r = trnsolver::eigh_jacobi<double>(Layout::row_major, n, a.data(), n, w.data(), nullptr, n, o);
  ASSERT_TRUE(r.converged);
  const auto& h = r.off_history;
  bool checked = false;
  for (std::size_t k = 0; k + 1 < h.size(); ++k)
    if (h[k] < 1e-3 && h[k] > 1e-12) {
      EXPECT_LE(h[k + 1], 10.0 * h[k] * h[k] + 1e-15) << "sweep " << k;
      checked = true;
    }
  EXPECT_TRUE(checked) << "no sweep in the asymptotic range";
  EXPECT_LE(r.sweeps, 15);
}

// A textbook classical Jacobi (largest off-diagonal entry first) in binary128: the eigenvalues of the
// stored matrix to ~1e-33 absolutely, i.e. to full double relative accuracy down to ~1e-17·‖A‖ and
// proportionally beyond; the graded spectra below stay above 1e-22 of ‖A‖ only where this matters.
std::vector<Quad> quad_eigenvalues(std::int64_t n, const std::vector<double>& a) {
  std::vector<Quad> m(a.begin(), a.end());
  const auto at = [&](std::int64_t i, std::int64_t j) -> Quad& { return m[static_cast<std::size_t>(i * n + j)]; };
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::int64_t p = 0, q = 1;
    Quad best = -1;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = i + 1; j < n; ++j) {
        // Relative size, so tiny graded entries are also driven to (relative) zero.
        const Quad rel = (at(i, j) < 0 ? -at(i, j) : at(i, j)) /
                         sqrt_quad((at(i, i) < 0 ? -at(i, i) : at(i, i)) * (at(j, j) < 0 ? -at(j, j) : at(j, j)));
        if (rel > best) {
          best = rel;
          p = i;
          q = j;
        }
      }
    if (best < static_cast<Quad>(1e-33)) break;
    const Quad tau = (at(q, q) - at(p, p)) / (2 * at(p, q));
    const Quad t = (tau >= 0 ? 1 : -1) / ((tau < 0 ? -tau : tau) + sqrt_quad(1 + tau * tau));
    const Quad c = 1 / sqrt_quad(1 + t * t), s = t * c;
    for (std::int64_t k = 0; k < n; ++k) {
      const Quad x = at(p, k), y = at(q, k);
      at(p, k) = c * x - s * y;
      at(q, k) = s * x + c * y;
    }
    for (std::int64_t k = 0; k < n; ++k) {
      const Quad x = at(k, p), y = at(k, q);
      at(k, p) = c * x - s * y;
      at(k, q) = s * x + c * y;
    }
  }
  std::vector<Quad> w(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] = at(i, i);
  std::sort(w.begin(), w.end());
  return w;
}

// Graded SPD A = D·H·D, H = I + a small symmetric perturbation (κ(H) < 3), D = diag(10^-j): eigenvalues from
// 1 down to about 10^-20. Jacobi keeps every one to relative accuracy c·n·u·κ(H) (Demmel–Veselić); dsyevd's
// absolute accuracy u·‖A‖ leaves the smallest ones with no correct digit (checked, as the reason for the
// binary128 oracle).
TEST(EighJacobi, GradedMatricesToRelativeAccuracy) {
  const std::int64_t n = 10;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> d(-0.05, 0.05);
  std::vector<double> a(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      const double h = i == j ? 1.0 : d(rng);
      // Graded upward (largest entries at the bottom right), the direction tridiagonal reduction handles badly.
      a[static_cast<std::size_t>(i * n + j)] = a[static_cast<std::size_t>(j * n + i)] =
          h * std::pow(10.0, -static_cast<double>((n - 1 - i) + (n - 1 - j)));
    }
  const auto exact = quad_eigenvalues(n, a);
  std::vector<double> w(static_cast<std::size_t>(n));
  JacobiOptions o;
  o.vectors = false;
  const auto r = trnsolver::eigh_jacobi<double>(Layout::row_major, n, a.data(), n, w.data(), nullptr, n, o);
  ASSERT_TRUE(r.converged);
  const double bound = 10.0 * static_cast<double>(n) * 0x1p-53 * 3.0;
  for (std::int64_t k = 0; k < n; ++k) {
    const double e = static_cast<double>(exact[static_cast<std::size_t>(k)]);
    EXPECT_LE(std::abs(w[static_cast<std::size_t>(k)] - e) / e, bound) << "k " << k << " lambda " << e;
  }
  std::vector<double> lapack = a, wl(static_cast<std::size_t>(n));
  ASSERT_EQ(0, LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'L', static_cast<lapack_int>(n), lapack.data(),
                              static_cast<lapack_int>(n), wl.data()));
  const double smallest = static_cast<double>(exact[0]);
  EXPECT_GT(std::abs(wl[0] - smallest) / smallest, 1e-6) << "dsyevd was accurate after all: the test lost its point";
}

// The sim backend's rounds are split over threads for n ≥ 256; the result must not depend on the count.
TEST(EighJacobi, SimResultIsIdenticalForOneAndTwoThreads) {
  const std::int64_t n = 260;
  const auto a = random_symmetric(n, 5);
  std::vector<double> w1(static_cast<std::size_t>(n)), w2(w1.size()), v1(static_cast<std::size_t>(n * n)),
      v2(v1.size());
  JacobiOptions o;
  o.backend = trncore::Backend::sim;
  o.max_sweeps = 3;  // enough to exercise the threaded rounds; bit-identity does not need convergence
  o.threads = 1;
  const auto r1 = trnsolver::eigh_jacobi<double>(Layout::row_major, n, a.data(), n, w1.data(), v1.data(), n, o);
  o.threads = 2;
  const auto r2 = trnsolver::eigh_jacobi<double>(Layout::row_major, n, a.data(), n, w2.data(), v2.data(), n, o);
  EXPECT_EQ(w1, w2);
  EXPECT_EQ(v1, v2);
  EXPECT_EQ(r1.off_history, r2.off_history);
}

TEST(EighJacobi, BadArgumentsThrow) {
  std::vector<double> a(9, 1.0), w(3), v(9);
  EXPECT_THROW(trnsolver::eigh_jacobi<double>(Layout::row_major, -1, a.data(), 3, w.data(), v.data(), 3),
               trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::eigh_jacobi<double>(Layout::row_major, 3, a.data(), 2, w.data(), v.data(), 3),
               trncore::DimensionMismatch);
  a[3] = std::nan("");
  try {
    trnsolver::eigh_jacobi<double>(Layout::row_major, 3, a.data(), 3, w.data(), v.data(), 3);
    ADD_FAILURE() << "NaN accepted";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("trnsolver::eigh_jacobi"), std::string::npos);
  }
  JacobiOptions o;
  o.max_sweeps = 0;
  a[3] = 1.0;
  EXPECT_THROW(trnsolver::eigh_jacobi<double>(Layout::row_major, 3, a.data(), 3, w.data(), v.data(), 3, o),
               trncore::InvalidArgument);
  // Enum values outside their enumerators and negative thread counts (issue #18), for both eigensolvers.
  EXPECT_THROW(trnsolver::eigh_jacobi<double>(static_cast<Layout>(9), 3, a.data(), 3, w.data(), v.data(), 3),
               trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::eigh_tridiagonal_ql<double>(static_cast<Layout>(9), 3, a.data(), 3, w.data(), v.data(), 3),
               trncore::InvalidArgument);
  JacobiOptions neg;
  neg.threads = -1;
  EXPECT_THROW(trnsolver::eigh_jacobi<double>(Layout::row_major, 3, a.data(), 3, w.data(), v.data(), 3, neg),
               trncore::InvalidArgument);
  JacobiOptions bad_backend;
  bad_backend.backend = static_cast<trncore::Backend>(4);
  EXPECT_THROW(trnsolver::eigh_jacobi<double>(Layout::row_major, 3, a.data(), 3, w.data(), v.data(), 3, bad_backend),
               trncore::InvalidArgument);
  // A target the eigensolvers cannot certify is refused, not silently ignored (the certificate contract).
  JacobiOptions target;
  target.target_forward_error = 1e-10;
  EXPECT_THROW(trnsolver::eigh_jacobi<double>(Layout::row_major, 3, a.data(), 3, w.data(), v.data(), 3, target),
               trncore::NotSupported);
  EXPECT_THROW(trnsolver::eigh_tridiagonal_ql<double>(Layout::row_major, 3, a.data(), 3, w.data(), v.data(), 3, target),
               trncore::NotSupported);
  // n = 0 is a valid empty problem.
  EXPECT_NO_THROW(trnsolver::eigh_jacobi<double>(Layout::row_major, 0, a.data(), 1, w.data(), v.data(), 1));
}

}  // namespace
