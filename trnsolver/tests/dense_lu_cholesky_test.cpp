// LU (getrf/getrs/gesv), Cholesky (potrf/potrs/posv) and LDLᵀ (sytrf/sytrs) in both layouts and
// types: LAPACK's test ratios (dense_test_support.hpp) below 30, reconstructed in long double from the
// returned factors; singular and non-SPD inputs come back as info > 0 without an exception.
#include "dense_test_support.hpp"

namespace {

using namespace dense_test;

template <class T>
class Lu : public ::testing::Test {};
TYPED_TEST_SUITE(Lu, Types);
template <class T>
class Cholesky : public ::testing::Test {};
TYPED_TEST_SUITE(Cholesky, Types);

const std::int64_t kSquare[] = {0, 1, 2, 3, 7, 13, 31, 127, 128, 129};
const std::int64_t kShapes[][2] = {{0, 0},   {0, 4},   {4, 0},   {1, 1},     {2, 2},     {5, 3},    {3, 5},
                                   {200, 7}, {7, 200}, {37, 37}, {127, 127}, {128, 128}, {129, 129}};

// P·L·U from getrf's output, compared with A by dget01's ratio ‖PᵀA − L·U‖₁/(n·‖A‖₁·u).
template <class T>
LD lu_ratio(const Mat<T>& a0, const Mat<T>& lu, const std::vector<std::int64_t>& ipiv) {
  const std::int64_t m = a0.rows, n = a0.cols, k = std::min(m, n);
  W pa = widen(a0);
  for (std::int64_t i = 0; i < k; ++i) {
    const std::int64_t p = ipiv[static_cast<std::size_t>(i)] - 1;
    for (std::int64_t j = 0; j < n; ++j) std::swap(pa(i, j), pa(p, j));
  }
  W l(m, k), u(k, n);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < k; ++j) l(i, j) = i == j ? 1 : i > j ? static_cast<LD>(lu(i, j)) : 0;
  for (std::int64_t i = 0; i < k; ++i)
    for (std::int64_t j = i; j < n; ++j) u(i, j) = lu(i, j);
  return ratio<T>(pa, mul(l, u), n);
}

TYPED_TEST(Lu, GetrfFactorsEveryShapeWithinLapacksRatio) {
  using T = TypeParam;
  std::mt19937_64 rng(1);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (const auto& s : kShapes) {
      const std::int64_t m = s[0], n = s[1];
      const Mat<T> a0 = random_mat<T>(m, n, layout, rng);
      Mat<T> a = a0;
      std::vector<std::int64_t> ipiv(static_cast<std::size_t>(std::min(m, n)) + 1, -5);
      ASSERT_EQ(trnsolver::getrf(layout, m, n, a.data(), a.ld, ipiv.data()), 0);
      EXPECT_EQ(ipiv.back(), -5) << "getrf wrote beyond min(m, n) pivots";
      ipiv.pop_back();
      for (std::int64_t p : ipiv) ASSERT_TRUE(p >= 1 && p <= m);
      EXPECT_LT(lu_ratio(a0, a, ipiv), kThreshold) << name(layout) << " " << m << "x" << n;
      EXPECT_TRUE(a.padding_intact());
    }
}

// The ratio is sensitive: one entry of U off by 1000·u·‖A‖ pushes it far above the threshold, and the
// unperturbed factor of a 128×128 matrix sits well below it (so the threshold is not vacuous either way).
TYPED_TEST(Lu, TheRatioDetectsAPerturbedFactor) {
  using T = TypeParam;
  std::mt19937_64 rng(7);
  const std::int64_t n = 128;
  const Mat<T> a0 = random_mat<T>(n, n, Layout::col_major, rng);
  Mat<T> a = a0;
  std::vector<std::int64_t> ipiv(n);
  ASSERT_EQ(trnsolver::getrf(a.view(), std::span(ipiv)), 0);
  const LD clean = lu_ratio(a0, a, ipiv);
  EXPECT_LT(clean, 1);
  a(n / 2, n - 1) += static_cast<T>(1000 * unit<T>() * norm1(widen(a0)));
  EXPECT_GT(lu_ratio(a0, a, ipiv), kThreshold) << "clean ratio " << static_cast<double>(clean);
}

TYPED_TEST(Lu, GetrsAndGesvSolveWithinLapacksRatio) {
  using T = TypeParam;
  std::mt19937_64 rng(2);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (std::int64_t n : kSquare)
      for (std::int64_t nrhs : {1, 3}) {
        const Mat<T> a0 = random_mat<T>(n, n, layout, rng);
        const Mat<T> b0 = random_mat<T>(n, nrhs, layout, rng);
        Mat<T> lu = a0;
        std::vector<std::int64_t> ipiv(static_cast<std::size_t>(n));
        ASSERT_EQ(trnsolver::getrf(layout, n, n, lu.data(), lu.ld, ipiv.data()), 0);
        for (Op trans : {Op::no_trans, Op::trans}) {
          Mat<T> x = b0;
          trnsolver::getrs(layout, trans, n, nrhs, lu.data(), lu.ld, ipiv.data(), x.data(), x.ld);
          EXPECT_LT(solve_ratio(a0, trans, x, b0), kThreshold) << name(layout) << " n = " << n;
          EXPECT_TRUE(x.padding_intact());
        }
        Mat<T> a = a0, x = b0;
        std::vector<std::int64_t> ipiv2(static_cast<std::size_t>(n));
        ASSERT_EQ(trnsolver::gesv(a.view(), std::span(ipiv2), x.view()), 0);
        EXPECT_LT(solve_ratio(a0, Op::no_trans, x, b0), kThreshold) << name(layout) << " n = " << n;
        EXPECT_EQ(ipiv, ipiv2);
      }
}

// A zero column j makes U(j, j) exactly zero: info = j + 1, no exception; gesv leaves B unchanged.
TYPED_TEST(Lu, SingularMatricesReturnInfo) {
  using T = TypeParam;
  std::mt19937_64 rng(3);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (std::int64_t n : {1, 2, 5, 64}) {
      const std::int64_t j0 = n / 2;
      Mat<T> a = random_mat<T>(n, n, layout, rng);
      for (std::int64_t i = 0; i < n; ++i) a(i, j0) = 0;
      Mat<T> a2 = a;
      std::vector<std::int64_t> ipiv(static_cast<std::size_t>(n));
      EXPECT_EQ(trnsolver::getrf(layout, n, n, a.data(), a.ld, ipiv.data()), j0 + 1) << name(layout) << " " << n;
      Mat<T> b = random_mat<T>(n, 2, layout, rng);
      const Mat<T> b0 = b;
      EXPECT_EQ(trnsolver::gesv(layout, n, 2, a2.data(), a2.ld, ipiv.data(), b.data(), b.ld), j0 + 1);
      EXPECT_EQ(b.buf, b0.buf);
    }
  // The zero matrix: the first pivot is zero.
  Mat<T> z(4, 4, Layout::col_major);
  std::vector<std::int64_t> ipiv(4);
  EXPECT_EQ(trnsolver::getrf(z.view(), std::span(ipiv)), 1);
  // Rank-deficient rectangular: two equal rows of a 3x2 matrix still factor (rank 2 = min(m, n)); a
  // 2x3 matrix with equal rows does not (info = 2).
  Mat<T> r(2, 3, Layout::row_major);
  for (std::int64_t j = 0; j < 3; ++j) r(0, j) = r(1, j) = static_cast<T>(j + 1);
  std::vector<std::int64_t> p2(2);
  EXPECT_EQ(trnsolver::getrf(r.view(), std::span(p2)), 2);
}

TYPED_TEST(Cholesky, PotrfFactorsWithinLapacksRatioAndReadsOneTriangle) {
  using T = TypeParam;
  std::mt19937_64 rng(4);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (std::int64_t n : kSquare) {
        Mat<T> a = random_spd<T>(n, layout, rng);
        const W full = widen(a);
        poison_other(a, uplo);
        const Mat<T> before = a;
        ASSERT_EQ(trnsolver::potrf(layout, uplo, n, a.data(), a.ld), 0);
        // dpot01: ‖A − L·Lᵀ‖₁ / (n·‖A‖₁·u), L from the `uplo` triangle (U = Lᵀ for upper).
        W l(n, n);
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j <= i; ++j) l(i, j) = uplo == Uplo::lower ? a(i, j) : a(j, i);
        EXPECT_LT(ratio<T>(full, mul(l, transpose(l)), n), kThreshold)
            << name(layout) << " " << trnblas::to_string(uplo) << " n = " << n;
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j < n; ++j)
            if (uplo == Uplo::lower ? j > i : j < i) {
              ASSERT_TRUE(std::isnan(a(i, j))) << "other triangle written";
            }
        EXPECT_TRUE(a.padding_intact());
        (void)before;
      }
}

TYPED_TEST(Cholesky, PotrsAndPosvSolveWithinLapacksRatio) {
  using T = TypeParam;
  std::mt19937_64 rng(5);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (std::int64_t n : {0, 1, 2, 13, 129})
        for (std::int64_t nrhs : {1, 4}) {
          const Mat<T> a0 = random_spd<T>(n, layout, rng);
          const Mat<T> b0 = random_mat<T>(n, nrhs, layout, rng);
          Mat<T> f = a0;
          poison_other(f, uplo);
          ASSERT_EQ(trnsolver::potrf(uplo, f.view()), 0);
          Mat<T> x = b0;
          trnsolver::potrs(uplo, f.view(), x.view());
          EXPECT_LT(solve_ratio(a0, Op::no_trans, x, b0), kThreshold) << name(layout) << " n = " << n;
          EXPECT_TRUE(x.padding_intact());
          Mat<T> a = a0, y = b0;
          poison_other(a, uplo);
          ASSERT_EQ(trnsolver::posv(layout, uplo, n, nrhs, a.data(), a.ld, y.data(), y.ld), 0);
          EXPECT_EQ(x.buf, y.buf) << "posv = potrf + potrs";
        }
}

// A negative pivot at position k (0-based) of an otherwise SPD matrix: info = k + 1; B unchanged by posv.
TYPED_TEST(Cholesky, NonSpdReturnsInfo) {
  using T = TypeParam;
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::lower, Uplo::upper}) {
      const std::int64_t n = 6;
      Mat<T> a(n, n, layout);
      for (std::int64_t i = 0; i < n; ++i) a(i, i) = 4;
      a(3, 3) = -1;
      Mat<T> a2 = a;
      EXPECT_EQ(trnsolver::potrf(layout, uplo, n, a.data(), a.ld), 4);
      Mat<T> b(n, 1, layout);
      b(0, 0) = 1;
      const Mat<T> b0 = b;
      EXPECT_EQ(trnsolver::posv(uplo, a2.view(), b.view()), 4);
      EXPECT_EQ(b.buf, b0.buf);
      // Indefinite 2x2 [[1, 2], [2, 1]]: the second leading minor is −3.
      Mat<T> c(2, 2, layout);
      c(0, 0) = c(1, 1) = 1;
      c(0, 1) = c(1, 0) = 2;
      EXPECT_EQ(trnsolver::potrf(uplo, c.view()), 2);
    }
}

TYPED_TEST(Cholesky, SytrfAndSytrsOnIndefiniteMatrices) {
  using T = TypeParam;
  std::mt19937_64 rng(6);
  bool saw_2x2 = false;
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::lower, Uplo::upper})
      for (std::int64_t n : {0, 1, 2, 5, 31, 128, 129}) {
        Mat<T> a = random_sym<T>(n, layout, rng);
        const W full = widen(a);
        const Mat<T> a0 = a;
        poison_other(a, uplo);
        std::vector<std::int64_t> ipiv(static_cast<std::size_t>(n));
        ASSERT_EQ(trnsolver::sytrf(uplo, a.view(), std::span(ipiv)), 0);
        for (std::int64_t p : ipiv) saw_2x2 = saw_2x2 || p < 0;
        EXPECT_LT(ldl_ratio(full, a, uplo, ipiv), kThreshold)
            << name(layout) << " " << trnblas::to_string(uplo) << " n = " << n;
        const Mat<T> b0 = random_mat<T>(n, 2, layout, rng);
        Mat<T> x = b0;
        trnsolver::sytrs(layout, uplo, n, 2, a.data(), a.ld, ipiv.data(), x.data(), x.ld);
        EXPECT_LT(solve_ratio(a0, Op::no_trans, x, b0), kThreshold) << name(layout) << " n = " << n;
      }
  EXPECT_TRUE(saw_2x2) << "no 2x2 pivot block was exercised";
}

// A zero matrix: D(0, 0) = 0 exactly, info = 1 (LAPACK reports the first zero block).
TYPED_TEST(Cholesky, SytrfOfASingularMatrixReturnsInfo) {
  using T = TypeParam;
  Mat<T> z(3, 3, Layout::row_major);
  std::vector<std::int64_t> ipiv(3);
  EXPECT_GT(trnsolver::sytrf(Uplo::lower, z.view(), std::span(ipiv)), 0);
}

}  // namespace
