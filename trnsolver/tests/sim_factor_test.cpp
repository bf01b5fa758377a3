// getrf and potrf with Options::backend = sim: the reconstruction P·L·U (L·Lᵀ) against A, computed in double,
// within the bound of the arithmetic that ran — fp32 panels γ_{n+1}(u₃₂), plus the trailing updates' single-pass
// product bound ε = (1+u_in)²(1+u_p)(1+γ_128(u₃₂)) − 1 relative to |L||U| (docs/trnblas-sim.md; trn2's default
// product model rounds products to bf16, u_p = 2^-8, and bf16 inputs have u_in = 2^-8, fp32 ones 0) — in both
// layouts and both triangles; one and two threads give the same bits; what the sim backend lacks throws.
#include <trnsolver/dense.hpp>

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using trnblas::Uplo;
using trncore::Layout;

trncore::Options sim(trncore::MathMode mode, int threads) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.math_mode = mode;
  o.threads = threads;
  return o;
}

double bound(trncore::MathMode mode, std::int64_t n) {
  const double g = (n + 1) * 0x1p-24 / (1 - (n + 1) * 0x1p-24);
  const double u_in = mode == trncore::MathMode::bf16 ? 0x1p-8 : 0.0, u_p = 0x1p-8;
  const double eps = (1 + u_in) * (1 + u_in) * (1 + u_p) * (1 + 128 * 0x1p-24 / (1 - 128 * 0x1p-24)) - 1;
  return g + eps;
}

TEST(SimFactor, GetrfReconstructsWithinItsBound) {
  for (const std::int64_t n : {1, 5, 129, 200})
    for (const Layout layout : {Layout::row_major, Layout::col_major})
      for (const auto mode : {trncore::MathMode::fp32, trncore::MathMode::bf16}) {
        std::mt19937_64 rng(static_cast<std::uint64_t>(n));
        std::uniform_real_distribution<float> d(-1, 1);
        std::vector<float> a(static_cast<std::size_t>(n * n));
        for (float& v : a) v = d(rng);
        const auto at = [&](const std::vector<float>& m, std::int64_t i, std::int64_t j) {
          return static_cast<double>(layout == Layout::row_major ? m[static_cast<std::size_t>(i * n + j)]
                                                                 : m[static_cast<std::size_t>(i + j * n)]);
        };
        std::vector<float> lu = a, lu2 = a;
        std::vector<std::int64_t> piv(static_cast<std::size_t>(n)), piv2(piv.size());
        ASSERT_EQ(0, trnsolver::getrf<float>(layout, n, n, lu.data(), n, piv.data(), sim(mode, 1)));
        ASSERT_EQ(0, trnsolver::getrf<float>(layout, n, n, lu2.data(), n, piv2.data(), sim(mode, 2)));
        EXPECT_EQ(lu, lu2);
        EXPECT_EQ(piv, piv2);
        // P·A: the interchanges applied in order to A's rows.
        std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
        for (std::int64_t i = 0; i < n; ++i)
          std::swap(perm[static_cast<std::size_t>(i)],
                    perm[static_cast<std::size_t>(piv[static_cast<std::size_t>(i)] - 1)]);
        double worst = 0;
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            double s = 0, m = 0;
            for (std::int64_t k = 0; k <= std::min(i, j); ++k) {
              const double p = (k == i ? 1.0 : at(lu, i, k)) * at(lu, k, j);
              s += p;
              m += std::abs(p);
            }
            worst = std::max(worst, std::abs(s - at(a, perm[static_cast<std::size_t>(i)], j)) / m);
          }
        EXPECT_LE(worst, bound(mode, n)) << "n " << n << " layout " << trncore::to_string(layout) << " mode "
                                         << trncore::to_string(mode);
      }
}

TEST(SimFactor, PotrfReconstructsWithinItsBoundForBothTriangles) {
  const std::int64_t n = 150;
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> g(static_cast<std::size_t>(n * n));
  for (double& v : g) v = d(rng);
  std::vector<float> a(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = i == j ? 2.0 : 0.0;
      for (std::int64_t k = 0; k < n; ++k)
        s += g[static_cast<std::size_t>(i * n + k)] * g[static_cast<std::size_t>(j * n + k)] / n;
      a[static_cast<std::size_t>(i * n + j)] = static_cast<float>(s);  // exactly symmetric (same sum order)
    }
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const Uplo uplo : {Uplo::lower, Uplo::upper})
      for (const auto mode : {trncore::MathMode::fp32, trncore::MathMode::bf16}) {
        std::vector<float> f = a;
        ASSERT_EQ(0, trnsolver::potrf<float>(layout, uplo, n, f.data(), n, sim(mode, 2)));
        // L(i, k) of the factor, whichever triangle and layout hold it.
        const auto l = [&](std::int64_t i, std::int64_t k) -> double {
          const std::int64_t r = uplo == Uplo::lower ? i : k, c = uplo == Uplo::lower ? k : i;
          return f[static_cast<std::size_t>(layout == Layout::row_major ? r * n + c : r + c * n)];
        };
        double worst = 0;
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j <= i; ++j) {
            double s = 0, m = 0;
            for (std::int64_t k = 0; k <= j; ++k) {
              s += l(i, k) * l(j, k);
              m += std::abs(l(i, k) * l(j, k));
            }
            worst = std::max(worst, std::abs(s - a[static_cast<std::size_t>(i * n + j)]) / m);
          }
        EXPECT_LE(worst, bound(mode, n)) << trncore::to_string(layout) << " " << trnblas::to_string(uplo);
      }
  // Not positive definite: info, no exception.
  std::vector<float> bad{1, 2, 2, 1};
  EXPECT_EQ(2,
            trnsolver::potrf<float>(Layout::row_major, Uplo::lower, 2, bad.data(), 2, sim(trncore::MathMode::fp32, 1)));
}

// syevd (and eigh) on sim: cyclic Jacobi in fp32. Eigenvalues within c·n·u₃₂·‖A‖ of LAPACK's dsyevd on the
// same matrix (Weyl), eigenvectors orthonormal and A·z = λ·z to c·n·u₃₂ (c = 8, as the Jacobi tests), for both
// layouts and triangles (the other triangle holds NaN: it must not be read).
TEST(SimFactor, SyevdByJacobi) {
  const std::int64_t n = 60;
  std::mt19937_64 rng(4);
  std::normal_distribution<double> g;
  std::vector<double> sym(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j)
      sym[static_cast<std::size_t>(i * n + j)] = sym[static_cast<std::size_t>(j * n + i)] = static_cast<float>(g(rng));
  std::vector<double> ref = sym, wref(static_cast<std::size_t>(n));
  ASSERT_EQ(0, trnsolver::syevd<double>(Layout::row_major, trnsolver::EigJob::values_only, Uplo::lower, n, ref.data(),
                                        n, wref.data()));
  double anorm = 0;
  for (double x : wref) anorm = std::max(anorm, std::abs(x));
  const double tol = 8.0 * n * 0x1p-24;
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const Uplo uplo : {Uplo::lower, Uplo::upper}) {
      std::vector<float> a(sym.size());
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          const bool referenced = uplo == Uplo::lower ? i >= j : i <= j;
          a[static_cast<std::size_t>(layout == Layout::row_major ? i * n + j : i + j * n)] =
              referenced ? static_cast<float>(sym[static_cast<std::size_t>(i * n + j)]) : std::nanf("");
        }
      std::vector<float> w(static_cast<std::size_t>(n));
      ASSERT_EQ(0, trnsolver::syevd<float>(layout, trnsolver::EigJob::vectors, uplo, n, a.data(), n, w.data(),
                                           sim(trncore::MathMode::automatic, 2)));
      for (std::int64_t k = 0; k < n; ++k)
        EXPECT_LE(std::abs(w[static_cast<std::size_t>(k)] - wref[static_cast<std::size_t>(k)]), tol * anorm) << k;
      // Column k of the stored matrix is the eigenvector of w[k].
      const auto z = [&](std::int64_t i, std::int64_t k) -> double {
        return a[static_cast<std::size_t>(layout == Layout::row_major ? i * n + k : i + k * n)];
      };
      double res = 0, orth = 0;
      for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t i = 0; i < n; ++i) {
          double s = -static_cast<double>(w[static_cast<std::size_t>(k)]) * z(i, k), o = i == k ? -1.0 : 0.0;
          for (std::int64_t j = 0; j < n; ++j) {
            s += sym[static_cast<std::size_t>(i * n + j)] * z(j, k);
            o += z(j, i) * z(j, k);
          }
          res = std::max(res, std::abs(s));
          orth = std::max(orth, std::abs(o));
        }
      EXPECT_LE(res, tol * anorm) << trncore::to_string(layout) << " " << trnblas::to_string(uplo);
      EXPECT_LE(orth, tol) << trncore::to_string(layout) << " " << trnblas::to_string(uplo);
    }
  std::vector<double> d(16, 1.0), wd(4);
  EXPECT_THROW(trnsolver::syevd<double>(Layout::row_major, trnsolver::EigJob::vectors, Uplo::lower, 4, d.data(), 4,
                                        wd.data(), sim(trncore::MathMode::automatic, 1)),
               trncore::NotSupported);
}

// geqrf on sim: LAPACK's format, so the host orgqr forms Q from it. Checked with LAPACK's own test ratios
// (dqrt01: ‖A − Q·R‖₁/(m·‖A‖₁·u) and ‖I − QᵀQ‖₁/(m·u), threshold 30, TESTING/dtest.in), u the unit roundoff of
// the arithmetic that ran: u₃₂ for fp32 TensorEngine updates under exact products, and for bf16 updates the
// single-pass bound ε = (1+2^-8)³(1+γ_128) − 1 of the GEMMs (bf16 inputs, bf16-rounded products). Q's
// orthogonality depends only on the fp32 reflectors, so it is held to u₃₂ in both modes.
TEST(SimFactor, GeqrfPassesLapackTestRatios) {
  struct Shape {
    std::int64_t m, n;
  };
  for (const Shape sh : {Shape{1, 1}, Shape{5, 3}, Shape{129, 129}, Shape{300, 200}, Shape{200, 300}})
    for (const Layout layout : {Layout::row_major, Layout::col_major})
      for (const bool bf16 : {false, true}) {
        const std::int64_t m = sh.m, n = sh.n, k = std::min(m, n);
        std::mt19937_64 rng(static_cast<std::uint64_t>(m * 1000 + n));
        std::uniform_real_distribution<float> d(-1, 1);
        std::vector<float> a(static_cast<std::size_t>(m * n));
        for (float& v : a) v = d(rng);
        const std::int64_t lda = layout == Layout::row_major ? n : m;
        const auto at = [&](const std::vector<float>& x, std::int64_t i, std::int64_t j, std::int64_t ld) -> double {
          return x[static_cast<std::size_t>(layout == Layout::row_major ? i * ld + j : i + j * ld)];
        };
        trncore::Options o = sim(bf16 ? trncore::MathMode::bf16 : trncore::MathMode::fp32, 2);
        if (!bf16) o.product = trncore::sim::ProductModel::exact;
        std::vector<float> qr = a, tau(static_cast<std::size_t>(k));
        trnsolver::geqrf<float>(layout, m, n, qr.data(), lda, tau.data(), o);
        std::vector<float> qr1 = a, tau1(tau.size());
        o.threads = 1;
        trnsolver::geqrf<float>(layout, m, n, qr1.data(), lda, tau1.data(), o);
        EXPECT_EQ(qr, qr1);
        // Q (m×k) from the reflectors by the host orgqr, R = the upper trapezoid.
        const std::int64_t ldq = layout == Layout::row_major ? k : m;
        std::vector<float> q(static_cast<std::size_t>(m * k));
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < k; ++j)
            q[static_cast<std::size_t>(layout == Layout::row_major ? i * ldq + j : i + j * ldq)] =
                static_cast<float>(at(qr, i, j, lda));
        trnsolver::orgqr<float>(layout, m, k, k, q.data(), ldq, tau.data());
        double anorm = 0, res = 0, orth = 0;
        for (std::int64_t j = 0; j < n; ++j) {
          double colsum = 0, rescol = 0;
          for (std::int64_t i = 0; i < m; ++i) {
            double s = 0;
            for (std::int64_t p = 0; p <= std::min(j, k - 1); ++p) s += at(q, i, p, ldq) * at(qr, p, j, lda);
            colsum += std::abs(at(a, i, j, lda));
            rescol += std::abs(at(a, i, j, lda) - s);
          }
          anorm = std::max(anorm, colsum);
          res = std::max(res, rescol);
        }
        for (std::int64_t j = 0; j < k; ++j) {
          double col = 0;
          for (std::int64_t i = 0; i < k; ++i) {
            double s = i == j ? -1.0 : 0.0;
            for (std::int64_t p = 0; p < m; ++p) s += at(q, p, i, ldq) * at(q, p, j, ldq);
            col += std::abs(s);
          }
          orth = std::max(orth, col);
        }
        const double u32 = 0x1p-24;
        const double u = bf16 ? (1 + 0x1p-8) * (1 + 0x1p-8) * (1 + 0x1p-8) * (1 + 128 * u32) - 1 : u32;
        const std::string what = std::to_string(m) + "x" + std::to_string(n) + " " +
                                 std::string(trncore::to_string(layout)) + (bf16 ? " bf16" : " fp32");
        EXPECT_LT(res / (static_cast<double>(m) * anorm * u), 30.0) << what;
        EXPECT_LT(orth / (static_cast<double>(m) * u32), 30.0) << what;
      }
}

// inv_sqrt_spd on sim (float): Cholesky test and eigensolver on the model, Newton–Schulz's products as sim
// GEMMs. With the automatic GEMM mode (compensated: fp32-level products) the residual ‖XAX − I‖_F/√n stays
// within 10·n·u₃₂·κ₂(A) (the host bound of the same algorithms: eigenvectors to n·u, the smallest eigenvalue to
// n·u·κ relative); with bf16 products the quadratic phase stops at the bf16 level, so only a residual below
// 10·ε_bf16·κ is asserted there, and convergence of the iteration.
TEST(SimFactor, InvSqrtSpdBothMethods) {
  const std::int64_t n = 40;
  const double kappa = 100.0;
  std::mt19937_64 rng(6);
  std::normal_distribution<double> g;
  std::vector<double> q(static_cast<std::size_t>(n * n));
  for (double& v : q) v = g(rng);
  // A = Q·diag(σ)·Qᵀ with Q from Gram–Schmidt in double and σ geometric in [1/κ, 1].
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t p = 0; p < j; ++p) {
      double d = 0;
      for (std::int64_t i = 0; i < n; ++i)
        d += q[static_cast<std::size_t>(i * n + j)] * q[static_cast<std::size_t>(i * n + p)];
      for (std::int64_t i = 0; i < n; ++i)
        q[static_cast<std::size_t>(i * n + j)] -= d * q[static_cast<std::size_t>(i * n + p)];
    }
    double nn = 0;
    for (std::int64_t i = 0; i < n; ++i)
      nn += q[static_cast<std::size_t>(i * n + j)] * q[static_cast<std::size_t>(i * n + j)];
    for (std::int64_t i = 0; i < n; ++i) q[static_cast<std::size_t>(i * n + j)] /= std::sqrt(nn);
  }
  std::vector<float> a(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      double s = 0;
      for (std::int64_t k = 0; k < n; ++k)
        s += q[static_cast<std::size_t>(i * n + k)] * std::pow(kappa, -static_cast<double>(k) / (n - 1)) *
             q[static_cast<std::size_t>(j * n + k)];
      a[static_cast<std::size_t>(i * n + j)] = a[static_cast<std::size_t>(j * n + i)] = static_cast<float>(s);
    }
  for (const auto method : {trnsolver::InvSqrtMethod::eigh, trnsolver::InvSqrtMethod::newton_schulz})
    for (const auto mode : {trncore::MathMode::automatic, trncore::MathMode::bf16}) {
      trnsolver::InvSqrtOptions o;
      static_cast<trncore::Options&>(o) = sim(mode, 2);
      o.method = method;
      std::vector<float> x(a.size());
      const auto r = trnsolver::inv_sqrt_spd<float>(Layout::row_major, n, a.data(), n, x.data(), n, o);
      const std::string what = std::string(trnsolver::to_string(method)) + " " + std::string(trncore::to_string(mode));
      EXPECT_EQ(r.info, 0) << what;
      EXPECT_TRUE(r.converged) << what;
      const double eps = mode == trncore::MathMode::bf16 ? (1 + 0x1p-8) * (1 + 0x1p-8) * (1 + 0x1p-8) - 1 : n * 0x1p-24;
      EXPECT_LE(r.residual, 10.0 * eps * kappa) << what;
    }
}

// sygvd on sim: A·z = λ·B·z with eigenvalues within c·n·u₃₂·‖A‖₂‖B⁻¹‖₂ of LAPACK dsygvd (the reduced problem's
// Weyl bound; c = 8 as the Jacobi tests), ZᵀBZ = I and A·Z − B·Z·Λ to c·n·u₃₂·κ(B) relative, both layouts and
// triangles; a B that is not positive definite gives info = n + i (as LAPACK).
TEST(SimFactor, SygvdByCholeskyAndJacobi) {
  const std::int64_t n = 50;
  std::mt19937_64 rng(12);
  std::normal_distribution<double> g;
  std::vector<double> a(static_cast<std::size_t>(n * n)), b(a.size());
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      a[static_cast<std::size_t>(i * n + j)] = a[static_cast<std::size_t>(j * n + i)] = static_cast<float>(g(rng));
      b[static_cast<std::size_t>(i * n + j)] = b[static_cast<std::size_t>(j * n + i)] =
          static_cast<float>((i == j ? 4.0 : 0.0) + 0.1 * g(rng));  // SPD, κ(B) ≈ 2
    }
  std::vector<double> ar = a, br = b, wref(static_cast<std::size_t>(n));
  ASSERT_EQ(0, trnsolver::sygvd<double>(Layout::row_major, trnsolver::EigJob::values_only, Uplo::lower, n, ar.data(), n,
                                        br.data(), n, wref.data()));
  double anorm = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::int64_t j = 0; j < n; ++j) s += std::abs(a[static_cast<std::size_t>(i * n + j)]);
    anorm = std::max(anorm, s);
  }
  const double tol = 8.0 * n * 0x1p-24;
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const Uplo uplo : {Uplo::lower, Uplo::upper}) {
      std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end()), w(static_cast<std::size_t>(n));  // symmetric
      ASSERT_EQ(0, trnsolver::sygvd<float>(layout, trnsolver::EigJob::vectors, uplo, n, af.data(), n, bf.data(), n,
                                           w.data(), sim(trncore::MathMode::automatic, 2)));
      for (std::int64_t k = 0; k < n; ++k)
        EXPECT_LE(std::abs(w[static_cast<std::size_t>(k)] - wref[static_cast<std::size_t>(k)]), tol * anorm) << k;
      const auto z = [&](std::int64_t i, std::int64_t k) -> double {
        return af[static_cast<std::size_t>(layout == Layout::row_major ? i * n + k : i + k * n)];
      };
      double orth = 0, res = 0;
      for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t p = 0; p < n; ++p) {
          double zbz = p == k ? -1.0 : 0.0;
          for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j) zbz += z(i, p) * b[static_cast<std::size_t>(i * n + j)] * z(j, k);
          orth = std::max(orth, std::abs(zbz));
        }
      for (std::int64_t k = 0; k < n; ++k)
        for (std::int64_t i = 0; i < n; ++i) {
          double s = 0;
          for (std::int64_t j = 0; j < n; ++j)
            s += (a[static_cast<std::size_t>(i * n + j)] -
                  w[static_cast<std::size_t>(k)] * b[static_cast<std::size_t>(i * n + j)]) *
                 z(j, k);
          res = std::max(res, std::abs(s));
        }
      EXPECT_LE(orth, tol * 4) << trncore::to_string(layout) << " " << trnblas::to_string(uplo);
      EXPECT_LE(res, tol * 4 * anorm) << trncore::to_string(layout) << " " << trnblas::to_string(uplo);
    }
  std::vector<float> a2(4, 1.0f), b2{1, 2, 2, 1}, w2(2);
  EXPECT_EQ(4, trnsolver::sygvd<float>(Layout::row_major, trnsolver::EigJob::vectors, Uplo::lower, 2, a2.data(), 2,
                                       b2.data(), 2, w2.data(), sim(trncore::MathMode::automatic, 1)));
}

// gesdd/svd on sim (one-sided Jacobi): singular values within c·max(m,n)·u₃₂·σ₁ of LAPACK dgesdd on the same
// matrix (c = 8; Weyl's bound for singular values with the backward error of fp32 rotations), U and V
// orthonormal and A = U·Σ·Vᵀ to that level, for tall, wide, square and rank-deficient inputs in both layouts;
// the thin factors are bitwise the same for one and two threads.
TEST(SimFactor, GesddByOneSidedJacobi) {
  struct Shape {
    std::int64_t m, n;
    bool rank_deficient;
  };
  for (const Shape sh : {Shape{1, 1, false}, Shape{7, 3, false}, Shape{3, 7, false}, Shape{120, 80, false},
                         Shape{80, 120, false}, Shape{60, 60, true}})
    for (const Layout layout : {Layout::row_major, Layout::col_major}) {
      const std::int64_t m = sh.m, n = sh.n, k = std::min(m, n);
      std::mt19937_64 rng(static_cast<std::uint64_t>(m * 7 + n));
      std::normal_distribution<float> g;
      std::vector<float> a(static_cast<std::size_t>(m * n));
      const std::int64_t lda = layout == Layout::row_major ? n : m;
      const auto idx = [&](std::int64_t i, std::int64_t j, std::int64_t ld) {
        return static_cast<std::size_t>(layout == Layout::row_major ? i * ld + j : i + j * ld);
      };
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) a[idx(i, j, lda)] = g(rng);
      if (sh.rank_deficient)  // columns 1 and 2 copies of column 0: rank ≤ n − 2
        for (std::int64_t i = 0; i < m; ++i) a[idx(i, 1, lda)] = a[idx(i, 2, lda)] = a[idx(i, 0, lda)];
      std::vector<double> ad(a.begin(), a.end()), sref(static_cast<std::size_t>(k));
      ASSERT_EQ(0, trnsolver::gesdd<double>(layout, trnsolver::Job::values_only, m, n, ad.data(), lda, sref.data(),
                                            nullptr, 1, nullptr, 1));
      const std::int64_t ldu = layout == Layout::row_major ? k : m, ldvt = layout == Layout::row_major ? n : k;
      std::vector<float> s(static_cast<std::size_t>(k)), u(static_cast<std::size_t>(m * k)),
          vt(static_cast<std::size_t>(k * n));
      std::vector<float> a_copy = a, u2(u.size()), vt2(vt.size()), s2(s.size());
      ASSERT_EQ(0, trnsolver::gesdd<float>(layout, trnsolver::Job::thin, m, n, a_copy.data(), lda, s.data(), u.data(),
                                           ldu, vt.data(), ldvt, sim(trncore::MathMode::automatic, 2)));
      a_copy = a;
      ASSERT_EQ(0, trnsolver::gesdd<float>(layout, trnsolver::Job::thin, m, n, a_copy.data(), lda, s2.data(), u2.data(),
                                           ldu, vt2.data(), ldvt, sim(trncore::MathMode::automatic, 1)));
      EXPECT_EQ(u, u2);
      EXPECT_EQ(vt, vt2);
      const double tol = 8.0 * static_cast<double>(std::max(m, n)) * 0x1p-24;
      const std::string what =
          std::to_string(m) + "x" + std::to_string(n) + " " + std::string(trncore::to_string(layout));
      for (std::int64_t i = 0; i < k; ++i)
        EXPECT_LE(std::abs(s[static_cast<std::size_t>(i)] - sref[static_cast<std::size_t>(i)]), tol * sref[0])
            << what << " " << i;
      double orth_u = 0, orth_v = 0, res = 0;
      for (std::int64_t p = 0; p < k; ++p)
        for (std::int64_t q = 0; q < k; ++q) {
          double du = p == q ? -1.0 : 0.0, dv = du;
          for (std::int64_t i = 0; i < m; ++i) du += static_cast<double>(u[idx(i, p, ldu)]) * u[idx(i, q, ldu)];
          for (std::int64_t j = 0; j < n; ++j) dv += static_cast<double>(vt[idx(p, j, ldvt)]) * vt[idx(q, j, ldvt)];
          orth_u = std::max(orth_u, std::abs(du));
          orth_v = std::max(orth_v, std::abs(dv));
        }
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double r = a[idx(i, j, lda)];
          for (std::int64_t p = 0; p < k; ++p)
            r -= static_cast<double>(u[idx(i, p, ldu)]) * s[static_cast<std::size_t>(p)] * vt[idx(p, j, ldvt)];
          res = std::max(res, std::abs(r));
        }
      EXPECT_LE(orth_u, tol) << what;
      EXPECT_LE(orth_v, tol) << what;
      EXPECT_LE(res, tol * sref[0]) << what;
    }
  // Job::full on sim: dense_sim_least_squares_test.cpp (SimSvd).
}

// The solves after a sim factorization accept the sim options (fp32 triangular solves): getrs and potrs
// solve A·x = b to the factorization's accuracy — ‖b − A·x‖∞ ≤ c·n·ε·‖A‖∞‖x‖∞ with ε the trailing updates'
// bound (c = 4) — and gecon's estimate lies within [1/(10·n), 10]× the true 1-norm reciprocal condition number.
TEST(SimFactor, SolvesAndConditionEstimateAfterSimFactorizations) {
  const std::int64_t n = 150;
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> a(static_cast<std::size_t>(n * n)), b(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j)
      a[static_cast<std::size_t>(i * n + j)] = a[static_cast<std::size_t>(j * n + i)] =
          d(rng) + (i == j ? 20.0f : 0.0f);
  for (float& v : b) v = d(rng);
  const auto o = sim(trncore::MathMode::bf16, 2);
  const double eps = (1 + 0x1p-8) * (1 + 0x1p-8) * (1 + 0x1p-8) - 1;
  const auto check = [&](const std::vector<float>& x, const char* what) {
    double rmax = 0, anorm = 0, xmax = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      double r = b[static_cast<std::size_t>(i)], row = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        r -= static_cast<double>(a[static_cast<std::size_t>(i * n + j)]) * x[static_cast<std::size_t>(j)];
        row += std::abs(a[static_cast<std::size_t>(i * n + j)]);
      }
      rmax = std::max(rmax, std::abs(r));
      anorm = std::max(anorm, row);
      xmax = std::max(xmax, std::abs(static_cast<double>(x[static_cast<std::size_t>(i)])));
    }
    EXPECT_LE(rmax, 4.0 * n * eps * anorm * xmax) << what;
  };
  std::vector<float> lu = a, x = b;
  std::vector<std::int64_t> piv(static_cast<std::size_t>(n));
  ASSERT_EQ(0, trnsolver::getrf<float>(Layout::row_major, n, n, lu.data(), n, piv.data(), o));
  trnsolver::getrs<float>(Layout::row_major, trnblas::Op::no_trans, n, 1, lu.data(), n, piv.data(), x.data(), 1, o);
  check(x, "getrs");
  std::vector<float> ch = a, y = b;
  ASSERT_EQ(0, trnsolver::potrf<float>(Layout::row_major, Uplo::lower, n, ch.data(), n, o));
  trnsolver::potrs<float>(Layout::row_major, Uplo::lower, n, 1, ch.data(), n, y.data(), 1, o);
  check(y, "potrs");
  // The true 1-norm condition number from LAPACK in double (inverse of the double matrix).
  std::vector<double> ad(a.begin(), a.end()), inv = ad;
  std::vector<std::int64_t> pd(static_cast<std::size_t>(n));
  ASSERT_EQ(0, trnsolver::getrf<double>(Layout::row_major, n, n, inv.data(), n, pd.data()));
  std::vector<double> e(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) e[static_cast<std::size_t>(i * n + i)] = 1.0;
  trnsolver::getrs<double>(Layout::row_major, trnblas::Op::no_trans, n, n, inv.data(), n, pd.data(), e.data(), n);
  const double a1 = trnsolver::lange<double>(Layout::row_major, trnsolver::Norm::one, n, n, ad.data(), n);
  const double inv1 = trnsolver::lange<double>(Layout::row_major, trnsolver::Norm::one, n, n, e.data(), n);
  float rcond = 0;
  ASSERT_EQ(0, trnsolver::gecon<float>(Layout::row_major, trnsolver::Norm::one, n, lu.data(), n, static_cast<float>(a1),
                                       &rcond, o));
  const double truth = 1.0 / (a1 * inv1);
  EXPECT_GE(rcond, truth / (10.0 * n));
  EXPECT_LE(rcond, 10.0 * truth);
}

// pinv on sim (thin one-sided Jacobi SVD, sim GEMM for V_r·Σ_r⁻¹·U_rᵀ) against the host double pinv: within
// c·max(m,n)·u₃₂·κ·‖A⁺‖ entrywise (c = 8; the pseudo-inverse's perturbation grows with κ = σ₁/σ_n).
TEST(SimFactor, PinvByOneSidedJacobi) {
  const std::int64_t m = 40, n = 25;
  std::mt19937_64 rng(33);
  std::normal_distribution<float> g;
  std::vector<float> a(static_cast<std::size_t>(m * n));
  for (float& v : a) v = g(rng);
  const auto r = trnsolver::pinv<float>(trncore::MatrixView<const float>(a.data(), m, n, n), std::nullopt,
                                        sim(trncore::MathMode::automatic, 2));
  ASSERT_EQ(r.info, 0);
  EXPECT_EQ(r.rank, n);
  std::vector<double> ad(a.begin(), a.end());
  const auto ref = trnsolver::pinv<double>(trncore::MatrixView<const double>(ad.data(), m, n, n), std::nullopt);
  double xmax = 0, diff = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < m; ++j) {
      xmax = std::max(xmax, std::abs(ref.x(i, j)));
      diff = std::max(diff, std::abs(static_cast<double>(r.x(i, j)) - ref.x(i, j)));
    }
  const auto sv =
      trnsolver::svd<double>(trncore::MatrixView<const double>(ad.data(), m, n, n), trnsolver::Job::values_only);
  const double kappa = sv.s.front() / sv.s.back();
  EXPECT_LE(diff, 8.0 * m * 0x1p-24 * kappa * xmax) << "kappa " << kappa;
}

TEST(SimFactor, WhatTheSimBackendLacksThrows) {
  std::vector<double> d(16, 1.0);
  std::vector<float> f(12, 1.0f);
  std::vector<std::int64_t> piv(4);
  EXPECT_THROW(
      trnsolver::getrf<double>(Layout::row_major, 4, 4, d.data(), 4, piv.data(), sim(trncore::MathMode::fp32, 1)),
      trncore::NotSupported);
  EXPECT_THROW(
      trnsolver::getrf<float>(Layout::row_major, 3, 4, f.data(), 4, piv.data(), sim(trncore::MathMode::fp32, 1)),
      trncore::NotSupported);
  EXPECT_THROW(
      trnsolver::potrf<double>(Layout::row_major, Uplo::lower, 4, d.data(), 4, sim(trncore::MathMode::fp32, 1)),
      trncore::NotSupported);
  EXPECT_THROW(
      trnsolver::getrf<float>(Layout::row_major, 4, 4, f.data(), 2, piv.data(), sim(trncore::MathMode::fp32, 1)),
      trncore::DimensionMismatch);
}

}  // namespace
