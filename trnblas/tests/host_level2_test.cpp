// trnblas level 2 on the host for every type, layout, op, uplo and diag against a long-double oracle with the
// documented componentwise bounds. Unreferenced triangles hold NaN, so a routine that reads them fails.
#include "host_blas_test_support.hpp"

namespace {

using namespace trnblas_test;

template <class T>
class Level2 : public ::testing::Test {};
TYPED_TEST_SUITE(Level2, Types);

// gemv: each y_i is an inner product of length K (op(A)'s columns) scaled by α plus β·y_i: γ_{K+2}.
TYPED_TEST(Level2, GemvMeetsTheBound) {
  using T = TypeParam;
  std::mt19937_64 rng(21);
  const std::int64_t shapes[][2] = {{0, 3}, {3, 0}, {1, 1}, {2, 7}, {7, 2}, {127, 129}, {1, 513}, {513, 1}};
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Op op : {Op::no_trans, Op::trans, Op::conj_trans})
      for (const auto& s : shapes)
        for (const auto& inc : {std::pair<std::int64_t, std::int64_t>{1, 1}, {-2, 3}}) {
          const std::int64_t m = s[0], n = s[1];
          const bool t = op != Op::no_trans;
          const std::int64_t rows = t ? n : m, cols = t ? m : n;  // op(A) is rows×cols
          const Mat<T> a(m, n, layout, rng);
          const Vec<T> x(cols, inc.first, rng);
          Vec<T> y(rows, inc.second, rng);
          const auto y0 = y;
          const T alpha = draw<T>(rng), beta = draw<T>(rng);
          trnblas::gemv(layout, op, m, n, alpha, a.data(), a.ld, x.data(), x.inc, beta, y.data(), y.inc);
          if (m == 0 || n == 0) {  // reference BLAS: an empty A returns before touching y, beta or not
            ASSERT_EQ(y.buf, y0.buf);
            continue;
          }
          for (std::int64_t i = 0; i < rows; ++i) {
            Wide<T> sum = 0;
            long double mag = 0;
            for (std::int64_t j = 0; j < cols; ++j) {
              sum += op_at(a, op, i, j) * widen(x[j]);
              mag += std::abs(op_at(a, op, i, j)) * std::abs(widen(x[j]));
            }
            const Wide<T> want = widen(alpha) * sum + widen(beta) * widen(y0[i]);
            mag = std::abs(widen(alpha)) * mag + std::abs(widen(beta)) * std::abs(widen(y0[i]));
            ASSERT_TRUE(close(y[i], want, bound<T>(cols + 2) * mag))
                << name(layout) << " " << trnblas::to_string(op) << " " << m << "x" << n << " i=" << i;
          }
          ASSERT_TRUE(y.gaps_unchanged(y0.buf));
        }
}

// symv/hemv: gemv's bound with K = n on the matrix the stored triangle defines.
TYPED_TEST(Level2, SymvHemvMeetTheBound) {
  using T = TypeParam;
  std::mt19937_64 rng(22);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::upper, Uplo::lower})
      for (std::int64_t n : {0, 1, 2, 7, 128, 129}) {
        Mat<T> a(n, n, layout, rng);
        poison(a, uplo, false);
        const Vec<T> x(n, -1, rng);
        Vec<T> y(n, 2, rng);
        const auto y0 = y;
        const T alpha = draw<T>(rng), beta = draw<T>(rng);
        if constexpr (is_complex<T>)
          trnblas::hemv(layout, uplo, n, alpha, a.data(), a.ld, x.data(), x.inc, beta, y.data(), y.inc);
        else
          trnblas::symv(layout, uplo, n, alpha, a.data(), a.ld, x.data(), x.inc, beta, y.data(), y.inc);
        for (std::int64_t i = 0; i < n; ++i) {
          Wide<T> sum = 0;
          long double mag = 0;
          for (std::int64_t j = 0; j < n; ++j) {
            sum += sym_at(a, uplo, is_complex<T>, i, j) * widen(x[j]);
            mag += std::abs(sym_at(a, uplo, is_complex<T>, i, j)) * std::abs(widen(x[j]));
          }
          mag = std::abs(widen(alpha)) * mag + std::abs(widen(beta)) * std::abs(widen(y0[i]));
          ASSERT_TRUE(close(y[i], widen(alpha) * sum + widen(beta) * widen(y0[i]), bound<T>(n + 2) * mag))
              << name(layout) << " " << trnblas::to_string(uplo) << " n=" << n << " i=" << i;
        }
        ASSERT_TRUE(y.gaps_unchanged(y0.buf));
      }
}

// trmv: each x_i an inner product of ≤ n terms: γ_n·|op(T)||x|. trsv: the residual b − op(T)·x̂ = ΔT·x̂ with
// |ΔT| ≤ γ_{n+1}|op(T)| (Higham Thm 8.5 plus one rounding for a reciprocal diagonal), so
// |b − op(T)x̂| ≤ γ_{n+1}·|op(T)||x̂| whatever the conditioning. Off-diagonals are scaled by 1/n and the
// diagonal is near 1.5 so x̂ stays moderate (the bound does not need it; the NaN checks do).
TYPED_TEST(Level2, TrmvTrsvMeetTheBounds) {
  using T = TypeParam;
  std::mt19937_64 rng(23);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::upper, Uplo::lower})
      for (Op op : {Op::no_trans, Op::trans, Op::conj_trans})
        for (Diag diag : {Diag::non_unit, Diag::unit})
          for (std::int64_t n : {0, 1, 2, 7, 128, 129}) {
            Mat<T> a(n, n, layout, rng);
            for (std::int64_t i = 0; i < n; ++i) {
              for (std::int64_t j = 0; j < n; ++j) a(i, j) *= static_cast<Real<T>>(1.0 / static_cast<double>(n));
              a(i, i) += static_cast<Real<T>>(1.5);  // diagonal in [1.5 - 1/n, 1.5 + 1/n]
            }
            poison(a, uplo, diag == Diag::unit);
            const std::int64_t inc = n % 2 == 0 ? -2 : 1;
            Vec<T> x(n, inc, rng);
            const auto x0 = x;
            trnblas::trmv(layout, uplo, op, diag, n, a.data(), a.ld, x.data(), x.inc);
            for (std::int64_t i = 0; i < n; ++i) {
              Wide<T> sum = 0;
              long double mag = 0;
              for (std::int64_t j = 0; j < n; ++j) {
                sum += tri_op_at(a, uplo, op, diag, i, j) * widen(x0[j]);
                mag += std::abs(tri_op_at(a, uplo, op, diag, i, j)) * std::abs(widen(x0[j]));
              }
              ASSERT_TRUE(close(x[i], sum, bound<T>(n) * mag)) << "trmv " << name(layout) << " " << n << " " << i;
            }
            ASSERT_TRUE(x.gaps_unchanged(x0.buf));
            Vec<T> b = x0;
            trnblas::trsv(layout, uplo, op, diag, n, a.data(), a.ld, b.data(), b.inc);
            for (std::int64_t i = 0; i < n; ++i) {
              Wide<T> residual = widen(x0[i]);
              long double mag = 0;
              for (std::int64_t j = 0; j < n; ++j) {
                residual -= tri_op_at(a, uplo, op, diag, i, j) * widen(b[j]);
                mag += std::abs(tri_op_at(a, uplo, op, diag, i, j)) * std::abs(widen(b[j]));
              }
              ASSERT_LE(std::abs(residual), bound<T>(n + 1) * mag)
                  << "trsv " << name(layout) << " " << trnblas::to_string(uplo) << " " << trnblas::to_string(op) << " "
                  << trnblas::to_string(diag) << " n=" << n << " i=" << i;
            }
            ASSERT_TRUE(b.gaps_unchanged(x0.buf));
          }
}

// ger/geru/gerc: a_ij + (α·x_i)·conj?(y_j): three roundings, γ₃(|α||x_i||y_j| + |a_ij|).
TYPED_TEST(Level2, GerMeetsGamma3) {
  using T = TypeParam;
  std::mt19937_64 rng(24);
  const std::int64_t shapes[][2] = {{0, 3}, {3, 0}, {1, 1}, {2, 7}, {129, 127}, {1, 513}, {513, 1}};
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (const auto& s : shapes)
      for (bool conjugate : {false, true}) {
        if (conjugate && !is_complex<T>) continue;
        const std::int64_t m = s[0], n = s[1];
        const Vec<T> x(m, 3, rng), y(n, -1, rng);
        Mat<T> a(m, n, layout, rng);
        const auto a0 = a;
        const T alpha = draw<T>(rng);
        if constexpr (is_complex<T>) {
          if (conjugate)
            trnblas::gerc(layout, m, n, alpha, x.data(), x.inc, y.data(), y.inc, a.data(), a.ld);
          else
            trnblas::geru(layout, m, n, alpha, x.data(), x.inc, y.data(), y.inc, a.data(), a.ld);
        } else {
          trnblas::ger(layout, m, n, alpha, x.data(), x.inc, y.data(), y.inc, a.data(), a.ld);
        }
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            const Wide<T> prod = widen(alpha) * widen(x[i]) * conj_if(widen(y[j]), conjugate);
            const long double mag = std::abs(prod) + std::abs(widen(a0(i, j)));
            ASSERT_TRUE(close(a(i, j), prod + widen(a0(i, j)), bound<T>(3) * mag)) << m << "x" << n;
          }
        ASSERT_TRUE(a.padding_unchanged(a0.buf));
      }
}

// syr/her: fl(fl(α·x_i)·conj(x_j)) + a_ij, three roundings: γ₃. syr2/her2: two such products (two
// roundings each) and two additions: γ₄: only the
// `uplo` triangle changes; her/her2 leave a real diagonal.
TYPED_TEST(Level2, SymmetricRankUpdatesMeetTheirBounds) {
  using T = TypeParam;
  std::mt19937_64 rng(25);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Uplo uplo : {Uplo::upper, Uplo::lower})
      for (std::int64_t n : {0, 1, 2, 7, 129})
        for (bool two : {false, true}) {
          const Vec<T> x(n, -2, rng), y(n, 1, rng);
          Mat<T> a(n, n, layout, rng);
          const auto a0 = a;
          const T alpha2 = draw<T>(rng);
          const Real<T> alpha1 = std::real(draw<T>(rng));
          if constexpr (is_complex<T>) {
            if (two)
              trnblas::her2(layout, uplo, n, alpha2, x.data(), x.inc, y.data(), y.inc, a.data(), a.ld);
            else
              trnblas::her(layout, uplo, n, alpha1, x.data(), x.inc, a.data(), a.ld);
          } else {
            if (two)
              trnblas::syr2(layout, uplo, n, alpha2, x.data(), x.inc, y.data(), y.inc, a.data(), a.ld);
            else
              trnblas::syr(layout, uplo, n, alpha1, x.data(), x.inc, a.data(), a.ld);
          }
          constexpr bool h = is_complex<T>;
          for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
              if (!in_triangle(uplo, i, j)) {
                ASSERT_EQ(a(i, j), a0(i, j)) << "the other triangle changed";
                continue;
              }
              Wide<T> update;
              long double mag;
              if (two) {
                const Wide<T> p = widen(alpha2) * widen(x[i]) * conj_if(widen(y[j]), h);
                const Wide<T> q = conj_if(widen(alpha2), h) * widen(y[i]) * conj_if(widen(x[j]), h);
                update = p + q;
                mag = std::abs(p) + std::abs(q);
              } else {
                update = static_cast<long double>(alpha1) * widen(x[i]) * conj_if(widen(x[j]), h);
                mag = std::abs(update);
              }
              Wide<T> old = widen(a0(i, j));
              if (h && i == j) old = std::real(old);  // the diagonal of a Hermitian matrix is taken as real
              mag += std::abs(old);
              ASSERT_TRUE(close(a(i, j), update + old, bound<T>(two ? 4 : 3) * mag))
                  << name(layout) << " " << trnblas::to_string(uplo) << " n=" << n << " (" << i << "," << j << ")";
              if (h && i == j) {
                ASSERT_EQ(std::imag(widen(a(i, i))), 0.0L);
              }
            }
          ASSERT_TRUE(a.padding_unchanged(a0.buf));
        }
}

// gemv's view form is the pointer call; shapes are checked.
TYPED_TEST(Level2, GemvViewForm) {
  using T = TypeParam;
  std::mt19937_64 rng(26);
  const Mat<T> a(5, 3, Layout::col_major, rng);
  const Vec<T> x(5, -1, rng);
  Vec<T> y(3, 2, rng);
  auto y2 = y;
  const trncore::MatrixView<const T> va(a.data(), 5, 3, a.ld, Layout::col_major);
  trnblas::gemv(Op::trans, T(2), va, trncore::VectorView<const T>(x.data(), 5, -1), T(0.5),
                trncore::VectorView<T>(y.data(), 3, 2));
  trnblas::gemv(Layout::col_major, Op::trans, 5, 3, T(2), a.data(), a.ld, x.data(), -1, T(0.5), y2.data(), 2);
  EXPECT_EQ(y.buf, y2.buf);
  EXPECT_EQ(message_of([&] {
              trnblas::gemv(Op::no_trans, T(2), va, trncore::VectorView<const T>(x.data(), 5, -1), T(0.5),
                            trncore::VectorView<T>(y.data(), 3, 2));
            }),
            "trnblas::gemv: x has 5 elements but A's columns has 3: pass x and A's columns of one size");
}

}  // namespace
