// Real Schur decomposition (gees, schur) on the sim backend (float data).
//
// Tolerances. Under MathMode::fp32 with ProductModel::exact the Hessenberg reduction's GEMM updates are fp32
// products accumulated in fp32 and everything else is VectorEngine fp32, so the algorithm is LAPACK's
// (gehrd + hseqr) in fp32 and LAPACK's own criteria apply with u = u₃₂: dhst01/dget22-style ratios
// ‖A − Z·T·Zᵀ‖₁/(n·‖A‖₁·u) and ‖I − ZᵀZ‖₁/(n·u) below 30 (dense_test_support.hpp; Users' Guide §4.8:
// ‖ΔA‖₂ ≤ p(n)·u·‖A‖₂). Eigenvalues: |λ̂ − λ| ≤ ‖ΔA‖₂/s(λ) to first order (Wilkinson; Users' Guide §4.8),
// s(λ) = |yᴴx| LAPACK's reciprocal condition number from dgeevx in fp64 (the oracle), with ‖ΔA‖₂ ≤
// 30·n·u·‖A‖_F. Under bf16 updates, u becomes the GEMM's single-pass bound (1+2⁻⁸)³(1+γ₁₂₈) − 1.
#include "dense_test_support.hpp"

#include <lapacke.h>

#include <complex>
#include <span>

namespace {

using namespace dense_test;
using trnsolver::EigJob;

// T is quasi upper triangular with standardized 2×2 blocks, and wr/wi read off it as LAPACK's gees does.
::testing::AssertionResult standard_schur_form(const Mat<float>& t, const std::vector<float>& wr,
                                               const std::vector<float>& wi) {
  const std::int64_t n = t.rows;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j + 2; i < n; ++i)
      if (t(i, j) != 0.0f) return ::testing::AssertionFailure() << "T(" << i << ", " << j << ") != 0";
  for (std::int64_t i = 0; i < n;) {
    const auto k = static_cast<std::size_t>(i);
    if (i + 1 < n && t(i + 1, i) != 0.0f) {
      if (i + 2 < n && t(i + 2, i + 1) != 0.0f)
        return ::testing::AssertionFailure() << "two consecutive subdiagonal entries at " << i;
      if (t(i, i) != t(i + 1, i + 1) || !(t(i, i + 1) * t(i + 1, i) < 0.0f))
        return ::testing::AssertionFailure() << "2x2 block at " << i << " is not standardized";
      const float im = std::sqrt(std::abs(t(i, i + 1))) * std::sqrt(std::abs(t(i + 1, i)));
      if (wr[k] != t(i, i) || wr[k + 1] != t(i, i) || wi[k] != im || wi[k + 1] != -im)
        return ::testing::AssertionFailure() << "wr/wi of the block at " << i << " do not match T";
      i += 2;
    } else {
      if (wr[k] != t(i, i) || wi[k] != 0.0f) return ::testing::AssertionFailure() << "wr/wi at " << i;
      i += 1;
    }
  }
  return ::testing::AssertionSuccess();
}

struct EigOracle {
  std::vector<std::complex<double>> lambda;
  std::vector<double> s;  // reciprocal condition numbers
};

// LAPACK's dgeevx in fp64 on the float data: eigenvalues and their reciprocal condition numbers.
EigOracle lapack_eigenvalues(const Mat<float>& a) {
  const std::int64_t n = a.rows;
  const auto N = static_cast<std::size_t>(n);
  std::vector<double> ad(N * N), wr(N), wi(N), vl(N * N), vr(N * N), scale(N), rconde(N), rcondv(N);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) ad[static_cast<std::size_t>(i + j * n)] = a(i, j);
  lapack_int ilo = 0, ihi = 0;
  double abnrm = 0;
  const auto ln = static_cast<lapack_int>(n);
  EXPECT_EQ(LAPACKE_dgeevx(LAPACK_COL_MAJOR, 'N', 'V', 'V', 'E', ln, ad.data(), ln, wr.data(), wi.data(), vl.data(), ln,
                           vr.data(), ln, &ilo, &ihi, scale.data(), &abnrm, rconde.data(), rcondv.data()),
            0);
  EigOracle o;
  for (std::size_t i = 0; i < N; ++i) o.lambda.emplace_back(wr[i], wi[i]);
  o.s = rconde;
  return o;
}

// Each oracle eigenvalue has a computed one within 30·n·u·‖A‖_F/s(λ) (greedy nearest matching).
void expect_eigenvalues(const Mat<float>& a, const std::vector<float>& wr, const std::vector<float>& wi, double u,
                        const std::string& what) {
  const std::int64_t n = a.rows;
  if (n == 0) return;
  const EigOracle o = lapack_eigenvalues(a);
  const double fro = static_cast<double>(norm_fro(widen(a)));
  std::vector<bool> used(static_cast<std::size_t>(n), false);
  for (std::size_t k = 0; k < o.lambda.size(); ++k) {
    std::size_t best = 0;
    double dist = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < used.size(); ++i) {
      if (used[i]) continue;
      const double d = std::abs(std::complex<double>(wr[i], wi[i]) - o.lambda[k]);
      if (d < dist) dist = d, best = i;
    }
    used[best] = true;
    EXPECT_LE(dist, 30.0 * static_cast<double>(n) * u * fro / o.s[k]) << what << " eigenvalue " << o.lambda[k];
  }
}

// Z·T·Zᵀ, orthogonality, standard form, eigenvalues against dgeevx; sizes 0, 1, 2, 3, tile edges, both layouts;
// one and two threads bitwise equal; values_only gives the same T, wr and wi.
TEST(SimSchur, GeesWithinLapacksRatiosAndEigenvalueBounds) {
  std::mt19937_64 rng(91);
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const std::int64_t n : {0, 1, 2, 3, 5, 31, 127, 128, 129}) {
      if (layout == Layout::row_major && n >= 127 && n != 129) continue;  // tile edges once each, 129 in both
      const Mat<float> a0 = random_mat<float>(n, n, layout, rng);
      Mat<float> t = a0, t2 = a0, t3 = a0, z(n, n, layout), z2 = z;
      const auto N = static_cast<std::size_t>(n);
      std::vector<float> wr(N), wi(N), wr2(N), wi2(N), wr3(N), wi3(N);
      ASSERT_EQ(trnsolver::gees(EigJob::vectors, t.view(), std::span(wr), std::span(wi), z.view(), sim_options(1)), 0);
      ASSERT_EQ(trnsolver::gees(EigJob::vectors, t2.view(), std::span(wr2), std::span(wi2), z2.view(), sim_options(2)),
                0);
      ASSERT_EQ(trnsolver::gees<float>(layout, EigJob::values_only, n, t3.data(), t3.ld, wr3.data(), wi3.data(),
                                       nullptr, 1, sim_options(2)),
                0);
      EXPECT_EQ(t.buf, t2.buf);
      EXPECT_EQ(z.buf, z2.buf);
      EXPECT_EQ(wr, wr2);
      EXPECT_EQ(wi, wi2);
      EXPECT_EQ(t.buf, t3.buf);
      EXPECT_EQ(wr, wr3);
      EXPECT_EQ(wi, wi3);
      EXPECT_TRUE(t.padding_intact() && z.padding_intact());
      const std::string what = std::string(name(layout)) + " n " + std::to_string(n);
      EXPECT_TRUE(standard_schur_form(t, wr, wi)) << what;
      const W zw = widen(z);
      EXPECT_LT(ratio<float>(widen(a0), mul(mul(zw, widen(t)), transpose(zw)), n), kThreshold) << what;
      EXPECT_LT(orthogonality<float>(zw, n), kThreshold) << what;
      expect_eigenvalues(a0, wr, wi, 0x1p-24, what);
    }
}

// Known spectra: Q·blockdiag([1 2; −3 1], 5, [−2 1; −1 −2], 0.5)·Qᵀ has 1 ± i√6, 5, −2 ± i, 0.5; the cyclic
// shift of order 7 (eigenvalues the 7th roots of unity) makes the plain Francis shift stall, so the
// exceptional shifts must act. The schur() view form agrees with gees.
TEST(SimSchur, KnownSpectraIncludingTheStallingPermutation) {
  std::mt19937_64 rng(92);
  W b(6, 6);
  b(0, 0) = 1, b(0, 1) = 2, b(1, 0) = -3, b(1, 1) = 1, b(2, 2) = 5, b(3, 3) = -2, b(3, 4) = 1, b(4, 3) = -1,
       b(4, 4) = -2, b(5, 5) = 0.5L;
  const W q = random_orthogonal(6, rng);
  const Mat<float> a = narrow<float>(mul(mul(q, b), transpose(q)), Layout::col_major);
  const auto r = trnsolver::schur(a.view(), sim_options(2));
  ASSERT_EQ(r.info, 0);
  std::vector<std::complex<double>> expected = {
      {1, std::sqrt(6.0)}, {1, -std::sqrt(6.0)}, {5, 0}, {-2, 1}, {-2, -1}, {0.5, 0}};
  for (const auto& e : expected) {
    double best = 1e9;
    for (std::size_t i = 0; i < 6; ++i) best = std::min(best, std::abs(std::complex<double>(r.wr[i], r.wi[i]) - e));
    // Rounding A to float perturbs it by u₃₂·‖A‖; with the algorithm's 30·n·u·‖A‖_F and these eigenvalues'
    // condition (Q orthogonal, blocks of norm ≤ 5: 1/s(λ) ≤ 3) the bound is 31·n·u·‖A‖_F·3.
    EXPECT_LE(best, 31.0 * 6 * 0x1p-24 * static_cast<double>(norm_fro(widen(a))) * 3) << e;
  }
  for (std::size_t i = 0; i + 1 < 6; ++i)
    if (r.wi[i] != 0.0f && r.wi[i + 1] != 0.0f) {
      EXPECT_GT(r.wi[i], 0.0f);  // the positive imaginary part first
      EXPECT_EQ(r.wi[i + 1], -r.wi[i]);
      ++i;
    }
  const std::int64_t n = 7;
  Mat<float> p(n, n, Layout::row_major), z(n, n, Layout::row_major);
  for (std::int64_t i = 0; i < n; ++i) p(i, (i + 1) % n) = 1.0f;
  std::vector<float> wr(7), wi(7);
  Mat<float> t = p;
  ASSERT_EQ(trnsolver::gees(EigJob::vectors, t.view(), std::span(wr), std::span(wi), z.view(), sim_options(1)), 0);
  EXPECT_TRUE(standard_schur_form(t, wr, wi));
  for (std::int64_t k = 0; k < n; ++k) {
    const std::complex<double> root = std::polar(1.0, 2 * M_PI * static_cast<double>(k) / 7);
    double best = 1e9;
    for (std::size_t i = 0; i < 7; ++i) best = std::min(best, std::abs(std::complex<double>(wr[i], wi[i]) - root));
    EXPECT_LE(best, 30.0 * n * 0x1p-24 * std::sqrt(7.0)) << root;  // normal matrix: s(λ) = 1, ‖P‖_F = √7
  }
  EXPECT_LT(ratio<float>(widen(p), mul(mul(widen(z), widen(t)), transpose(widen(z))), n), kThreshold);
}

// bf16 TensorEngine updates in the Hessenberg reduction: reconstruction and orthogonality at the GEMM's bound.
TEST(SimSchur, Bf16UpdatesWithinTheGemmBound) {
  std::mt19937_64 rng(93);
  const std::int64_t n = 200;
  const Mat<float> a = random_mat<float>(n, n, Layout::col_major, rng);
  const auto r = trnsolver::schur(a.view(), sim_options(2, trncore::MathMode::bf16));
  ASSERT_EQ(r.info, 0);
  const W z = widen(r.z);
  const LD rec = norm1(sub(widen(a), mul(mul(z, widen(r.t)), transpose(z)))) /
                 (static_cast<LD>(n) * norm1(widen(a)) * static_cast<LD>(kBf16GemmBound));
  EXPECT_LT(rec, kThreshold);
  EXPECT_LT(norm1(sub(identity(n), mul(transpose(z), z))) / (static_cast<LD>(n) * static_cast<LD>(kBf16GemmBound)),
            kThreshold);
}

// Exact structure: an upper triangular A is its own Schur form — every reflector of the Hessenberg reduction
// is the identity (nothing below the subdiagonal) and every subdiagonal entry is zero, so Francis deflates at
// once: T = A and Z = I bit for bit, wr = diag(A), wi = 0. A block upper triangular A with a zero subdiagonal
// entry splits into two problems, and a 2×2 block already in standard form ([1 2; −3 1]) is left as it is.
TEST(SimSchur, TriangularAndSplitInputsKeptExactly) {
  std::mt19937_64 rng(94);
  for (const std::int64_t n : {1, 2, 7, 130}) {
    Mat<float> a = random_mat<float>(n, n, Layout::col_major, rng);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = j + 1; i < n; ++i) a(i, j) = 0.0f;
    Mat<float> t = a, z(n, n, Layout::col_major);
    std::vector<float> wr(static_cast<std::size_t>(n)), wi(wr.size());
    ASSERT_EQ(trnsolver::gees(EigJob::vectors, t.view(), std::span(wr), std::span(wi), z.view(), sim_options(2)), 0);
    EXPECT_EQ(t.buf, a.buf) << n;
    for (std::int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(wr[static_cast<std::size_t>(i)], a(i, i));
      EXPECT_EQ(wi[static_cast<std::size_t>(i)], 0.0f);
      for (std::int64_t j = 0; j < n; ++j) EXPECT_EQ(z(i, j), i == j ? 1.0f : 0.0f);
    }
  }
  Mat<float> b(4, 4, Layout::row_major);
  b(0, 0) = 1, b(0, 1) = 2, b(1, 0) = -3, b(1, 1) = 1, b(0, 2) = 4, b(2, 2) = 5, b(2, 3) = 1, b(3, 3) = -1;
  Mat<float> t = b, z(4, 4, Layout::row_major);
  std::vector<float> wr(4), wi(4);
  ASSERT_EQ(trnsolver::gees(EigJob::vectors, t.view(), std::span(wr), std::span(wi), z.view(), sim_options(1)), 0);
  EXPECT_EQ(t.buf, b.buf);
  EXPECT_EQ(wr, (std::vector<float>{1, 1, 5, -1}));
  const float im = std::sqrt(2.0f) * std::sqrt(3.0f);
  EXPECT_EQ(wi, (std::vector<float>{im, -im, 0, 0}));
}

TEST(SimSchur, BadArgumentsThrow) {
  Mat<float> a(4, 4, Layout::col_major), vs(4, 4, Layout::col_major);
  std::vector<float> wr(4), wi(4);
  a(2, 1) = std::numeric_limits<float>::quiet_NaN();
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsolver::gees(EigJob::vectors, a.view(), std::span(wr), std::span(wi), vs.view(), sim_options(1)); },
      "trnsolver::gees", {"a"});
  a(2, 1) = 0;
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] {
        trnsolver::gees<float>(Layout::col_major, EigJob::vectors, 4, a.data(), a.ld, wr.data(), wi.data(), vs.data(),
                               3, sim_options(1));
      },
      "trnsolver::gees", {"ldvs"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsolver::gees<float>(Layout::col_major, EigJob::vectors, 4, a.data(), a.ld, wr.data(), wi.data(), nullptr, 4,
                               sim_options(1));
      },
      "trnsolver::gees", {"vs"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsolver::gees<float>(Layout::col_major, static_cast<EigJob>(7), 4, a.data(), a.ld, wr.data(), wi.data(),
                               vs.data(), vs.ld, sim_options(1));
      },
      "trnsolver::gees", {"job"});
  std::vector<double> d(16, 1.0), dr(4), di(4), dv(16);
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsolver::gees<double>(Layout::col_major, EigJob::vectors, 4, d.data(), 4, dr.data(), di.data(), dv.data(), 4,
                                sim_options(1));
      },
      "trnsolver::gees", {"float"});
}

}  // namespace
