// trnblas::gemm on the host backend for every type, layout and transpose against a long-double oracle
// written here (op(A)·op(B) element by element), with the tolerance the call reports: the componentwise
// bound γ_{k+2}(|α||A||B| + |β||C|) (Higham, ASNA §3.5; complex arithmetic with 4u in place of u,
// which covers the √2·γ₂ of a complex product, §3.6). The oracle's own error, k·2^-64 relative, is at
// least 2^11 times smaller than every bound checked. Also every bad argument, with its message.
#include "host_blas_test_support.hpp"

#include <trnblas/trnblas.hpp>
#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <limits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace trnblas_test;  // draw, Wide, widen, conj_if, message_of, Types

// Element (i, j) of op(X) for X stored in `layout` with leading dimension ld.
template <class T>
T op_at(const std::vector<T>& x, Layout layout, Op op, std::int64_t ld, std::int64_t i, std::int64_t j) {
  const bool t = op != Op::no_trans;
  const std::int64_t r = t ? j : i, c = t ? i : j;
  return conj_if(x[static_cast<std::size_t>(layout == Layout::row_major ? r * ld + c : r + c * ld)],
                 op == Op::conj_trans);
}

template <class T>
void check_case(Layout layout, Op ta, Op tb, std::int64_t m, std::int64_t n, std::int64_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const bool rm = layout == Layout::row_major;
  const std::int64_t ar = ta == Op::no_trans ? m : k, ac = ta == Op::no_trans ? k : m;
  const std::int64_t br = tb == Op::no_trans ? k : n, bc = tb == Op::no_trans ? n : k;
  const std::int64_t lda = (rm ? ac : ar) + 1, ldb = (rm ? bc : br) + 2, ldc = (rm ? n : m) + 3;
  std::vector<T> a(static_cast<std::size_t>(lda * std::max<std::int64_t>(rm ? ar : ac, 1)));
  std::vector<T> b(static_cast<std::size_t>(ldb * std::max<std::int64_t>(rm ? br : bc, 1)));
  std::vector<T> c(static_cast<std::size_t>(ldc * std::max<std::int64_t>(rm ? m : n, 1)));
  for (auto& x : a) x = draw<T>(rng);
  for (auto& x : b) x = draw<T>(rng);
  for (auto& x : c) x = draw<T>(rng);
  const T alpha = draw<T>(rng), beta = draw<T>(rng);
  const std::vector<T> c0 = c;
  trncore::AccuracyReport report;
  trnblas::gemm(layout, ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc, trncore::Options{},
                report);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      Wide<T> sum = 0;
      long double mag = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        const Wide<T> prod = widen(op_at(a, layout, ta, lda, i, p)) * widen(op_at(b, layout, tb, ldb, p, j));
        sum += prod;
        mag += std::abs(prod);
      }
      const std::size_t at = static_cast<std::size_t>(rm ? i * ldc + j : i + j * ldc);
      const Wide<T> want = widen(alpha) * sum + widen(beta) * widen(c0[at]);
      const long double scale = std::abs(widen(alpha)) * mag + std::abs(widen(beta)) * std::abs(widen(c0[at]));
      ASSERT_LE(std::abs(widen(c[at]) - want), report.a_priori_bound * scale + 1e-300L)
          << trncore::to_string(layout) << " " << trnblas::to_string(ta) << " " << trnblas::to_string(tb) << " " << m
          << "x" << n << "x" << k << " at " << i << "," << j;
    }
  // Padding outside the m×n block of C is untouched.
  for (std::size_t i = 0; i < c.size(); ++i) {
    const std::int64_t r = rm ? static_cast<std::int64_t>(i) / ldc : static_cast<std::int64_t>(i) % ldc;
    const std::int64_t col = rm ? static_cast<std::int64_t>(i) % ldc : static_cast<std::int64_t>(i) / ldc;
    if (col >= n || r >= m) {
      ASSERT_EQ(c[i], c0[i]);
    }
  }
}

template <class T>
class HostGemm : public ::testing::Test {};
TYPED_TEST_SUITE(HostGemm, Types);

TYPED_TEST(HostGemm, EveryLayoutAndTransposeMeetsTheBound) {
  const std::int64_t shapes[][3] = {{0, 3, 2}, {2, 0, 2},   {3, 2, 0},   {1, 1, 1},
                                    {7, 5, 3}, {1, 513, 2}, {513, 1, 3}, {17, 19, 129}};
  std::uint64_t seed = 1;
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Op ta : {Op::no_trans, Op::trans, Op::conj_trans})
      for (Op tb : {Op::no_trans, Op::trans, Op::conj_trans})
        for (const auto& s : shapes) check_case<TypeParam>(layout, ta, tb, s[0], s[1], s[2], seed++);
}

TYPED_TEST(HostGemm, TileEdgeSizes) {
  for (std::int64_t s : {127, 128, 129}) check_case<TypeParam>(Layout::row_major, Op::no_trans, Op::trans, s, s, s, 7);
}

TEST(HostGemmArguments, BadArgumentsThrowWithTheValues) {
  std::vector<double> a(100, 1.0), b(100, 1.0), c(100, 0.0);
  const auto call = [&](std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t lda, std::int64_t ldb,
                        std::int64_t ldc, const trncore::Options& o = {}) {
    trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, m, n, k, 1.0, a.data(), lda, b.data(), ldb, 0.0,
                  c.data(), ldc, o);
  };
  EXPECT_EQ(message_of([&] { call(-1, 2, 2, 2, 2, 2); }),
            "trnblas::gemm: negative size m = -1, n = 2, k = 2: pass sizes >= 0");
  EXPECT_NE(message_of([&] { call(3, 4, 5, 3, 4, 4); }).find("lda = 3 is less than 5 (row_major, op(a) = no_trans"),
            std::string::npos);
  EXPECT_THROW(call(3, 4, 5, 5, 3, 4), trncore::DimensionMismatch);
  EXPECT_THROW(call(3, 4, 5, 5, 4, 3), trncore::DimensionMismatch);
  EXPECT_NE(message_of([&] {
              trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, 1.0,
                            static_cast<const double*>(nullptr), 2, b.data(), 2, 0.0, c.data(), 2);
            }).find("a is null for a 2x2 operand"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 4, 4, 4, 1.0, a.data(), 4, b.data(), 4, 0.0,
                            a.data() + 2, 4);
            }).find("C overlaps A"),
            std::string::npos);
  EXPECT_THROW(call(2, 2, 2, std::int64_t{1} << 40, 2, 2), trncore::NotSupported);  // beyond 32-bit OpenBLAS
  // Disjoint blocks of one matrix (same leading dimension) are not aliasing: C = the right half of a
  // 4×8 row-major matrix, A and B its left half. Their address intervals interleave; their elements do not.
  std::vector<double> big(32, 1.0);
  EXPECT_NO_THROW(trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 4, 4, 4, 1.0, big.data(), 8, big.data(),
                                8, 0.0, big.data() + 4, 8));
  EXPECT_EQ(big[4], 4.0);
  EXPECT_THROW(trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 4, 4, 4, 1.0, big.data(), 8, big.data(), 8,
                             0.0, big.data() + 3, 8),
               trncore::InvalidArgument);  // shifted by one: column 3 of C's rows is A's column 3
  EXPECT_THROW(call(2, 2, 2, 2, 2, 2, trncore::Options{}.with_math_mode(trncore::MathMode::bf16)),
               trncore::NotSupported);
  EXPECT_THROW(call(2, 2, 2, 2, 2, 2, trncore::Options{}.with_target(1e-20)), trncore::TargetNotMet);
  EXPECT_THROW(call(2, 2, 2, 2, 2, 2, trncore::Options{}.with_target(-1.0)), trncore::InvalidArgument);
  EXPECT_THROW(call(2, 2, 2, 2, 2, 2,
                    trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(trncore::MathMode::fp64)),
               trncore::NotSupported);
  std::vector<std::complex<float>> z(4);
  EXPECT_THROW(trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 2, 2, 2, std::complex<float>(1), z.data(),
                             2, z.data(), 2, std::complex<float>(0),
                             c.empty() ? nullptr : reinterpret_cast<std::complex<float>*>(c.data()), 2,
                             trncore::Options{}.with_backend(trncore::Backend::sim)),
               trncore::NotSupported);
  EXPECT_NO_THROW(call(0, 2, 2, 1, 1, 1));  // m = 0: nothing to check beyond the sizes
}

TEST(HostGemmArguments, ViewFormChecksShapes) {
  std::vector<double> a(6, 1.0), b(12, 2.0), c(8, 0.0);
  trncore::MatrixView<const double> va(a.data(), 2, 3, 3), vb(b.data(), 3, 4, 4);
  trncore::MatrixView<double> vc(c.data(), 2, 4, 4);
  trnblas::gemm(Op::no_trans, Op::no_trans, 1.0, va, vb, 0.0, vc);
  for (double x : c) EXPECT_EQ(x, 6.0);  // each element: 3 products of 1·2, exact
  trncore::MatrixView<double> bad(c.data(), 4, 2, 2);
  EXPECT_THROW(trnblas::gemm(Op::no_trans, Op::no_trans, 1.0, va, vb, 0.0, bad), trncore::DimensionMismatch);
}

// Issue 18: the host bound γ_{k+2} is Higham's standard model — finite data, no result outside the normal
// range. Where that fails the report is not certified, says which operand and which hypothesis, and the
// no-report overload throws instead of returning the result silently (with or without a target).
TEST(HostGemm, UncertifiedResultsAreNeverReturnedSilently) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  struct Case {
    const char* what;
    std::vector<double> a, b, c;  // 1×2 · 2×1 + beta·c
    double beta;
    const char* reason;
  };
  const std::vector<Case> cases{
      // 1e-200·1e-200 = 1e-400 is 0 in fp64: relative error 1 against a certified γ_3 before the fix.
      {"underflow", {1e-200, 0.0}, {1e-200, 0.0}, {0.0}, 0.0, "a product alpha*a*b can fall below fp64's normal range"},
      {"NaN in A", {nan, 1.0}, {1.0, 1.0}, {0.0}, 0.0, "op(A) holds inf or NaN"},
      {"inf in B", {1.0, 1.0}, {1.0, inf}, {0.0}, 0.0, "op(B) holds inf or NaN"},
      {"NaN in C, read", {1.0, 1.0}, {1.0, 1.0}, {nan}, 1.0, "C holds inf or NaN"},
      {"overflow", {1e200, 1e200}, {1e200, 1e200}, {0.0}, 0.0, "the result overflows fp64's range"},
  };
  for (const Case& tc : cases) {
    std::vector<double> c = tc.c;
    trncore::AccuracyReport r;
    trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 1, 1, 2, 1.0, tc.a.data(), 2, tc.b.data(), 1, tc.beta,
                  c.data(), 1, trncore::Options{}, r);
    EXPECT_FALSE(r.certified) << tc.what;
    EXPECT_FALSE(r.met) << tc.what;
    EXPECT_NE(r.uncertified_reason.find(tc.reason), std::string::npos) << tc.what << ": " << r.uncertified_reason;
    c = tc.c;
    const std::string message = message_of([&] {
      trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 1, 1, 2, 1.0, tc.a.data(), 2, tc.b.data(), 1,
                    tc.beta, c.data(), 1);
    });
    EXPECT_EQ(message.rfind("trnblas::gemm: the result is not certified: ", 0), 0u) << tc.what << ": " << message;
    EXPECT_NE(message.find(tc.reason), std::string::npos) << tc.what << ": " << message;
  }
  {  // the underflow case is not certified for a reason: C = 0 for a true 1e-400 (error 1, the bound γ_3 ≈ 3e-16)
    const std::vector<double> a{1e-200}, b{1e-200};
    std::vector<double> c{0.0};
    trncore::AccuracyReport r;
    trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 1, 1, 1, 1.0, a.data(), 1, b.data(), 1, 0.0, c.data(),
                  1, trncore::Options{}, r);
    EXPECT_EQ(c[0], 0.0);
    EXPECT_LT(r.a_priori_bound, 1.0);
    EXPECT_FALSE(r.certified);
  }
  {  // fp32: 1e-20f·1e-20f = 1e-40 is subnormal in fp32
    const std::vector<float> a{1e-20f}, b{1e-20f};
    std::vector<float> c{0.0f};
    EXPECT_NE(message_of([&] {
                trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 1, 1, 1, 1.0f, a.data(), 1, b.data(), 1,
                              0.0f, c.data(), 1);
              }).find("can fall below fp32's normal range"),
              std::string::npos);
  }
  {  // complex: NaN in an imaginary part
    const std::vector<std::complex<double>> a{{1.0, nan}}, b{{1.0, 0.0}};
    std::vector<std::complex<double>> c{{0.0, 0.0}};
    EXPECT_NE(message_of([&] {
                trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 1, 1, 1, std::complex<double>(1.0),
                              a.data(), 1, b.data(), 1, std::complex<double>(0.0), c.data(), 1);
              }).find("op(A) holds inf or NaN"),
              std::string::npos);
  }
  {  // NaN in C with beta = 0: C is not read, the result is certified; normal data certified, no exception
    const std::vector<double> a{0.5, 0.25}, b{2.0, 4.0};
    std::vector<double> c{nan};
    EXPECT_NO_THROW(trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 1, 1, 2, 1.0, a.data(), 2, b.data(), 1,
                                  0.0, c.data(), 1));
    EXPECT_EQ(c[0], 2.0);
    // A certified bound above the target: met = false, the message gives the bound and the target.
    trncore::Options o;
    o.target_forward_error = 1e-30;
    EXPECT_NE(message_of([&] {
                trnblas::gemm(Layout::row_major, Op::no_trans, Op::no_trans, 1, 1, 2, 1.0, a.data(), 2, b.data(), 1,
                              0.0, c.data(), 1, o);
              }).find("does not meet target_forward_error = 1.000e-30"),
              std::string::npos);
  }
}

// alpha and beta take the matrices' type (std::type_identity_t<T>), like every other trnblas routine, so
// an sgemm call with double literals compiles and converts them; before, T was deduced from them too and
// the call failed to compile. The oracle: C = 1·A·B + 0·C by hand for a 1x1 product.
TEST(HostGemm, ScalarsConvertToTheMatrixType) {
  const float a = 3.0f, b = 5.0f;
  float c = 7.0f;
  trnblas::gemm(trncore::Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, 1, 1, 1, 1.0, &a, 1, &b, 1,
                0.0, &c, 1);
  EXPECT_EQ(c, 15.0f);
  std::complex<double> z = 0.0, x = {1.0, 2.0}, y = {3.0, -1.0};
  trnblas::gemm(trncore::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, 1, 1, 1, 2, &x, 1, &y, 1, 0,
                &z, 1);
  EXPECT_EQ(z, std::complex<double>(10.0, 10.0));  // 2·(1+2i)(3−i) = 2·(5+5i)
}

}  // namespace
