// sytrf (Bunch–Kaufman LDLᵀ) on the sim backend (float data); the host sytrs solves with its factors.
//
// Tolerances. Under MathMode::fp32 with ProductModel::exact the trailing GEMM updates are fp32 products
// accumulated in fp32 and the panels VectorEngine fp32: LAPACK's ssytrf in fp32, so LAPACK's own criteria hold
// with u = 2⁻²⁴ (dense_test_support.hpp, threshold 30): dsyt01's ‖A − L·D·Lᵀ‖₁/(n·‖A‖₁·u) with the factors read
// in LAPACK's documented format (ldl_ratio — the same oracle the host test uses), and dget02's
// ‖B − A·X‖₁/(n·‖A‖₁·‖X‖₁·u) for X from the host sytrs. Under bf16 updates u becomes the GEMM's single-pass
// bound (1+2⁻⁸)³(1+γ₁₂₈) − 1 (docs/trnblas-sim.md). Bunch–Kaufman's growth is bounded and modest on random
// matrices (Higham Thm 11.3), so the c·n·u form holds as for LU.
#include "dense_test_support.hpp"

#include <span>

namespace {

using namespace dense_test;

// Random symmetric indefinite matrices: sizes 0, 1, 2, 5, a prime, tile edges and three panels, both layouts
// and triangles (the other one NaN: never read); 2×2 pivots occur; one and two threads bitwise equal.
TEST(SimLdlt, SytrfWithinLapacksRatiosAndSolvesWithTheHostSytrs) {
  std::mt19937_64 rng(111);
  bool saw_2x2 = false, saw_interchange = false;
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const Uplo uplo : {Uplo::lower, Uplo::upper})
      for (const std::int64_t n : {0, 1, 2, 5, 31, 127, 128, 129, 300}) {
        if (n >= 127 && (layout == Layout::row_major) != (uplo == Uplo::upper)) continue;  // big sizes twice
        const Mat<float> a0 = random_sym<float>(n, layout, rng);
        Mat<float> a = a0;
        poison_other(a, uplo);
        Mat<float> a2 = a;
        std::vector<std::int64_t> ipiv(static_cast<std::size_t>(n)), ipiv2(ipiv.size());
        ASSERT_EQ(trnsolver::sytrf(uplo, a.view(), std::span(ipiv), sim_options(1)), 0);
        ASSERT_EQ(trnsolver::sytrf(uplo, a2.view(), std::span(ipiv2), sim_options(2)), 0);
        EXPECT_EQ(ipiv, ipiv2);
        EXPECT_EQ(0, std::memcmp(a.buf.data(), a2.buf.data(), a.buf.size() * sizeof(float)));  // NaNs compare too
        EXPECT_TRUE(a.padding_intact());
        for (std::int64_t k = 0; k < n; ++k) {
          saw_2x2 = saw_2x2 || ipiv[static_cast<std::size_t>(k)] < 0;
          saw_interchange = saw_interchange || ipiv[static_cast<std::size_t>(k)] != k + 1;
        }
        const std::string what =
            std::string(name(layout)) + " " + std::string(trnblas::to_string(uplo)) + " n " + std::to_string(n);
        EXPECT_LT(ldl_ratio(widen(a0), a, uplo, ipiv), kThreshold) << what;
        const Mat<float> b0 = random_mat<float>(n, 3, layout, rng);
        Mat<float> x = b0;
        trnsolver::sytrs(uplo, a.view(), std::span<const std::int64_t>(ipiv), x.view(), sim_options(2));
        EXPECT_LT(solve_ratio(a0, Op::no_trans, x, b0), kThreshold) << what;
      }
  EXPECT_TRUE(saw_2x2) << "no 2x2 pivot block was exercised";
  EXPECT_TRUE(saw_interchange);
}

// bf16 trailing updates: the reconstruction at the GEMM's bound (ratio rescaled from u₃₂ to ε_bf16).
TEST(SimLdlt, Bf16UpdatesWithinTheGemmBound) {
  std::mt19937_64 rng(112);
  const std::int64_t n = 260;
  const double eps = kBf16GemmBound;
  for (const Uplo uplo : {Uplo::lower, Uplo::upper}) {
    const Mat<float> a0 = random_sym<float>(n, Layout::col_major, rng);
    Mat<float> a = a0;
    std::vector<std::int64_t> ipiv(static_cast<std::size_t>(n));
    ASSERT_EQ(trnsolver::sytrf(uplo, a.view(), std::span(ipiv), sim_options(2, trncore::MathMode::bf16)), 0);
    EXPECT_LT(ldl_ratio(widen(a0), a, uplo, ipiv) * unit<float>() / static_cast<LD>(eps), kThreshold);
  }
}

// Singular and structured inputs, no exception: the zero matrix (info 1, as LAPACK: the first zero 1×1 block),
// a zero row/column in the middle (info at it), and [0 1; 1 0], which needs a 2×2 pivot and has no zero
// pivot (info 0); upper counts from the bottom as LAPACK's upper sytrf does.
TEST(SimLdlt, SingularAndPivotingInputs) {
  for (const Uplo uplo : {Uplo::lower, Uplo::upper}) {
    Mat<float> z(3, 3, Layout::col_major);
    std::vector<std::int64_t> ipiv(3);
    EXPECT_EQ(trnsolver::sytrf(uplo, z.view(), std::span(ipiv), sim_options(1)), uplo == Uplo::lower ? 1 : 3);
    std::mt19937_64 rng(113);
    Mat<float> m = random_sym<float>(6, Layout::row_major, rng);
    for (std::int64_t i = 0; i < 6; ++i) m(i, 3) = m(3, i) = 0.0f;
    std::vector<std::int64_t> p6(6);
    const std::int64_t info = trnsolver::sytrf(uplo, m.view(), std::span(p6), sim_options(1));
    EXPECT_GT(info, 0);
    EXPECT_LE(info, 6);
    Mat<float> s(2, 2, Layout::col_major);
    s(0, 1) = s(1, 0) = 1.0f;
    const Mat<float> s0 = s;
    std::vector<std::int64_t> p2(2);
    EXPECT_EQ(trnsolver::sytrf(uplo, s.view(), std::span(p2), sim_options(1)), 0);
    EXPECT_LT(p2[0], 0);
    EXPECT_EQ(p2[0], p2[1]);
    EXPECT_LT(ldl_ratio(widen(s0), s, uplo, p2), kThreshold);
  }
}

TEST(SimLdlt, BadArgumentsThrow) {
  Mat<float> a(4, 4, Layout::col_major);
  std::vector<std::int64_t> ipiv(4);
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnsolver::sytrf<float>(Layout::col_major, Uplo::lower, 4, a.data(), 3, ipiv.data(), sim_options(1)); },
      "trnsolver::sytrf", {"lda"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsolver::sytrf<float>(Layout::col_major, Uplo::lower, 4, a.data(), a.ld, nullptr, sim_options(1)); },
      "trnsolver::sytrf", {"ipiv"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsolver::sytrf<float>(Layout::col_major, static_cast<Uplo>(9), 4, a.data(), a.ld, ipiv.data(),
                                sim_options(1));
      },
      "trnsolver::sytrf", {"uplo"});
  std::vector<double> d(16, 1.0);
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] { trnsolver::sytrf<double>(Layout::col_major, Uplo::lower, 4, d.data(), 4, ipiv.data(), sim_options(1)); },
      "trnsolver::sytrf", {"float"});
}

}  // namespace
