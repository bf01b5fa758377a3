// syevd/eigh on the sim backend with the blocked tridiagonal + QL path (EighMethod::tridiagonal, and
// automatic beyond n = 128), against LAPACK's dsyevd in fp64 on the same float data.
//
// Tolerances. Under MathMode::fp32 with ProductModel::exact the reduction's trailing updates and the back
// transformation are fp32 products accumulated in fp32 and the rest is VectorEngine fp32: LAPACK's
// sytrd + steqr in fp32, so LAPACK's criteria hold with u = u₃₂ (Users' Guide §4.7; dsyt21's ratios, threshold 30,
// dense_test_support.hpp): |λ̂_i − λ_i| ≤ 30·n·u·‖A‖₂ (Weyl, with the backward error p(n)·u·‖A‖), ‖A·Z − Z·Λ‖₁/
// (n·‖A‖₁·u) < 30 and ‖I − ZᵀZ‖₁/(n·u) < 30. Under bf16 updates, u becomes the GEMM's single-pass bound
// (1+2⁻⁸)³(1+γ₁₂₈) − 1 (docs/trnblas-sim.md).
#include "dense_test_support.hpp"

#include <lapacke.h>

#include <span>

namespace {

using namespace dense_test;
using trnsolver::EighMethod;
using trnsolver::EigJob;

// LAPACK's dsyevd eigenvalues (fp64) of the symmetric matrix given by its `uplo` triangle.
std::vector<double> lapack_eigenvalues(const Mat<float>& a, Uplo uplo) {
  const std::int64_t n = a.rows;
  const W s = sym_from(a, uplo);
  std::vector<double> ad(static_cast<std::size_t>(n * n)), w(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) ad[static_cast<std::size_t>(i + j * n)] = static_cast<double>(s(i, j));
  if (n > 0) {
    EXPECT_EQ(LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', static_cast<lapack_int>(n), ad.data(),
                             static_cast<lapack_int>(n), w.data()),
              0);
  }
  return w;
}

// Eigenvalues, residual and orthogonality ratios of one call's output.
void expect_eigendecomposition(const Mat<float>& a0, Uplo uplo, const Mat<float>& z, const std::vector<float>& w,
                               double u, const std::string& what) {
  const std::int64_t n = a0.rows;
  const std::vector<double> ref = lapack_eigenvalues(a0, uplo);
  double norm2 = 0;
  for (double x : ref) norm2 = std::max(norm2, std::abs(x));
  for (std::int64_t i = 0; i < n; ++i)
    EXPECT_LE(std::abs(static_cast<double>(w[static_cast<std::size_t>(i)]) - ref[static_cast<std::size_t>(i)]),
              30.0 * static_cast<double>(n) * u * norm2)
        << what << " eigenvalue " << i;
  const W s = sym_from(a0, uplo), zw = widen(z);
  W zl(n, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) zl(i, j) = zw(i, j) * static_cast<LD>(w[static_cast<std::size_t>(j)]);
  const LD res = norm1(sub(mul(s, zw), zl)) / (static_cast<LD>(std::max<std::int64_t>(n, 1)) *
                                               std::max(norm1(s), std::numeric_limits<LD>::min()) * static_cast<LD>(u));
  EXPECT_LT(res, kThreshold) << what;
  EXPECT_LT(norm1(sub(identity(n), mul(transpose(zw), zw))) /
                (static_cast<LD>(std::max<std::int64_t>(n, 1)) * static_cast<LD>(u)),
            kThreshold)
      << what;
}

// Sizes 0, 1, 2, 3, a prime, tile edges and two panels; both layouts and triangles (the other one NaN: never
// read); one and two threads bitwise equal; values_only gives the same eigenvalues bit for bit.
TEST(SimEighTridiagonal, MatchesLapackWithinItsBounds) {
  std::mt19937_64 rng(101);
  for (const Layout layout : {Layout::row_major, Layout::col_major})
    for (const Uplo uplo : {Uplo::lower, Uplo::upper})
      for (const std::int64_t n : {0, 1, 2, 3, 37, 127, 128, 129, 260}) {
        if (n >= 127 && (layout == Layout::row_major) != (uplo == Uplo::upper)) continue;  // the big ones twice
        Mat<float> a0 = random_sym<float>(n, layout, rng);
        poison_other(a0, uplo);
        Mat<float> z1 = a0, z2 = a0, z3 = a0;
        const auto N = static_cast<std::size_t>(n);
        std::vector<float> w1(N), w2(N), w3(N);
        ASSERT_EQ(trnsolver::syevd<float>(layout, EigJob::vectors, uplo, n, z1.data(), z1.ld, w1.data(),
                                          EighMethod::tridiagonal, sim_options(1)),
                  0);
        ASSERT_EQ(trnsolver::syevd<float>(layout, EigJob::vectors, uplo, n, z2.data(), z2.ld, w2.data(),
                                          EighMethod::tridiagonal, sim_options(2)),
                  0);
        ASSERT_EQ(trnsolver::syevd<float>(layout, EigJob::values_only, uplo, n, z3.data(), z3.ld, w3.data(),
                                          EighMethod::tridiagonal, sim_options(2)),
                  0);
        EXPECT_EQ(z1.buf, z2.buf);
        EXPECT_EQ(w1, w2);
        EXPECT_EQ(w1, w3);
        EXPECT_TRUE(z1.padding_intact());
        for (std::size_t i = 1; i < N; ++i) EXPECT_LE(w1[i - 1], w1[i]);
        const std::string what =
            std::string(name(layout)) + " " + std::string(trnblas::to_string(uplo)) + " n " + std::to_string(n);
        expect_eigendecomposition(a0, uplo, z1, w1, 0x1p-24, what);
      }
}

// Clustered eigenvalues (Q·diag(1, 1, 1, 1+1e-5, 2, …)·Qᵀ) keep orthogonal vectors; automatic picks the
// tridiagonal path beyond one tile (bitwise equal to the explicit method) and Jacobi below it; eigh's view form
// agrees with syevd; bf16 updates stay within their bound.
TEST(SimEighTridiagonal, ClusteredAutomaticAndBf16) {
  std::mt19937_64 rng(102);
  const std::int64_t n = 150;
  std::vector<LD> lambda(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) lambda[static_cast<std::size_t>(i)] = i < 4 ? 1 + (i == 3 ? 1e-5L : 0) : 1 + i;
  const Mat<float> a = narrow<float>(sym_with_spectrum(random_orthogonal(n, rng), lambda), Layout::col_major);
  const auto r = trnsolver::eigh(a.view(), EigJob::vectors, Uplo::lower, EighMethod::tridiagonal, sim_options(2));
  ASSERT_EQ(r.info, 0);
  Mat<float> z(n, n, Layout::col_major);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) z(i, j) = r.z(i, j);
  expect_eigendecomposition(a, Uplo::lower, z, r.w, 0x1p-24, "clustered");
  const auto automatic = trnsolver::eigh(a.view(), EigJob::vectors, Uplo::lower, sim_options(2));
  EXPECT_EQ(automatic.w, r.w);
  EXPECT_EQ(automatic.z.data, r.z.data);
  // Below one tile automatic is Jacobi: the same as the explicit jacobi method, not the tridiagonal one.
  std::mt19937_64 rng2(103);
  const Mat<float> small = random_sym<float>(40, Layout::col_major, rng2);
  const auto js = trnsolver::eigh(small.view(), EigJob::values_only, Uplo::lower, EighMethod::jacobi, sim_options(1));
  const auto as = trnsolver::eigh(small.view(), EigJob::values_only, Uplo::lower, sim_options(1));
  EXPECT_EQ(js.w, as.w);
  const auto b = trnsolver::eigh(a.view(), EigJob::vectors, Uplo::lower, EighMethod::tridiagonal,
                                 sim_options(2, trncore::MathMode::bf16));
  ASSERT_EQ(b.info, 0);
  Mat<float> zb(n, n, Layout::col_major);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) zb(i, j) = b.z(i, j);
  expect_eigendecomposition(a, Uplo::lower, zb, b.w, kBf16GemmBound, "bf16");
}

TEST(SimEighTridiagonal, BadArgumentsThrow) {
  Mat<float> a(4, 4, Layout::col_major);
  std::vector<float> w(4);
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsolver::syevd<float>(Layout::col_major, EigJob::vectors, Uplo::lower, 4, a.data(), a.ld, w.data(),
                                EighMethod::tridiagonal);
      },
      "trnsolver::syevd", {"host"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsolver::syevd<float>(Layout::col_major, EigJob::vectors, Uplo::lower, 4, a.data(), a.ld, w.data(),
                                static_cast<EighMethod>(9), sim_options(1));
      },
      "trnsolver::syevd", {"method"});
  a(3, 1) = std::numeric_limits<float>::infinity();
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] {
        trnsolver::syevd<float>(Layout::col_major, EigJob::vectors, Uplo::lower, 4, a.data(), a.ld, w.data(),
                                EighMethod::tridiagonal, sim_options(1));
      },
      "trnsolver::syevd", {"finite"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsolver::eigh(a.view(), EigJob::vectors, Uplo::lower, EighMethod::tridiagonal, sim_options(1)); },
      "trnsolver::eigh");
  EXPECT_EQ(trnsolver::parse_eigh_method("tridiagonal"), EighMethod::tridiagonal);
  EXPECT_EQ(trnsolver::to_string(EighMethod::jacobi), "jacobi");
  EXPECT_THROW(trnsolver::parse_eigh_method("qr"), trncore::ParseError);
}

}  // namespace
