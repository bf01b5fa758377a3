// Symmetric and generalized eigensolvers (syevd/eigh, sygvd/eigh_generalized), the real Schur form
// (gees/schur), norms and condition estimates (lange/gecon) and inverse square roots (inv_sqrt_spd), in
// both layouts and types. Test matrices have spectra known in long double (Q·Λ·Qᵀ with Q a product of
// Householder reflectors), so eigenvalues are checked against the truth, not against LAPACK.
#include "dense_test_support.hpp"

namespace {

using namespace dense_test;
using trnsolver::EigJob;

template <class T>
class Eigen : public ::testing::Test {};
TYPED_TEST_SUITE(Eigen, Types);

// dsyt21's ratios for A = Z·diag(w)·Zᵀ: ‖A − Z·W·Zᵀ‖₁/(n·‖A‖₁·u) and ‖I − ZᵀZ‖₁/(n·u), and eigenvalues
// within LAPACK's absolute bound |ŵ_i − λ_i| ≤ 30·n·u·‖A‖₂ (Users' Guide §4.7: p(n)·u·‖A‖₂).
template <class T>
void check_eigh(const W& a, const std::vector<LD>& lambda, Layout layout, Uplo uplo, const std::string& what) {
  const std::int64_t n = a.rows;
  Mat<T> m = narrow<T>(a, layout);
  poison_other(m, uplo);
  std::vector<T> wv(static_cast<std::size_t>(n)), w0(static_cast<std::size_t>(n));
  Mat<T> m0 = m;
  ASSERT_EQ(trnsolver::syevd(EigJob::values_only, uplo, m0.view(), std::span(w0)), 0);
  ASSERT_EQ(trnsolver::syevd(layout, EigJob::vectors, uplo, n, m.data(), m.ld, wv.data()), 0);
  EXPECT_TRUE(m.padding_intact());
  LD anorm2 = 0;
  for (LD l : lambda) anorm2 = std::max(anorm2, std::fabs(l));
  std::vector<LD> sorted = lambda;
  std::sort(sorted.begin(), sorted.end());
  for (std::int64_t i = 0; i < n; ++i) {
    const auto p = static_cast<std::size_t>(i);
    if (i > 0) {
      EXPECT_LE(wv[p - 1], wv[p]) << what;
    }
    EXPECT_LE(std::fabs(wv[p] - sorted[p]), kThreshold * n * unit<T>() * anorm2) << what << " i = " << i;
    EXPECT_LE(std::fabs(w0[p] - sorted[p]), kThreshold * n * unit<T>() * anorm2) << what << " values only, i = " << i;
  }
  const W z = widen(m);
  W zw = z;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) zw(i, j) *= wv[static_cast<std::size_t>(j)];
  // The reference is A as rounded to T (what the routine received).
  Mat<T> rounded = narrow<T>(a, layout);
  EXPECT_LT(ratio<T>(widen(rounded), mul(zw, transpose(z)), n), kThreshold) << what;
  EXPECT_LT(orthogonality<T>(z, n), kThreshold) << what;
}

TYPED_TEST(Eigen, EighOnKnownSpectraInEveryLayoutAndTriangle) {
  using T = TypeParam;
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::int64_t n : {0, 1, 2, 3, 13, 31, 127, 128, 129}) {
    const W q = random_orthogonal(n, rng);
    std::vector<LD> lambda(static_cast<std::size_t>(n));
    for (auto& l : lambda) l = u(rng);
    const W a = sym_with_spectrum(q, lambda);
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (Uplo uplo : {Uplo::lower, Uplo::upper})
        check_eigh<T>(
            a, lambda, layout, uplo,
            std::string(name(layout)) + " " + std::string(trnblas::to_string(uplo)) + " n = " + std::to_string(n));
  }
}

// Clustered eigenvalues: three clusters of width 10·u around −1, 0.5, 1 (eigenvectors within a cluster
// are ill-determined, but residual, orthogonality and eigenvalues still meet the bounds).
TYPED_TEST(Eigen, ClusteredEigenvalues) {
  using T = TypeParam;
  std::mt19937_64 rng(22);
  const std::int64_t n = 60;
  const W q = random_orthogonal(n, rng, 5);
  std::vector<LD> lambda(static_cast<std::size_t>(n));
  const LD centres[] = {-1, 0.5L, 1};
  for (std::int64_t i = 0; i < n; ++i)
    lambda[static_cast<std::size_t>(i)] = centres[i % 3] + 10 * unit<T>() * static_cast<LD>(i % 7) / 7;
  const W a = sym_with_spectrum(q, lambda);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    check_eigh<T>(a, lambda, layout, Uplo::lower, std::string("clustered ") + name(layout));
  // Exactly repeated: the identity times 3 (every vector is an eigenvector).
  std::vector<LD> threes(5, 3.0L);
  check_eigh<T>(sym_with_spectrum(identity(5), threes), threes, Layout::row_major, Uplo::upper, "3I");
}

// Graded A = D·H·D (D = diag(2^{-3i}), H well conditioned, the scaling exact in binary), eigenvalues from
// 1 down to ≈ 2^{-6(n−1)}. syevd guarantees absolute accuracy only: |ŵ_i − λ_i| ≤ 30·n·u·‖A‖₂ is what
// is tested against a long-double Jacobi oracle (Jacobi is relatively accurate on such matrices,
// Demmel–Veselić). Relative accuracy of the tiny eigenvalues is NOT a LAPACK guarantee (it is the
// sim backend's Jacobi's property) and is not asserted; eigenvalues with |λ| ≥ 1e-3·‖A‖₂ get relative
// accuracy 30·n·u·10³ from the same bound, which is asserted.
TYPED_TEST(Eigen, GradedMatricesMeetTheAbsoluteBound) {
  using T = TypeParam;
  std::mt19937_64 rng(23);
  const std::int64_t n = 12;
  const Mat<T> h0 = random_spd<T>(n, Layout::col_major, rng);
  W a(n, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      a(i, j) = std::ldexp(static_cast<LD>(h0(i, j)), static_cast<int>(-3 * (i + j)));
  const std::vector<LD> truth = jacobi_eigenvalues(a);
  const LD anorm2 = truth.back();
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
      const Mat<T> m = narrow<T>(a, layout);  // exact: power-of-two scalings of T values
      const auto r = trnsolver::eigh(m.view(), EigJob::values_only, uplo);
      ASSERT_EQ(r.info, 0);
      for (std::int64_t i = 0; i < n; ++i) {
        const LD err = std::fabs(r.w[static_cast<std::size_t>(i)] - truth[static_cast<std::size_t>(i)]);
        EXPECT_LE(err, kThreshold * n * unit<T>() * anorm2) << i;
        if (truth[static_cast<std::size_t>(i)] >= 1e-3L * anorm2) {
          EXPECT_LE(err / truth[static_cast<std::size_t>(i)], kThreshold * n * unit<T>() * 1e3L) << i;
        }
      }
    }
}

// A·x = λ·B·x: dsgt01's ratio ‖A·Z − B·Z·Λ‖₁/(n·‖A‖₁·‖Z‖₁·u) and B-orthonormality ‖ZᵀBZ − I‖₁/(n·u·κ₁(B))
// below 30; eigenvalues against the long-double ones of L⁻¹AL⁻ᵀ... computed as the Jacobi eigenvalues
// of B^{-1/2}-free form: the symmetric C = R⁻ᵀ·A·R⁻¹ with B = RᵀR from a long-double Cholesky.
TYPED_TEST(Eigen, GeneralizedProblemAndNonSpdB) {
  using T = TypeParam;
  std::mt19937_64 rng(24);
  for (std::int64_t n : {0, 1, 2, 9, 40})
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
        const Mat<T> a = random_sym<T>(n, layout, rng), b = random_spd<T>(n, layout, rng);
        Mat<T> ap = a, bp = b;
        poison_other(ap, uplo);
        poison_other(bp, uplo);
        const auto r = trnsolver::eigh_generalized(ap.view(), bp.view(), EigJob::vectors, uplo);
        ASSERT_EQ(r.info, 0);
        if (n == 0) continue;
        const W aw = widen(a), bw = widen(b), z = widen(r.z);
        W zl = z;
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j < n; ++j) zl(i, j) *= r.w[static_cast<std::size_t>(j)];
        const LD res = norm1(sub(mul(aw, z), mul(bw, zl))) / (n * norm1(aw) * norm1(z) * unit<T>());
        EXPECT_LT(res, kThreshold) << name(layout) << " n = " << n;
        const LD orth = norm1(sub(mul(mul(transpose(z), bw), z), identity(n))) / (n * unit<T>() * cond1(bw));
        EXPECT_LT(orth, kThreshold) << name(layout) << " n = " << n;
        // Eigenvalues: C = R⁻ᵀ·A·R⁻¹ in long double (R from a long-double Cholesky of B), Jacobi.
        W rr(n, n);
        for (std::int64_t j = 0; j < n; ++j) {
          LD d = bw(j, j);
          for (std::int64_t p = 0; p < j; ++p) d -= rr(p, j) * rr(p, j);
          rr(j, j) = std::sqrt(d);
          for (std::int64_t i = j + 1; i < n; ++i) {
            LD s = bw(j, i);
            for (std::int64_t p = 0; p < j; ++p) s -= rr(p, j) * rr(p, i);
            rr(j, i) = s / rr(j, j);
          }
        }
        const W ri = inverse(rr);
        const std::vector<LD> truth = jacobi_eigenvalues(mul(mul(transpose(ri), aw), ri));
        LD big = 0;
        for (LD t : truth) big = std::max(big, std::fabs(t));
        for (std::int64_t i = 0; i < n; ++i)
          EXPECT_LE(std::fabs(r.w[static_cast<std::size_t>(i)] - truth[static_cast<std::size_t>(i)]),
                    kThreshold * n * unit<T>() * norm1(aw) * norm1(inverse(bw)) + kThreshold * n * unit<T>() * big);
      }
  // B with a negative second leading minor: info = n + 2 (LAPACK's convention), no exception.
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const std::int64_t n = 4;
    Mat<T> a(n, n, layout), b(n, n, layout);
    for (std::int64_t i = 0; i < n; ++i) a(i, i) = b(i, i) = 1;
    b(1, 1) = -2;
    std::vector<T> w(n);
    EXPECT_EQ(trnsolver::sygvd(layout, EigJob::vectors, Uplo::lower, n, a.data(), a.ld, b.data(), b.ld, w.data()),
              n + 2);
  }
}

// Real Schur form: ‖A − Z·T·Zᵀ‖₁/(n·‖A‖₁·u) and ‖I − ZᵀZ‖₁/(n·u) below 30 (dhst01); T quasi upper
// triangular with standardized 2×2 blocks (equal diagonal, off-diagonal product < 0); wr/wi read off T;
// the eigenvalues without vectors sum to trace(A).
TYPED_TEST(Eigen, SchurFormIsQuasiTriangularAndReconstructsA) {
  using T = TypeParam;
  std::mt19937_64 rng(25);
  bool saw_pair = false;
  for (std::int64_t n : {0, 1, 2, 3, 13, 31, 128, 129})
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      const Mat<T> a = random_mat<T>(n, n, layout, rng);
      const auto s = trnsolver::schur(a.view());
      ASSERT_EQ(s.info, 0);
      const W aw = widen(a), t = widen(s.t), z = widen(s.z);
      EXPECT_LT(ratio<T>(aw, mul(mul(z, t), transpose(z)), n), kThreshold) << name(layout) << " n = " << n;
      EXPECT_LT(orthogonality<T>(z, n), kThreshold) << name(layout) << " n = " << n;
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j + 1 < i; ++j) ASSERT_EQ(t(i, j), 0) << "below the subdiagonal";
      for (std::int64_t i = 0; i < n; ++i) {
        const auto p = static_cast<std::size_t>(i);
        if (i + 1 < n && t(i + 1, i) != 0) {
          saw_pair = true;
          ASSERT_TRUE(i + 2 >= n || t(i + 2, i + 1) == 0) << "two consecutive subdiagonal entries";
          EXPECT_EQ(t(i, i), t(i + 1, i + 1));
          EXPECT_LT(t(i, i + 1) * t(i + 1, i), 0);
          EXPECT_EQ(s.wr[p], s.t(i, i));
          EXPECT_EQ(s.wr[p + 1], s.t(i, i));
          const LD im = std::sqrt(std::fabs(t(i, i + 1))) * std::sqrt(std::fabs(t(i + 1, i)));
          EXPECT_LE(std::fabs(s.wi[p] - im), 4 * unit<T>() * im);
          EXPECT_EQ(s.wi[p + 1], -s.wi[p]);
          ++i;
        } else {
          EXPECT_EQ(s.wr[p], s.t(i, i));
          EXPECT_EQ(s.wi[p], 0);
        }
      }
      Mat<T> a2 = a;
      std::vector<T> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));
      ASSERT_EQ(trnsolver::gees<T>(layout, EigJob::values_only, n, a2.data(), a2.ld, wr.data(), wi.data(), nullptr, 1),
                0);
      LD trace = 0, sum = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        trace += aw(i, i);
        sum += wr[static_cast<std::size_t>(i)];
      }
      EXPECT_LE(std::fabs(trace - sum), kThreshold * std::max<std::int64_t>(n, 1) * n * unit<T>() * norm1(aw));
    }
  EXPECT_TRUE(saw_pair) << "no complex pair exercised";
}

// lange against long-double norms in both layouts; gecon against κ from an explicit long-double inverse:
// rcond_est ≥ rcond_true·(1 − 30·n·u·κ) (the estimate of ‖A⁻¹‖ is a lower bound up to rounding in the LU)
// and rcond_est ≤ 10·rcond_true (LAPACK: in practice within 3, at most n).
TYPED_TEST(Eigen, LangeAndGeconAgainstTheExplicitInverse) {
  using T = TypeParam;
  using trnsolver::Norm;
  std::mt19937_64 rng(26);
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    for (const auto& sh : {std::pair<std::int64_t, std::int64_t>{7, 3}, {3, 7}, {1, 1}, {0, 4}, {33, 33}}) {
      const Mat<T> a = random_mat<T>(sh.first, sh.second, layout, rng);
      const W w = widen(a);
      LD mx = 0;
      for (LD x : w.v) mx = std::max(mx, std::fabs(x));
      const LD tol = 4 * std::max<std::int64_t>({sh.first, sh.second, 1}) * unit<T>();
      EXPECT_LE(std::fabs(trnsolver::lange(Norm::one, a.view()) - norm1(w)), tol * norm1(w));
      EXPECT_LE(std::fabs(trnsolver::lange(Norm::inf, a.view()) - norm_inf(w)), tol * norm_inf(w));
      EXPECT_LE(std::fabs(trnsolver::lange(Norm::fro, a.view()) - norm_fro(w)), tol * norm_fro(w));
      EXPECT_EQ(static_cast<LD>(trnsolver::lange(Norm::max, a.view())), mx);
    }
    for (std::int64_t n : {1, 2, 5, 31, 100})
      for (int graded : {0, 1}) {
        Mat<T> a = random_mat<T>(n, n, layout, rng);
        // Graded columns scale κ up to ≈ 10^5 (float) / 10^9 (double).
        const LD decades = std::is_same_v<T, float> ? 5 : 9;
        if (graded)
          for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t i = 0; i < n; ++i)
              a(i, j) = static_cast<T>(a(i, j) * std::pow(10.0L, -decades * j / std::max<std::int64_t>(n - 1, 1)));
        const W w = widen(a), inv = inverse(w);
        for (Norm norm : {Norm::one, Norm::inf}) {
          const LD kappa = norm == Norm::one ? norm1(w) * norm1(inv) : norm_inf(w) * norm_inf(inv);
          const T anorm = trnsolver::lange(layout, norm, n, n, a.data(), a.ld);
          Mat<T> lu = a;
          std::vector<std::int64_t> ipiv(static_cast<std::size_t>(n));
          ASSERT_EQ(trnsolver::getrf(lu.view(), std::span(ipiv)), 0);
          T rcond = -1;
          ASSERT_EQ(trnsolver::gecon(norm, lu.view(), anorm, rcond), 0);
          const LD truth = 1 / kappa;
          EXPECT_GE(rcond, truth * (1 - kThreshold * n * unit<T>() * kappa))
              << name(layout) << " " << trnsolver::to_string(norm) << " n = " << n << " kappa " << (double)kappa;
          EXPECT_LE(rcond, 10 * truth) << name(layout) << " " << trnsolver::to_string(norm) << " n = " << n;
        }
      }
    // Exactly singular U: rcond = 0. Empty: 1.
    Mat<T> s = random_mat<T>(4, 4, layout, rng);
    for (std::int64_t i = 0; i < 4; ++i) s(i, 2) = 0;
    std::vector<std::int64_t> ipiv(4);
    const T anorm = trnsolver::lange(Norm::one, s.view());
    EXPECT_EQ(trnsolver::getrf(s.view(), std::span(ipiv)), 3);
    T rcond = -1;
    EXPECT_EQ(trnsolver::gecon(Norm::one, s.view(), anorm, rcond), 0);
    EXPECT_EQ(rcond, T(0));
    EXPECT_EQ(trnsolver::gecon<T>(layout, Norm::inf, 0, nullptr, 1, T(0), &rcond), 0);
    EXPECT_EQ(rcond, T(1));
  }
}

// A^{-1/2} by both methods against Q·Λ^{-1/2}·Qᵀ in long double: ‖X − X*‖_F/‖X*‖_F ≤ 30·n·u·κ₂(A) (the
// eigenvalues' absolute error p(n)·u·λ_max, relative to λ_min, halved by the square root); the report's
// residual is below the same bound; a non-SPD input gives info in 1…n and X = 0; a cut-off iteration says
// converged = false.
TYPED_TEST(Eigen, InverseSquareRootBothMethods) {
  using T = TypeParam;
  using trnsolver::InvSqrtMethod;
  std::mt19937_64 rng(27);
  for (std::int64_t n : {0, 1, 2, 13, 64})
    for (LD kappa : {10.0L, 1e4L}) {
      const W q = random_orthogonal(n, rng);
      std::vector<LD> lambda(static_cast<std::size_t>(n)), root(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        lambda[static_cast<std::size_t>(i)] = std::pow(kappa, -static_cast<LD>(i) / std::max<std::int64_t>(n - 1, 1));
        root[static_cast<std::size_t>(i)] = 1 / std::sqrt(lambda[static_cast<std::size_t>(i)]);
      }
      const W a = sym_with_spectrum(q, lambda), xs = sym_with_spectrum(q, root);
      for (Layout layout : {Layout::row_major, Layout::col_major})
        for (InvSqrtMethod method : {InvSqrtMethod::eigh, InvSqrtMethod::newton_schulz}) {
          Mat<T> m = narrow<T>(a, layout);
          poison_other(m, Uplo::lower);
          trnsolver::InvSqrtOptions o;
          o.method = method;
          const auto r = trnsolver::inv_sqrt_spd(m.view(), o);
          const std::string what = std::string(trnsolver::to_string(method)) + " " + name(layout) +
                                   " n = " + std::to_string(n) + " kappa " + std::to_string(static_cast<double>(kappa));
          ASSERT_EQ(r.report.info, 0) << what;
          EXPECT_TRUE(r.report.converged) << what;
          const LD bound = kThreshold * std::max<std::int64_t>(n, 1) * unit<T>() * kappa;
          if (n > 0) {
            EXPECT_LT(norm_fro(sub(widen(r.x), xs)) / norm_fro(xs), bound) << what;
          }
          EXPECT_LT(r.report.residual, bound) << what;
          if (method == InvSqrtMethod::newton_schulz && n > 1) {
            EXPECT_GT(r.report.iterations, 0) << what;
            EXPECT_LE(r.report.iterations, 40) << what;
          }
        }
    }
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    Mat<T> a(5, 5, layout);
    for (std::int64_t i = 0; i < 5; ++i) a(i, i) = 1;
    a(3, 3) = -1;
    for (InvSqrtMethod method : {InvSqrtMethod::eigh, InvSqrtMethod::newton_schulz}) {
      trnsolver::InvSqrtOptions o;
      o.method = method;
      const auto r = trnsolver::inv_sqrt_spd(a.view(), o);
      EXPECT_EQ(r.report.info, 4);
      EXPECT_FALSE(r.report.converged);
      for (T v : r.x.data) EXPECT_EQ(v, T(0));
    }
    const Mat<T> spd = narrow<T>(sym_with_spectrum(random_orthogonal(20, rng), std::vector<LD>(20, 1e-3L)), layout);
    trnsolver::InvSqrtOptions o;
    o.method = InvSqrtMethod::newton_schulz;
    o.max_iterations = 2;
    const auto r = trnsolver::inv_sqrt_spd(spd.view(), o);
    EXPECT_EQ(r.report.info, 0);
    EXPECT_EQ(r.report.iterations, 2);
    EXPECT_FALSE(r.report.converged);
    EXPECT_GT(r.report.residual, 1e-3);
  }
}

}  // namespace
