// Least squares (gels, gelsd, lstsq) and the full SVD (gesdd Job::full) on the sim backend (float data).
//
// Tolerances. With the TensorEngine GEMMs in MathMode::fp32 under ProductModel::exact, every product of the
// sim algorithms is an fp32 product accumulated in fp32 (docs/trnblas-sim.md: (1+γ_K) − 1, the bound of an
// fp32 dot product), and the panels are fp32 with each operation rounded: the algorithms are the host's
// Householder QR / one-sided Jacobi in fp32, so the host tests' criteria hold with u = u₃₂ = 2⁻²⁴:
//   solutions: ‖x − x*‖₁/‖x*‖₁ < 30·max(m, n)·u·κ(Gram), the first-order forward-error bound of a backward-
//   stable LS solver (Higham, ASNA 2nd ed., Thm 20.1; the κ₂(A)² term dominates for random right-hand sides);
//   factorizations: LAPACK's test ratios ‖A − UΣVᵀ‖₁/(max(m, n)·‖A‖₁·u) and ‖I − QᵀQ‖₁/(m·u) below 30
//   (dense_test_support.hpp). Under MathMode::bf16 the GEMM's single-pass bound
//   ε = (1+2⁻⁸)³(1+γ₁₂₈) − 1 replaces u in the solution bound (products of bf16 inputs rounded to bf16).
// Oracles: the long-double normal-equations solution (ls_oracle) and LAPACK's dgesdd in fp64 on the same data.
#include "dense_test_support.hpp"

#include <lapacke.h>

#include <span>

namespace {

using namespace dense_test;

// X = rows [0, rows) of the solution block B.
W leading_rows(const Mat<float>& b, std::int64_t rows) {
  W x(rows, b.cols);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < b.cols; ++j) x(i, j) = b(i, j);
  return x;
}

// gels, no_trans and trans, every shape class: tall (least squares), wide (minimum norm), square, empty, tile
// edges; each against the long-double oracle of its problem, one and two threads bitwise equal.
TEST(SimLeastSquares, GelsMatchesTheLongDoubleSolution) {
  std::mt19937_64 rng(81);
  const std::int64_t shapes[][2] = {{0, 0},   {0, 3},   {3, 0},     {1, 1},     {2, 2},     {2, 1},    {1, 2},
                                    {200, 7}, {7, 200}, {129, 127}, {127, 129}, {128, 128}, {257, 131}};
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const auto& sh : shapes)
      for (const Op trans : {Op::no_trans, Op::trans}) {
        const std::int64_t m = sh[0], n = sh[1], rows = std::max(m, n), nrhs = 3;
        const std::int64_t brows = trans == Op::no_trans ? m : n, xrows = trans == Op::no_trans ? n : m;
        const Mat<float> a0 = random_mat<float>(m, n, layout, rng);
        const Mat<float> b0 = random_mat<float>(brows, nrhs, layout, rng);
        Mat<float> a = a0, b(rows, nrhs, layout);
        for (std::int64_t i = 0; i < brows; ++i)
          for (std::int64_t j = 0; j < nrhs; ++j) b(i, j) = b0(i, j);
        Mat<float> a2 = a, b2 = b;
        ASSERT_EQ(trnsolver::gels(trans, a.view(), b.view(), sim_options(1)), 0);
        ASSERT_EQ(trnsolver::gels(trans, a2.view(), b2.view(), sim_options(2)), 0);
        EXPECT_EQ(b.buf, b2.buf);
        EXPECT_EQ(a.buf, a2.buf);
        EXPECT_TRUE(b.padding_intact());
        const std::string what = std::string(name(layout)) + " " + std::to_string(m) + "x" + std::to_string(n) +
                                 (trans == Op::no_trans ? " N" : " T");
        if (std::min(m, n) == 0) {  // LAPACK's X = 0
          for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t j = 0; j < nrhs; ++j) EXPECT_EQ(b(i, j), 0.0f) << what;
          continue;
        }
        const W aw = trans == Op::no_trans ? widen(a0) : transpose(widen(a0));
        const LsOracle o = ls_oracle(aw, widen(b0));
        const LD err = norm1(sub(leading_rows(b, xrows), o.x)) / norm1(o.x);
        EXPECT_LT(err, kThreshold * static_cast<LD>(rows) * unit<float>() * o.gram_cond) << what;
      }
}

// bf16 TensorEngine updates: the same problem within the bound with ε_bf16 in place of u.
TEST(SimLeastSquares, GelsWithBf16UpdatesWithinTheGemmBound) {
  std::mt19937_64 rng(82);
  const std::int64_t m = 300, n = 140, nrhs = 2;
  const Mat<float> a0 = random_mat<float>(m, n, Layout::col_major, rng),
                   b0 = random_mat<float>(m, nrhs, Layout::col_major, rng);
  Mat<float> a = a0, b = b0;
  ASSERT_EQ(trnsolver::gels(Op::no_trans, a.view(), b.view(), sim_options(2, trncore::MathMode::bf16)), 0);
  const LsOracle o = ls_oracle(widen(a0), widen(b0));
  const LD err = norm1(sub(leading_rows(b, n), o.x)) / norm1(o.x);
  EXPECT_LT(err, kThreshold * static_cast<LD>(m) * static_cast<LD>(kBf16GemmBound) * o.gram_cond);
  // and it is not the fp32 result: the mode reached the TensorEngine.
  Mat<float> a32 = a0, b32 = b0;
  ASSERT_EQ(trnsolver::gels(Op::no_trans, a32.view(), b32.view(), sim_options(2)), 0);
  EXPECT_NE(b.buf, b32.buf);
}

// lstsq routes both methods to sim: full-rank problems against the oracle, rank r and the minimum-norm
// solution (normal equations, no null-space component) for A = B·C of rank r; an exactly singular matrix
// (a zero column: R(4, 4) = 0 exactly, since the reflectors map a zero column to zero) gives gels info 5
// with B untouched, lstsq(qr) info 5 and rank 0, lstsq(svd) rank n − 1; no exception.
TEST(SimLeastSquares, LstsqBothMethodsAndRankDeficiency) {
  std::mt19937_64 rng(83);
  for (const Layout layout : {Layout::row_major, Layout::col_major}) {
    for (const auto& sh : {std::pair<std::int64_t, std::int64_t>{60, 20}, {20, 60}, {1, 1}}) {
      const std::int64_t m = sh.first, n = sh.second;
      const Mat<float> a = random_mat<float>(m, n, layout, rng), b = random_mat<float>(m, 2, layout, rng);
      const LsOracle o = ls_oracle(widen(a), widen(b));
      for (const auto method : {trnsolver::LstsqMethod::qr, trnsolver::LstsqMethod::svd}) {
        const auto r1 = trnsolver::lstsq(a.view(), b.view(), method, std::nullopt, sim_options(1));
        const auto r2 = trnsolver::lstsq(a.view(), b.view(), method, std::nullopt, sim_options(2));
        ASSERT_EQ(r1.info, 0);
        EXPECT_EQ(r1.rank, std::min(m, n));
        EXPECT_EQ(r1.x.data, r2.x.data);
        EXPECT_LT(norm1(sub(widen(r1.x), o.x)) / norm1(o.x),
                  kThreshold * static_cast<LD>(std::max(m, n)) * unit<float>() * o.gram_cond)
            << trnsolver::to_string(method) << " " << name(layout) << " " << m << "x" << n;
      }
    }
    const std::int64_t m = 40, n = 25, r = 10, nrhs = 3;
    const W bw = widen(random_mat<float>(m, r, layout, rng)), cw = widen(random_mat<float>(r, n, layout, rng));
    const Mat<float> a = narrow<float>(mul(bw, cw), layout);
    const Mat<float> b = random_mat<float>(m, nrhs, layout, rng);
    // rcond 1e-4: σ_r/σ_1 of this product is ≈ 0.1, the rounding-level σ_{r+1…} are ≈ n·u·σ_1 ≈ 1e-6·σ_1.
    const auto res = trnsolver::lstsq(a.view(), b.view(), trnsolver::LstsqMethod::svd, 1e-4f, sim_options(2));
    ASSERT_EQ(res.info, 0);
    EXPECT_EQ(res.rank, r);
    const W x = widen(res.x), aw = widen(a), ct = transpose(cw);
    const W nullpart = sub(x, mul(mul(ct, mul(inverse(mul(cw, ct)), cw)), x));
    const LD kr = static_cast<LD>(res.s[0]) / static_cast<LD>(res.s[static_cast<std::size_t>(r - 1)]);
    EXPECT_LT(norm1(nullpart) / norm1(x), kThreshold * static_cast<LD>(m) * unit<float>() * cond1(mul(cw, ct)) * kr);
    const W resid = sub(widen(b), mul(aw, x));
    EXPECT_LT(norm1(mul(transpose(aw), resid)) /
                  (static_cast<LD>(m) * norm1(aw) * (norm1(aw) * norm1(x) + norm1(widen(b))) * unit<float>() * kr),
              kThreshold);
    Mat<float> z = random_mat<float>(m, n, layout, rng);
    for (std::int64_t i = 0; i < m; ++i) z(i, 4) = 0;
    Mat<float> z2 = z, zb = b;
    EXPECT_EQ(trnsolver::gels(Op::no_trans, z2.view(), zb.view(), sim_options(1)), 5);
    EXPECT_EQ(zb.buf, b.buf);
    const auto q = trnsolver::lstsq(z.view(), b.view(), trnsolver::LstsqMethod::qr, std::nullopt, sim_options(1));
    EXPECT_EQ(q.info, 5);
    EXPECT_EQ(q.rank, 0);
    const auto sv = trnsolver::lstsq(z.view(), b.view(), trnsolver::LstsqMethod::svd, 1e-4f, sim_options(1));
    EXPECT_EQ(sv.info, 0);
    EXPECT_EQ(sv.rank, n - 1);
  }
}

// Singular values by LAPACK's dgesdd in fp64 on the float data (the oracle).
std::vector<double> lapack_singular_values(const Mat<float>& a) {
  const std::int64_t m = a.rows, n = a.cols, k = std::min(m, n);
  std::vector<double> ad(static_cast<std::size_t>(m * n)), s(static_cast<std::size_t>(k));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) ad[static_cast<std::size_t>(i + j * m)] = a(i, j);
  if (k > 0) {
    double dummy = 0;
    EXPECT_EQ(LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', static_cast<lapack_int>(m), static_cast<lapack_int>(n), ad.data(),
                             static_cast<lapack_int>(m), s.data(), &dummy, 1, &dummy, 1),
              0);
  }
  return s;
}

// Job::full: U m×m and Vᵀ n×n orthogonal (dort01 < 30), A = U·Σ·Vᵀ (dbdt01 < 30), σ within gesdd's absolute
// guarantee 30·max(m, n)·u·σ₁ of LAPACK's fp64 values; the thin factors are the leading columns of the full
// ones' computation; empty A gives identities; one and two threads bitwise equal.
TEST(SimSvd, FullFactorsOrthogonalAndReconstructing) {
  std::mt19937_64 rng(84);
  const std::int64_t shapes[][2] = {{0, 0}, {0, 3}, {3, 0},   {1, 1},   {2, 2},     {2, 1},     {1, 2},
                                    {5, 3}, {3, 5}, {131, 7}, {7, 131}, {127, 129}, {129, 127}, {128, 128}};
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const auto& sh : shapes) {
      const std::int64_t m = sh[0], n = sh[1], k = std::min(m, n);
      Mat<float> a0 = random_mat<float>(m, n, layout, rng);
      if (m == 5) a0(0, 0) = 0, a0(1, 0) = 0, a0(2, 0) = 0, a0(3, 0) = 0, a0(4, 0) = 0;  // a zero column: σ_k = 0
      Mat<float> a = a0, a2 = a0, u(m, m, layout), u2 = u, vt(n, n, layout), vt2 = vt;
      std::vector<float> s(static_cast<std::size_t>(k)), s2(s.size());
      ASSERT_EQ(trnsolver::gesdd(trnsolver::Job::full, a.view(), std::span(s), u.view(), vt.view(), sim_options(1)), 0);
      ASSERT_EQ(trnsolver::gesdd(trnsolver::Job::full, a2.view(), std::span(s2), u2.view(), vt2.view(), sim_options(2)),
                0);
      EXPECT_EQ(s, s2);
      EXPECT_EQ(u.buf, u2.buf);
      EXPECT_EQ(vt.buf, vt2.buf);
      EXPECT_TRUE(u.padding_intact() && vt.padding_intact());
      const std::string what = std::string(name(layout)) + " " + std::to_string(m) + "x" + std::to_string(n);
      EXPECT_LT(orthogonality<float>(widen(u), m), kThreshold) << what;
      EXPECT_LT(orthogonality<float>(transpose(widen(vt)), n), kThreshold) << what;
      W sigma(m, n);
      for (std::int64_t i = 0; i < k; ++i) sigma(i, i) = s[static_cast<std::size_t>(i)];
      EXPECT_LT(ratio<float>(widen(a0), mul(mul(widen(u), sigma), widen(vt)), std::max(m, n)), kThreshold) << what;
      const std::vector<double> ref = lapack_singular_values(a0);
      for (std::int64_t i = 0; i < k; ++i)
        EXPECT_LE(std::fabs(static_cast<LD>(s[static_cast<std::size_t>(i)]) - ref[static_cast<std::size_t>(i)]),
                  kThreshold * static_cast<LD>(std::max(m, n)) * unit<float>() * ref[0])
            << what << " sigma " << i;
    }
}

TEST(SimSvd, FullFactorArgumentsChecked) {
  Mat<float> a(4, 3, Layout::col_major), u(4, 3, Layout::col_major), vt(3, 3, Layout::col_major);
  std::vector<float> s(3);
  // u must be 4×4 for Job::full.
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] {
        trnsolver::gesdd<float>(Layout::col_major, trnsolver::Job::full, 4, 3, a.data(), a.ld, s.data(), u.data(), 3,
                                vt.data(), vt.ld, sim_options(1));
      },
      "trnsolver::gesdd", {"ldu"});
  std::vector<double> ad(12, 1.0), sd(3), ud(16), vd(9);
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsolver::gesdd<double>(Layout::col_major, trnsolver::Job::full, 4, 3, ad.data(), 4, sd.data(), ud.data(), 4,
                                 vd.data(), 3, sim_options(1));
      },
      "trnsolver::gesdd");
  std::vector<double> bd(4, 1.0);
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsolver::gels<double>(Layout::col_major, Op::no_trans, 4, 3, 1, ad.data(), 4, bd.data(), 4, sim_options(1));
      },
      "trnsolver::gels", {"float"});
  std::vector<float> af(12, 1.0f), bf(4, 1.0f), sf(3);
  std::int64_t rank = 0;
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsolver::gelsd<float>(Layout::col_major, 4, 3, 1, af.data(), 4, bf.data(), 4, sf.data(),
                                std::numeric_limits<float>::quiet_NaN(), &rank, sim_options(1));
      },
      "trnsolver::gelsd", {"NaN"});
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] {
        trnsolver::gels<float>(Layout::col_major, Op::no_trans, 4, 3, 1, af.data(), 4, bf.data(), 3, sim_options(1));
      },
      "trnsolver::gels", {"ldb"});
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsolver::lstsq<double>(trncore::MatrixView<const double>(ad.data(), 4, 3, 4, Layout::col_major),
                                 trncore::MatrixView<const double>(bd.data(), 4, 1, 4, Layout::col_major),
                                 trnsolver::LstsqMethod::qr, std::nullopt, sim_options(1));
      },
      "trnsolver::lstsq");
}

}  // namespace
