// trnblas level 3 (other than gemm, see host_gemm_test.cpp) and batched gemm on the host, for every type,
// layout, side, uplo, op and diag, against a long-double oracle with the documented componentwise bounds.
// Unreferenced triangles of A hold NaN; the triangle of C that syrk & co. must not write is checked unchanged.
#include "host_blas_test_support.hpp"

namespace {

using namespace trnblas_test;

template <class T>
class Level3 : public ::testing::Test {};
TYPED_TEST_SUITE(Level3, Types);

const std::int64_t kShapes[][2] = {{0, 2}, {2, 0}, {1, 1}, {7, 5}, {129, 2}, {2, 129}, {1, 513}};

// symm/hemm: each element an inner product of length K = m (left) or n (right), times α, plus β·c: γ_{K+2}.
TYPED_TEST(Level3, SymmHemmMeetTheBound) {
  using T = TypeParam;
  std::mt19937_64 rng(31);
  for (bool hermitian : {false, true}) {
    if (hermitian && !is_complex<T>) continue;
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (Side side : {Side::left, Side::right})
        for (Uplo uplo : {Uplo::upper, Uplo::lower})
          for (const auto& s : kShapes) {
            const std::int64_t m = s[0], n = s[1], ka = side == Side::left ? m : n;
            Mat<T> a(ka, ka, layout, rng);
            poison(a, uplo, false);
            const Mat<T> b(m, n, layout, rng);
            Mat<T> c(m, n, layout, rng);
            const auto c0 = c;
            const T alpha = draw<T>(rng), beta = draw<T>(rng);
            if constexpr (is_complex<T>) {
              if (hermitian)
                trnblas::hemm(layout, side, uplo, m, n, alpha, a.data(), a.ld, b.data(), b.ld, beta, c.data(), c.ld);
              else
                trnblas::symm(layout, side, uplo, m, n, alpha, a.data(), a.ld, b.data(), b.ld, beta, c.data(), c.ld);
            } else {
              trnblas::symm(layout, side, uplo, m, n, alpha, a.data(), a.ld, b.data(), b.ld, beta, c.data(), c.ld);
            }
            for (std::int64_t i = 0; i < m; ++i)
              for (std::int64_t j = 0; j < n; ++j) {
                Wide<T> sum = 0;
                long double mag = 0;
                for (std::int64_t p = 0; p < ka; ++p) {
                  const Wide<T> prod = side == Side::left ? sym_at(a, uplo, hermitian, i, p) * widen(b(p, j))
                                                          : widen(b(i, p)) * sym_at(a, uplo, hermitian, p, j);
                  sum += prod;
                  mag += std::abs(prod);
                }
                mag = std::abs(widen(alpha)) * mag + std::abs(widen(beta)) * std::abs(widen(c0(i, j)));
                ASSERT_TRUE(close(c(i, j), widen(alpha) * sum + widen(beta) * widen(c0(i, j)), bound<T>(ka + 2) * mag))
                    << (hermitian ? "hemm " : "symm ") << name(layout) << " " << trnblas::to_string(side) << " "
                    << trnblas::to_string(uplo) << " " << m << "x" << n;
              }
            ASSERT_TRUE(c.padding_unchanged(c0.buf));
          }
  }
}

// syrk/herk (inner length k: γ_{k+2}) and syr2k/her2k (two products summed: inner length 2k, γ_{2k+2}):
// only the `uplo` triangle of C changes, and the Hermitian forms leave a real diagonal.
TYPED_TEST(Level3, RankKUpdatesMeetTheirBounds) {
  using T = TypeParam;
  std::mt19937_64 rng(32);
  const std::int64_t shapes[][2] = {{0, 3}, {3, 0}, {1, 1}, {7, 5}, {129, 3}, {2, 127}};
  for (bool hermitian : {false, true}) {
    if (hermitian && !is_complex<T>) continue;
    const std::vector<Op> ops = hermitian       ? std::vector<Op>{Op::no_trans, Op::conj_trans}
                                : is_complex<T> ? std::vector<Op>{Op::no_trans, Op::trans}
                                                : std::vector<Op>{Op::no_trans, Op::trans, Op::conj_trans};
    for (bool two : {false, true})
      for (Layout layout : {Layout::row_major, Layout::col_major})
        for (Uplo uplo : {Uplo::upper, Uplo::lower})
          for (Op op : ops)
            for (const auto& s : shapes) {
              const std::int64_t n = s[0], k = s[1];
              const bool t = op != Op::no_trans;
              const Mat<T> a(t ? k : n, t ? n : k, layout, rng), b(t ? k : n, t ? n : k, layout, rng);
              Mat<T> c(n, n, layout, rng);
              const auto c0 = c;
              const T alpha = draw<T>(rng);
              const T beta = hermitian ? T(std::real(draw<T>(rng))) : draw<T>(rng);
              const Real<T> ra = std::real(alpha), rb = std::real(beta);
              if constexpr (is_complex<T>) {
                if (hermitian && two)
                  trnblas::her2k(layout, uplo, op, n, k, alpha, a.data(), a.ld, b.data(), b.ld, rb, c.data(), c.ld);
                else if (hermitian)
                  trnblas::herk(layout, uplo, op, n, k, ra, a.data(), a.ld, rb, c.data(), c.ld);
              }
              if (!hermitian && two)
                trnblas::syr2k(layout, uplo, op, n, k, alpha, a.data(), a.ld, b.data(), b.ld, beta, c.data(), c.ld);
              else if (!hermitian)
                trnblas::syrk(layout, uplo, op, n, k, alpha, a.data(), a.ld, beta, c.data(), c.ld);
              const Wide<T> wa = hermitian && !two ? Wide<T>(ra) : widen(alpha);
              // op(X)·op(Y)ᵀ (ᴴ for Hermitian forms), element (i, j).
              const Op second = hermitian ? Op::conj_trans : Op::trans;
              const auto xy = [&](const Mat<T>& x, const Mat<T>& y, std::int64_t i, std::int64_t j, long double& mag) {
                Wide<T> sum = 0;
                for (std::int64_t p = 0; p < k; ++p) {
                  // op(Y)ᵀ(p, j) = op(Y)(j, p), conjugated for Hermitian forms.
                  const Wide<T> prod = op_at(x, op, i, p) * conj_if(op_at(y, op, j, p), second == Op::conj_trans);
                  sum += prod;
                  mag += std::abs(prod);
                }
                return sum;
              };
              for (std::int64_t i = 0; i < n; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                  if (!in_triangle(uplo, i, j)) {
                    ASSERT_EQ(c(i, j), c0(i, j)) << "the other triangle changed";
                    continue;
                  }
                  long double m1 = 0, m2 = 0;
                  Wide<T> want = two ? wa * xy(a, b, i, j, m1) + conj_if(wa, hermitian) * xy(b, a, i, j, m2)
                                     : wa * xy(a, a, i, j, m1);
                  Wide<T> old = widen(c0(i, j));
                  if (hermitian && i == j) old = std::real(old);
                  want += widen(beta) * old;
                  const long double mag = std::abs(wa) * (m1 + m2) + std::abs(widen(beta)) * std::abs(old);
                  ASSERT_TRUE(close(c(i, j), want, bound<T>((two ? 2 * k : k) + 2) * mag))
                      << (two ? "rank-2k " : "rank-k ") << (hermitian ? "hermitian " : "symmetric ") << name(layout)
                      << " " << trnblas::to_string(uplo) << " " << trnblas::to_string(op) << " n=" << n << " k=" << k;
                  if (hermitian && i == j) {
                    ASSERT_EQ(std::imag(widen(c(i, i))), 0.0L);
                  }
                }
              ASSERT_TRUE(c.padding_unchanged(c0.buf));
            }
  }
}

// trmm: inner products of ≤ K terms times α: γ_{K+1}·|α||op(A)||B|. trsm: residual |α·B − op(A)·X̂| ≤
// γ_{K+1}·|op(A)||X̂| + u·|α||B| (α·B rounded once, then Thm 8.5 per column with a reciprocal diagonal).
TYPED_TEST(Level3, TrmmTrsmMeetTheirBounds) {
  using T = TypeParam;
  std::mt19937_64 rng(33);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Side side : {Side::left, Side::right})
      for (Uplo uplo : {Uplo::upper, Uplo::lower})
        for (Op op : {Op::no_trans, Op::trans, Op::conj_trans})
          for (Diag diag : {Diag::non_unit, Diag::unit})
            for (const auto& s : kShapes) {
              const std::int64_t m = s[0], n = s[1], ka = side == Side::left ? m : n;
              Mat<T> a(ka, ka, layout, rng);
              for (std::int64_t i = 0; i < ka; ++i) {
                for (std::int64_t j = 0; j < ka; ++j) a(i, j) *= static_cast<Real<T>>(1.0 / static_cast<double>(ka));
                a(i, i) += static_cast<Real<T>>(1.5);
              }
              poison(a, uplo, diag == Diag::unit);
              Mat<T> b(m, n, layout, rng);
              const auto b0 = b;
              const T alpha = draw<T>(rng);
              // (op(A)·X)(i, j) or (X·op(A))(i, j) in long double, with its magnitude.
              const auto product = [&](const Mat<T>& x, std::int64_t i, std::int64_t j, long double& mag) {
                Wide<T> sum = 0;
                for (std::int64_t p = 0; p < ka; ++p) {
                  const Wide<T> prod = side == Side::left ? tri_op_at(a, uplo, op, diag, i, p) * widen(x(p, j))
                                                          : widen(x(i, p)) * tri_op_at(a, uplo, op, diag, p, j);
                  sum += prod;
                  mag += std::abs(prod);
                }
                return sum;
              };
              trnblas::trmm(layout, side, uplo, op, diag, m, n, alpha, a.data(), a.ld, b.data(), b.ld);
              for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                  long double mag = 0;
                  const Wide<T> want = widen(alpha) * product(b0, i, j, mag);
                  ASSERT_TRUE(close(b(i, j), want, bound<T>(ka + 1) * std::abs(widen(alpha)) * mag))
                      << "trmm " << name(layout) << " " << trnblas::to_string(side) << " " << trnblas::to_string(uplo)
                      << " " << trnblas::to_string(op) << " " << trnblas::to_string(diag) << " " << m << "x" << n;
                }
              ASSERT_TRUE(b.padding_unchanged(b0.buf));
              Mat<T> x = b0;
              trnblas::trsm(layout, side, uplo, op, diag, m, n, alpha, a.data(), a.ld, x.data(), x.ld);
              for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                  long double mag = 0;
                  const Wide<T> ab = widen(alpha) * widen(b0(i, j));
                  const Wide<T> residual = ab - product(x, i, j, mag);
                  ASSERT_LE(std::abs(residual), bound<T>(ka + 1) * mag + bound<T>(1) * std::abs(ab))
                      << "trsm " << name(layout) << " " << trnblas::to_string(side) << " " << trnblas::to_string(uplo)
                      << " " << trnblas::to_string(op) << " " << trnblas::to_string(diag) << " " << m << "x" << n;
                }
              ASSERT_TRUE(x.padding_unchanged(b0.buf));
            }
}

// Batched gemm: every entry meets gemm's γ_{k+2} bound; a zero stride reuses A; both forms agree bit for bit.
TYPED_TEST(Level3, BatchedGemmMeetsTheBound) {
  using T = TypeParam;
  std::mt19937_64 rng(34);
  const std::int64_t shapes[][3] = {{0, 2, 2}, {2, 0, 2}, {3, 2, 0}, {1, 1, 1}, {7, 5, 3}, {2, 3, 129}};
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Op ta : {Op::no_trans, Op::conj_trans})
      for (Op tb : {Op::no_trans, Op::trans})
        for (const auto& s : shapes)
          for (std::int64_t batch : {0, 1, 3}) {
            const std::int64_t m = s[0], n = s[1], k = s[2];
            const bool rm = layout == Layout::row_major;
            const std::int64_t ar = ta == Op::no_trans ? m : k, ac = ta == Op::no_trans ? k : m;
            const std::int64_t br = tb == Op::no_trans ? k : n, bc = tb == Op::no_trans ? n : k;
            const std::int64_t lda = std::max<std::int64_t>(1, rm ? ac : ar) + 1;
            const std::int64_t ldb = std::max<std::int64_t>(1, rm ? bc : br);
            const std::int64_t ldc = std::max<std::int64_t>(1, rm ? n : m) + 2;
            const std::int64_t sa = 0, sb = ldb * std::max<std::int64_t>(1, rm ? br : bc) + 3;
            const std::int64_t sc = ldc * std::max<std::int64_t>(1, rm ? m : n) + 1;
            std::vector<T> a(static_cast<std::size_t>(lda * std::max<std::int64_t>(1, rm ? ar : ac)));
            std::vector<T> b(static_cast<std::size_t>(sb * std::max<std::int64_t>(batch, 1)));
            std::vector<T> c(static_cast<std::size_t>(sc * std::max<std::int64_t>(batch, 1)));
            for (auto* v : {&a, &b, &c})
              for (T& e : *v) e = draw<T>(rng);
            const auto c0 = c;
            const T alpha = draw<T>(rng), beta = draw<T>(rng);
            trnblas::gemm_strided_batched(layout, ta, tb, m, n, k, alpha, a.data(), lda, sa, b.data(), ldb, sb, beta,
                                          c.data(), ldc, sc, batch);
            auto c2 = c0;
            std::vector<const T*> pa, pb;
            std::vector<T*> pc;
            for (std::int64_t i = 0; i < batch; ++i) {
              pa.push_back(a.data());
              pb.push_back(b.data() + i * sb);
              pc.push_back(c2.data() + i * sc);
            }
            trnblas::gemm_batched(layout, ta, tb, m, n, k, alpha, pa.data(), lda, pb.data(), ldb, beta, pc.data(), ldc,
                                  batch);
            ASSERT_EQ(c, c2);
            const auto at = [&](const std::vector<T>& v, std::int64_t off, std::int64_t ld, Op op, std::int64_t i,
                                std::int64_t j) {
              const std::int64_t r = op == Op::no_trans ? i : j, cc = op == Op::no_trans ? j : i;
              return conj_if(widen(v[static_cast<std::size_t>(off + (rm ? r * ld + cc : r + cc * ld))]),
                             op == Op::conj_trans);
            };
            for (std::int64_t e = 0; e < batch; ++e)
              for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                  Wide<T> sum = 0;
                  long double mag = 0;
                  for (std::int64_t p = 0; p < k; ++p) {
                    const Wide<T> prod = at(a, 0, lda, ta, i, p) * at(b, e * sb, ldb, tb, p, j);
                    sum += prod;
                    mag += std::abs(prod);
                  }
                  const Wide<T> old = at(c0, e * sc, ldc, Op::no_trans, i, j);
                  mag = std::abs(widen(alpha)) * mag + std::abs(widen(beta)) * std::abs(old);
                  const T got = c[static_cast<std::size_t>(e * sc + (rm ? i * ldc + j : i + j * ldc))];
                  ASSERT_TRUE(close(got, widen(alpha) * sum + widen(beta) * old, bound<T>(k + 2) * mag))
                      << name(layout) << " " << m << "x" << n << "x" << k << " entry " << e;
                }
          }
}

}  // namespace
