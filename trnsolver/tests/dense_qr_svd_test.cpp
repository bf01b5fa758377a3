// QR (geqrf/orgqr), least squares (gels, gelsd, lstsq), SVD (gesdd, svd) and pinv in both layouts and
// types. Factorizations: LAPACK's test ratios below 30 (dense_test_support.hpp). Solutions: compared with
// long-double oracles (normal equations, explicit inverses) within 30·max(m, n)·u times the condition
// number the oracle computes, the first-order forward-error bound of a backward-stable solver.
#include "dense_test_support.hpp"

namespace {

using namespace dense_test;

template <class T>
class Qr : public ::testing::Test {};
TYPED_TEST_SUITE(Qr, Types);
template <class T>
class Svd : public ::testing::Test {};
TYPED_TEST_SUITE(Svd, Types);

const std::int64_t kShapes[][2] = {{0, 0}, {0, 3}, {3, 0},   {1, 1},   {2, 2},     {2, 1},     {1, 2},
                                   {5, 3}, {3, 5}, {200, 7}, {7, 200}, {127, 127}, {128, 128}, {129, 129}};

// Q·R from geqrf's output with Q applied as its reflectors in long double (not orgqr, which is under
// test too): H_0·(H_1·(…·(H_{k−1}·R))).
template <class T>
W qr_product(const Mat<T>& f, const std::vector<T>& tau) {
  const std::int64_t m = f.rows, n = f.cols, k = std::min(m, n);
  W r(m, n);
  for (std::int64_t i = 0; i < k; ++i)
    for (std::int64_t j = i; j < n; ++j) r(i, j) = f(i, j);
  for (std::int64_t i = k - 1; i >= 0; --i) {
    const LD t = tau[static_cast<std::size_t>(i)];
    for (std::int64_t j = 0; j < n; ++j) {
      LD d = r(i, j);
      for (std::int64_t p = i + 1; p < m; ++p) d += static_cast<LD>(f(p, i)) * r(p, j);
      r(i, j) -= t * d;
      for (std::int64_t p = i + 1; p < m; ++p) r(p, j) -= t * d * static_cast<LD>(f(p, i));
    }
  }
  return r;
}

TYPED_TEST(Qr, GeqrfAndOrgqrWithinLapacksRatios) {
  using T = TypeParam;
  std::mt19937_64 rng(11);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (const auto& s : kShapes) {
      const std::int64_t m = s[0], n = s[1], k = std::min(m, n);
      const Mat<T> a0 = random_mat<T>(m, n, layout, rng);
      Mat<T> f = a0;
      std::vector<T> tau(static_cast<std::size_t>(k));
      trnsolver::geqrf(f.view(), std::span(tau));
      EXPECT_TRUE(f.padding_intact());
      // dqrt01: ‖A − Q·R‖₁ / (m·‖A‖₁·u).
      EXPECT_LT(ratio<T>(widen(a0), qr_product(f, tau), m), kThreshold) << name(layout) << " " << m << "x" << n;
      if (m < n) continue;
      // orgqr: the m×n Q; ‖I − QᵀQ‖₁/(m·u) and Q·R = A with the explicit Q.
      Mat<T> q = f;
      trnsolver::orgqr(layout, m, n, k, q.data(), q.ld, tau.data());
      const W wq = widen(q);
      EXPECT_LT(orthogonality<T>(wq, m), kThreshold) << name(layout) << " " << m << "x" << n;
      W r(n, n);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = i; j < n; ++j) r(i, j) = f(i, j);
      EXPECT_LT(ratio<T>(widen(a0), mul(wq, r), m), kThreshold) << name(layout) << " " << m << "x" << n;
    }
}

// ‖x − x*‖₁/‖x*‖₁ ≤ 30·max(m, n)·u·κ(AᵀA): the first-order bound for a backward-stable LS solver
// (Higham Thm 20.1: the κ₂(A)²·‖r‖ term dominates for random right-hand sides).
TYPED_TEST(Qr, GelsAndLstsqMatchTheLongDoubleSolution) {
  using T = TypeParam;
  std::mt19937_64 rng(12);
  const std::int64_t shapes[][2] = {{200, 7}, {7, 200}, {60, 20}, {20, 60}, {13, 13}, {1, 1}, {3, 1}, {1, 3}};
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (const auto& s : shapes) {
      const std::int64_t m = s[0], n = s[1], rows = std::max(m, n), nrhs = 2;
      const Mat<T> a0 = random_mat<T>(m, n, layout, rng);
      const Mat<T> b0 = random_mat<T>(m, nrhs, layout, rng);
      const LsOracle o = ls_oracle(widen(a0), widen(b0));
      const LD tol = kThreshold * static_cast<LD>(rows) * unit<T>() * o.gram_cond;
      const auto err = [&](const W& x) { return norm1(sub(x, o.x)) / norm1(o.x); };
      // gels on the low layer: B is max(m, n)×nrhs.
      Mat<T> a = a0, b(rows, nrhs, layout);
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < nrhs; ++j) b(i, j) = b0(i, j);
      ASSERT_EQ(trnsolver::gels(layout, Op::no_trans, m, n, nrhs, a.data(), a.ld, b.data(), b.ld), 0);
      W x(n, nrhs);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < nrhs; ++j) x(i, j) = b(i, j);
      EXPECT_LT(err(x), tol) << "gels " << name(layout) << " " << m << "x" << n;
      for (auto method : {trnsolver::LstsqMethod::qr, trnsolver::LstsqMethod::svd}) {
        const auto r = trnsolver::lstsq(a0.view(), b0.view(), method);
        ASSERT_EQ(r.info, 0);
        EXPECT_EQ(r.rank, std::min(m, n));
        EXPECT_LT(err(widen(r.x)), tol) << trnsolver::to_string(method) << " " << name(layout) << " " << m << "x" << n;
      }
      // gels with trans: min ‖B − Aᵀ·X‖ for the n×m problem Aᵀ.
      Mat<T> a2 = a0, c(rows, nrhs, layout);
      const Mat<T> c0 = random_mat<T>(n, nrhs, layout, rng);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < nrhs; ++j) c(i, j) = c0(i, j);
      ASSERT_EQ(trnsolver::gels(Op::trans, a2.view(), c.view()), 0);
      const LsOracle ot = ls_oracle(transpose(widen(a0)), widen(c0));
      W xt(m, nrhs);
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < nrhs; ++j) xt(i, j) = c(i, j);
      EXPECT_LT(norm1(sub(xt, ot.x)) / norm1(ot.x), kThreshold * static_cast<LD>(rows) * unit<T>() * ot.gram_cond)
          << "gels trans " << name(layout) << " " << m << "x" << n;
    }
}

// Rank-deficient A = B·C (rank r): gelsd finds rank r and the minimum-norm solution, which satisfies the
// normal equations and lies in the row space of C; gels on an exactly singular matrix (a zero column)
// returns info > 0 without an exception, and lstsq(qr) reports it.
TYPED_TEST(Qr, RankDeficientLeastSquares) {
  using T = TypeParam;
  std::mt19937_64 rng(13);
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const std::int64_t m = 40, n = 25, r = 10, nrhs = 3;
    const W bw = widen(random_mat<T>(m, r, layout, rng)), cw = widen(random_mat<T>(r, n, layout, rng));
    const Mat<T> a = narrow<T>(mul(bw, cw), layout);
    const Mat<T> b = random_mat<T>(m, nrhs, layout, rng);
    const auto res = trnsolver::lstsq(a.view(), b.view(), trnsolver::LstsqMethod::svd);
    ASSERT_EQ(res.info, 0);
    EXPECT_EQ(res.rank, r);
    ASSERT_EQ(res.s.size(), static_cast<std::size_t>(n));
    for (std::size_t i = 1; i < res.s.size(); ++i) EXPECT_GE(res.s[i - 1], res.s[i]);
    const W x = widen(res.x), aw = widen(a);
    // Null-space component: (I − Cᵀ(CCᵀ)⁻¹C)·x, relative to ‖x‖; tolerance 30·max(m, n)·u·κ(CCᵀ)·s₁/s_r.
    const W ct = transpose(cw);
    const W proj = mul(ct, mul(inverse(mul(cw, ct)), cw));
    const W nullpart = sub(x, mul(proj, x));
    const LD kr = static_cast<LD>(res.s[0]) / static_cast<LD>(res.s[static_cast<std::size_t>(r - 1)]);
    const LD tol = kThreshold * static_cast<LD>(m) * unit<T>() * cond1(mul(cw, ct)) * kr;
    EXPECT_LT(norm1(nullpart) / norm1(x), tol) << name(layout);
    // Normal equations: ‖Aᵀ(b − A·x)‖₁ / (m·‖A‖₁·(‖A‖₁‖x‖₁ + ‖b‖₁)·u·s₁/s_r).
    const W resid = sub(widen(b), mul(aw, x));
    const LD ne = norm1(mul(transpose(aw), resid)) /
                  (static_cast<LD>(m) * norm1(aw) * (norm1(aw) * norm1(x) + norm1(widen(b))) * unit<T>() * kr);
    EXPECT_LT(ne, kThreshold) << name(layout);
    // An exactly singular matrix: column 4 zero → R(4, 4) = 0 exactly.
    Mat<T> z = random_mat<T>(m, n, layout, rng);
    for (std::int64_t i = 0; i < m; ++i) z(i, 4) = 0;
    Mat<T> zb(m, nrhs, layout);
    Mat<T> z2 = z;
    EXPECT_EQ(trnsolver::gels(Op::no_trans, z2.view(), zb.view()), 5);
    const auto q = trnsolver::lstsq(z.view(), b.view(), trnsolver::LstsqMethod::qr);
    EXPECT_EQ(q.info, 5);
    EXPECT_EQ(q.rank, 0);
    const auto sv = trnsolver::lstsq(z.view(), b.view(), trnsolver::LstsqMethod::svd);
    EXPECT_EQ(sv.info, 0);
    EXPECT_EQ(sv.rank, n - 1);
  }
}

// gesdd in every job and shape: dbdt01's ‖A − U·Σ·Vᵀ‖₁/(max(m, n)·‖A‖₁·u) and dort01's orthogonality
// ratios below 30; s non-negative, descending, and the same (to 30·k·u·s₁) without vectors.
TYPED_TEST(Svd, GesddWithinLapacksRatiosForEveryJob) {
  using T = TypeParam;
  using trnsolver::Job;
  std::mt19937_64 rng(14);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (const auto& sh : kShapes) {
      const std::int64_t m = sh[0], n = sh[1], k = std::min(m, n);
      const Mat<T> a0 = random_mat<T>(m, n, layout, rng);
      std::vector<T> s_thin;
      for (Job job : {Job::thin, Job::full}) {
        const std::int64_t uc = job == Job::thin ? k : m, vr = job == Job::thin ? k : n;
        Mat<T> a = a0, u(m, uc, layout), vt(vr, n, layout);
        std::vector<T> s(static_cast<std::size_t>(k));
        ASSERT_EQ(trnsolver::gesdd(job, a.view(), std::span(s), u.view(), vt.view()), 0);
        EXPECT_TRUE(u.padding_intact() && vt.padding_intact());
        for (std::int64_t i = 0; i < k; ++i) {
          EXPECT_GE(s[static_cast<std::size_t>(i)], T(0));
          if (i > 0) {
            EXPECT_GE(s[static_cast<std::size_t>(i - 1)], s[static_cast<std::size_t>(i)]);
          }
        }
        W us(m, k);
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < k; ++j) us(i, j) = static_cast<LD>(u(i, j)) * s[static_cast<std::size_t>(j)];
        W vk(k, n);
        for (std::int64_t i = 0; i < k; ++i)
          for (std::int64_t j = 0; j < n; ++j) vk(i, j) = vt(i, j);
        EXPECT_LT(ratio<T>(widen(a0), mul(us, vk), std::max(m, n)), kThreshold)
            << trnsolver::to_string(job) << " " << name(layout) << " " << m << "x" << n;
        EXPECT_LT(orthogonality<T>(widen(u), m), kThreshold) << name(layout) << " " << m << "x" << n;
        EXPECT_LT(orthogonality<T>(transpose(widen(vt)), n), kThreshold) << name(layout) << " " << m << "x" << n;
        if (job == Job::thin) s_thin = s;
      }
      Mat<T> a = a0;
      std::vector<T> s(static_cast<std::size_t>(k));
      ASSERT_EQ(trnsolver::gesdd<T>(layout, Job::values_only, m, n, a.data(), a.ld, s.data(), nullptr, 1, nullptr, 1),
                0);
      for (std::int64_t i = 0; i < k; ++i)
        EXPECT_LE(std::fabs(static_cast<LD>(s[static_cast<std::size_t>(i)]) - s_thin[static_cast<std::size_t>(i)]),
                  kThreshold * static_cast<LD>(k) * unit<T>() * s_thin[0]);
    }
}

// Singular values of a matrix with known ones (U·diag(σ)·Vᵀ built in long double, graded σ down to
// 1e-6·σ₁): |σ̂_i − σ_i| ≤ 30·max(m, n)·u·σ₁ (absolute: gesdd's guarantee), and a zero matrix.
TYPED_TEST(Svd, KnownSingularValuesAndTheZeroMatrix) {
  using T = TypeParam;
  std::mt19937_64 rng(15);
  const std::int64_t m = 50, n = 30;
  const W uq = random_orthogonal(m, rng), vq = random_orthogonal(n, rng);
  W sig(m, n);
  std::vector<LD> sigma(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    sig(i, i) = sigma[static_cast<std::size_t>(i)] = std::pow(10.0L, -6.0L * i / (n - 1));
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const Mat<T> a = narrow<T>(mul(mul(uq, sig), transpose(vq)), layout);
    const auto r = trnsolver::svd(a.view(), trnsolver::Job::values_only);
    ASSERT_EQ(r.info, 0);
    EXPECT_TRUE(r.u.data.empty() && r.vt.data.empty());
    for (std::int64_t i = 0; i < n; ++i)
      EXPECT_LE(std::fabs(r.s[static_cast<std::size_t>(i)] - sigma[static_cast<std::size_t>(i)]),
                kThreshold * m * unit<T>())
          << i;
    const Mat<T> z(4, 3, layout);
    const auto rz = trnsolver::svd(z.view(), trnsolver::Job::full);
    ASSERT_EQ(rz.info, 0);
    for (T v : rz.s) EXPECT_EQ(v, T(0));
    EXPECT_LT(orthogonality<T>(widen(rz.u), 4), kThreshold);
  }
}

// pinv: for full-rank A, X against the long-double (AᵀA)⁻¹Aᵀ (or Aᵀ(AAᵀ)⁻¹) within
// 30·max(m, n)·u·κ(Gram); for rank-deficient A the rank and the Penrose condition A·X·A = A
// (‖AXA − A‖₁/(max(m, n)·‖A‖₁·u·s₁/s_r) < 30); the zero matrix gives X = 0, rank 0.
TYPED_TEST(Svd, PinvMatchesOraclesAndPenroseConditions) {
  using T = TypeParam;
  std::mt19937_64 rng(16);
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    for (const auto& sh : {std::pair<std::int64_t, std::int64_t>{30, 8}, {8, 30}, {17, 17}, {1, 1}}) {
      const std::int64_t m = sh.first, n = sh.second;
      const Mat<T> a = random_mat<T>(m, n, layout, rng);
      const auto r = trnsolver::pinv(a.view());
      ASSERT_EQ(r.info, 0);
      EXPECT_EQ(r.rank, std::min(m, n));
      ASSERT_EQ(r.x.rows, n);
      ASSERT_EQ(r.x.cols, m);
      const LsOracle o = ls_oracle(widen(a), identity(m));
      EXPECT_LT(norm1(sub(widen(r.x), o.x)) / norm1(o.x),
                kThreshold * static_cast<LD>(std::max(m, n)) * unit<T>() * o.gram_cond)
          << name(layout) << " " << m << "x" << n;
    }
    const std::int64_t m = 20, n = 15, rk = 6;
    const Mat<T> a =
        narrow<T>(mul(widen(random_mat<T>(m, rk, layout, rng)), widen(random_mat<T>(rk, n, layout, rng))), layout);
    const auto r = trnsolver::pinv(a.view());
    ASSERT_EQ(r.info, 0);
    EXPECT_EQ(r.rank, rk);
    const auto sv = trnsolver::svd(a.view(), trnsolver::Job::values_only);
    const LD kr = static_cast<LD>(sv.s[0]) / static_cast<LD>(sv.s[rk - 1]);
    const W aw = widen(a);
    EXPECT_LT(ratio<T>(aw, mul(mul(aw, widen(r.x)), aw), m) / kr, kThreshold) << name(layout);
    const auto z = trnsolver::pinv(Mat<T>(3, 5, layout).view());
    EXPECT_EQ(z.rank, 0);
    for (T v : z.x.data) EXPECT_EQ(v, T(0));
    // rcond above 1 discards every singular value.
    EXPECT_EQ(trnsolver::pinv(a.view(), T(2)).rank, 0);
  }
}

}  // namespace
