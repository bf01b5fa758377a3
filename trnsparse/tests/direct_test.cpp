// SuiteSparse direct solvers (CHOLMOD, UMFPACK, SPQR) through trnsparse. Oracles: the normwise backward
// error ‖b − Ax̂‖∞/(‖A‖∞‖x̂‖∞ + ‖b‖∞) measured in long double, and for least squares Eigen's dense
// column-pivoted Householder QR (an independent implementation) on the same data.
//
// Tolerances: Cholesky and LU are backward stable, (A + ΔA)x̂ = b with |ΔA| ≤ γ_{3c+1}|L||U| where c is the
// longest inner product (≤ n) (Higham ASNA Thms 9.4, 10.4). For the M-matrices and diagonally dominant
// matrices used here |L||U| = |LU| = |A| up to O(u) (no cancellation when the factors keep the M-matrix sign
// pattern; growth ≤ 2 for diagonal dominance), so the normwise backward error is ≤ 2·γ_{3n+1}. The measured
// values are ~1e-16, far below, so a wrong factor or a mis-mapped permutation fails at once.
#include <trnsparse/direct.hpp>
#include <trnsparse/eigen.hpp>
#include <trnsparse/ops.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>
#include "test_matrices.hpp"

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include <limits>

namespace {

using trnsparse_test::backward_error;
using trnsparse_test::laplacian;

double gamma(std::int64_t k) {
  const double u = std::numeric_limits<double>::epsilon() / 2;
  return static_cast<double>(k) * u / (1 - static_cast<double>(k) * u);
}

std::vector<double> rhs(std::int64_t n, std::int64_t nrhs, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> b(static_cast<std::size_t>(n * nrhs));
  for (auto& e : b) e = d(gen);
  return b;
}

// Column j of a row-major n×nrhs array.
std::vector<double> column(const std::vector<double>& a, std::int64_t n, std::int64_t nrhs, std::int64_t j) {
  std::vector<double> c(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) c[static_cast<std::size_t>(i)] = a[static_cast<std::size_t>(i * nrhs + j)];
  return c;
}

TEST(DirectCholesky, SolvesPoissonToBackwardErrorOrderUForEveryOrdering) {
  for (auto [n, nz] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {2, 1}, {17, 1}, {45, 1}, {11, 11}}) {
    const auto a = laplacian(n, nz);
    const std::int64_t N = a.rows, nrhs = 3;
    for (auto ord : {trnsparse::Ordering::automatic, trnsparse::Ordering::natural, trnsparse::Ordering::amd}) {
      trnsparse::Cholesky chol(a, ord);
      ASSERT_EQ(chol.info(), 0);
      ASSERT_EQ(chol.size(), N);
      const auto b = rhs(N, nrhs, 7);
      std::vector<double> x(b.size());
      chol.solve(b, x, nrhs);
      for (std::int64_t j = 0; j < nrhs; ++j) {
        const auto xj = column(x, N, nrhs, j), bj = column(b, N, nrhs, j);
        EXPECT_LE(backward_error(a, xj, bj), 2 * gamma(3 * N + 1)) << "n=" << n << " nz=" << nz;
      }
    }
    // Fill-reducing orderings do reduce fill on the 2-D/3-D grids (natural = band fill).
    if (N > 100) {
      EXPECT_LT(trnsparse::Cholesky(a, trnsparse::Ordering::amd).factor_nonzeros(),
                trnsparse::Cholesky(a, trnsparse::Ordering::natural).factor_nonzeros());
    }
  }
}

TEST(DirectCholesky, RefactorReusesTheAnalysisAndReportsNonSpdAsInfo) {
  auto a = laplacian(20);
  trnsparse::Cholesky chol(a);
  // Same pattern, values doubled: x halves exactly up to rounding.
  auto a2 = a;
  trnsparse::scale(2.0, a2);
  chol.refactor(a2);
  ASSERT_EQ(chol.info(), 0);
  const auto b = rhs(a.rows, 1, 3);
  std::vector<double> x(b.size());
  chol.solve(b, x);
  EXPECT_LE(backward_error(a2, x, b), 2 * gamma(3 * a.rows + 1));
  // Negated: not positive definite at the very first pivot.
  auto neg = a;
  trnsparse::scale(-1.0, neg);
  chol.refactor(neg);
  EXPECT_EQ(chol.info(), 1);
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { chol.solve(b, x); }, "trnsparse::Cholesky::solve",
                                                         {"info"});
  // Indefinite: diagonal 4 − 6 shifts the lowest eigenvalues (≥ 0.02) below zero; the failure is later.
  const auto shifted = trnsparse::add(1.0, a, -6.0, trnsparse_test::identity(a.rows));
  trnsparse::Cholesky indefinite(shifted);
  EXPECT_GT(indefinite.info(), 0);
  // A different pattern is refused.
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { chol.refactor(laplacian(21)); },
                                                         "trnsparse::Cholesky::refactor", {"pattern"});
}

TEST(DirectLu, SolvesUnsymmetricMatricesAndTheirTransposes) {
  for (auto [n, conv] : {std::pair<std::int64_t, double>{1, 0.5}, {13, 0.5}, {40, 3.0}}) {
    const auto a = laplacian(n, 1, conv);
    const auto at = trnsparse::transpose(a);
    for (auto ord : {trnsparse::Ordering::automatic, trnsparse::Ordering::natural, trnsparse::Ordering::amd}) {
      trnsparse::Lu lu(a, ord);
      ASSERT_EQ(lu.info(), 0);
      EXPECT_GT(lu.rcond_estimate(), 0.0);
      const std::int64_t nrhs = 2;
      const auto b = rhs(a.rows, nrhs, 11);
      std::vector<double> x(b.size()), xt(b.size());
      lu.solve(b, x, nrhs);
      lu.solve(b, xt, nrhs, true);
      for (std::int64_t j = 0; j < nrhs; ++j) {
        const auto bj = column(b, a.rows, nrhs, j);
        // The convection operator is a column-diagonally-dominant M-matrix: growth ≤ 2 (Higham §9.5).
        EXPECT_LE(backward_error(a, column(x, a.rows, nrhs, j), bj), 4 * gamma(3 * a.rows + 1));
        EXPECT_LE(backward_error(at, column(xt, a.rows, nrhs, j), bj), 4 * gamma(3 * a.rows + 1));
      }
    }
  }
  // A random sparse matrix plus n·I (strictly diagonally dominant), with duplicates and empty off-diagonal rows.
  auto coo = trnsparse_test::random_coo<double, std::int32_t>(97, 97, 0.05, 5);
  for (std::int32_t i = 0; i < 97; ++i) {
    coo.row.push_back(i);
    coo.col.push_back(i);
    coo.values.push_back(97.0);
  }
  const auto a = trnsparse::to_csr(coo, trnsparse::SumDuplicates::no);
  trnsparse::Lu lu(a);
  const auto b = rhs(97, 1, 1);
  std::vector<double> x(97);
  lu.solve(b, x);
  EXPECT_LE(backward_error(trnsparse::sum_duplicates(a), x, b), 4 * gamma(3 * 97 + 1));
}

TEST(DirectLu, SingularMatrixGivesInfo) {
  auto a = laplacian(6);
  // Zero out row 4 (keep the pattern): structurally present, numerically singular.
  for (auto k = a.indptr[4]; k < a.indptr[5]; ++k) a.values[static_cast<std::size_t>(k)] = 0.0;
  trnsparse::Lu lu(a);
  EXPECT_GT(lu.info(), 0);
  std::vector<double> b(36, 1.0), x(36);
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { lu.solve(b, x); }, "trnsparse::Lu::solve", {"singular"});
}

TEST(DirectQr, LeastSquaresMatchesEigenDenseQr) {
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> d(-1, 1);
  for (auto [m, n] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {7, 7}, {50, 13}, {200, 31}}) {
    auto coo = trnsparse_test::random_coo<double, std::int32_t>(m, n, 0.2, static_cast<std::uint64_t>(m * 7 + n));
    for (std::int64_t j = 0; j < n; ++j) {  // a full diagonal keeps the columns independent
      coo.row.push_back(static_cast<std::int32_t>(j));
      coo.col.push_back(static_cast<std::int32_t>(j));
      coo.values.push_back(3.0);
    }
    const auto a = trnsparse::to_csr(coo);
    const auto dense = trnsparse::to_dense(a);
    Eigen::MatrixXd ad(m, n);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) ad(i, j) = dense[static_cast<std::size_t>(i * n + j)];
    std::vector<double> b(static_cast<std::size_t>(m));
    for (auto& e : b) e = d(gen);
    trnsparse::Qr qr(a);
    ASSERT_EQ(qr.rank(), n);
    ASSERT_EQ(qr.info(), 0);
    std::vector<double> x(static_cast<std::size_t>(n));
    qr.solve(b, x);
    const Eigen::VectorXd be = Eigen::Map<const Eigen::VectorXd>(b.data(), m);
    const Eigen::VectorXd xe = ad.colPivHouseholderQr().solve(be);
    // Both are backward stable LS solvers; their solutions differ by at most the LS perturbation bound
    // (Higham ASNA Thm 20.1) for a relative backward error ε = m·n·u each:
    // ‖Δx‖/‖x‖ ≤ 2·ε·κ·(2 + κ·‖r‖/(‖A‖‖x‖)), κ = σ_max/σ_min.
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(ad);
    const double kappa = svd.singularValues()(0) / svd.singularValues()(n - 1);
    const double eps = static_cast<double>(m * n) * std::numeric_limits<double>::epsilon() / 2;
    const double r = (be - ad * xe).norm(), anorm = svd.singularValues()(0);
    const double bound = 2 * eps * kappa * (2 + kappa * r / (anorm * xe.norm()));
    const Eigen::VectorXd xm = Eigen::Map<const Eigen::VectorXd>(x.data(), n);
    EXPECT_LE((xm - xe).norm() / xe.norm(), bound) << m << "x" << n;
  }
}

TEST(DirectQr, RankDeficiencyIsReported) {
  // Column 2 = column 0: rank n − 1.
  trnsparse::Coo<double> coo{5, 3, {0, 1, 2, 0, 1, 2, 3, 4}, {0, 0, 0, 2, 2, 2, 1, 1}, {1, 2, 3, 1, 2, 3, 1, 1}};
  trnsparse::Qr qr(trnsparse::to_csr(coo));
  EXPECT_EQ(qr.rank(), 2);
  EXPECT_EQ(qr.info(), 1);
}

TEST(DirectErrors, BadInputIsNamed) {
  trnsparse::Coo<double> rect{3, 2, {0}, {0}, {1.0}};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::Cholesky c(trnsparse::to_csr(rect)); },
                                                         "trnsparse::Cholesky");
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::Lu l(trnsparse::to_csr(rect)); },
                                                         "trnsparse::Lu");
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::Qr q(trnsparse::transpose(trnsparse::to_csr(rect))); }, "trnsparse::Qr", {"m < n"});
  trnsparse::Coo<double> nan{2, 2, {0, 1}, {0, 1}, {1.0, std::numeric_limits<double>::quiet_NaN()}};
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { trnsparse::Cholesky c(trnsparse::to_csr(nan)); },
                                                         "trnsparse::Cholesky", {"value 1"});
  const auto a = laplacian(3);
  trnsparse::Cholesky chol(a);
  std::vector<double> b(9), x(8);
  trnsci_testing::expect_error<trncore::DimensionMismatch>([&] { chol.solve(b, x); }, "trnsparse::Cholesky::solve");
  trnsparse::Lu lu(a);
  trnsci_testing::expect_error<trncore::DimensionMismatch>([&] { lu.solve(b, x); }, "trnsparse::Lu::solve");
  trnsci_testing::expect_error<trncore::InvalidArgument>([&] { lu.solve(b, b, -1); }, "trnsparse::Lu::solve", {"nrhs"});
  // Empty matrices factor and solve trivially.
  trnsparse::Csr<double> empty;
  trnsparse::Cholesky ce(empty);
  trnsparse::Lu le(empty);
  std::vector<double> none;
  EXPECT_NO_THROW(ce.solve(none, none));
  EXPECT_NO_THROW(le.solve(none, none));
}

}  // namespace
