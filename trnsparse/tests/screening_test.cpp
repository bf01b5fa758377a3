// Screening. Oracle: a positive semidefinite "integral matrix" G over pairs (G = X·Xᵀ, so
// |G_ab| ≤ √(G_aa·G_bb) exactly as for real electron-repulsion integrals), with brute-force loops over all
// quartets as the independent count. Rigour is tested directly: no dropped quartet exceeds τ (up to the
// 4u of forming √ and the product, allowed as a factor 1 + 1e-15).
#include <trnsparse/ops.hpp>
#include <trnsparse/screening.hpp>

#include "sparse_test_support.hpp"

#include <trnsci_testing/errors.hpp>
#include "test_matrices.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

// n² pairs, rank-r Gram matrix whose pair magnitudes decay like exp(−|i − j|) (local basis functions).
std::vector<double> gram_over_pairs(std::int64_t n, std::int64_t r, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  const std::int64_t p = n * n;
  std::vector<double> x(static_cast<std::size_t>(p * r));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t t = 0; t < r; ++t)
        x[static_cast<std::size_t>((i * n + j) * r + t)] =
            d(gen) * std::exp(-2.0 * static_cast<double>(std::abs(i - j)));
  std::vector<double> g(static_cast<std::size_t>(p * p), 0.0);
  for (std::int64_t a = 0; a < p; ++a)
    for (std::int64_t b = 0; b < p; ++b)
      for (std::int64_t t = 0; t < r; ++t)
        g[static_cast<std::size_t>(a * p + b)] +=
            x[static_cast<std::size_t>(a * r + t)] * x[static_cast<std::size_t>(b * r + t)];
  return g;
}

TEST(Screening, QuartetCountsMatchBruteForceAndNeverDropALargeIntegral) {
  const std::int64_t n = 9, p = n * n;
  const auto g = gram_over_pairs(n, 5, 1);
  std::vector<double> diag(static_cast<std::size_t>(p));
  for (std::int64_t a = 0; a < p; ++a) diag[static_cast<std::size_t>(a)] = g[static_cast<std::size_t>(a * p + a)];
  const auto q = trnsparse::schwarz_bounds(n, diag);
  for (double tau : {0.0, 1e-12, 1e-6, 1e-3, 1e-1, 10.0}) {
    const auto stats = trnsparse::quartet_screening(n, q, tau);
    std::int64_t kept = 0;
    for (std::int64_t a = 0; a < p; ++a)
      for (std::int64_t b = 0; b < p; ++b) {
        const bool keep = q[static_cast<std::size_t>(a)] * q[static_cast<std::size_t>(b)] > tau;
        kept += keep;
        if (!keep) {
          ASSERT_LE(std::fabs(g[static_cast<std::size_t>(a * p + b)]), tau * (1 + 1e-15) + 1e-300) << a << "," << b;
        }
      }
    EXPECT_EQ(stats.kept_quartets, kept) << tau;
    EXPECT_EQ(stats.quartets, p * p);
    const auto pairs = trnsparse::significant_pairs(n, q, tau);
    EXPECT_EQ(pairs.nnz(), stats.significant_pairs);
    // Density-weighted: keep when Q_ab·Q_cd·|D_cd| > τ; dropped ⇒ |G_ab·D_cd| ≤ τ.
    std::vector<double> dens(static_cast<std::size_t>(p));
    for (std::int64_t a = 0; a < p; ++a) dens[static_cast<std::size_t>(a)] = std::exp(-static_cast<double>(a % 7));
    const auto dw = trnsparse::density_weighted_screening(n, q, dens, tau);
    std::int64_t dkept = 0;
    for (std::int64_t a = 0; a < p; ++a)
      for (std::int64_t b = 0; b < p; ++b) {
        const bool keep =
            q[static_cast<std::size_t>(a)] * (q[static_cast<std::size_t>(b)] * dens[static_cast<std::size_t>(b)]) > tau;
        dkept += keep;
        if (!keep) {
          ASSERT_LE(std::fabs(g[static_cast<std::size_t>(a * p + b)] * dens[static_cast<std::size_t>(b)]),
                    tau * (1 + 1e-15) + 1e-300);
        }
      }
    EXPECT_EQ(dw.kept_quartets, dkept);
  }
  // τ = 0 keeps every quartet with nonzero bounds; a huge τ keeps none.
  EXPECT_EQ(trnsparse::quartet_screening(n, q, 1e300).kept_quartets, 0);
}

TEST(Screening, ScreenedSpmmStaysWithinTheReportedDroppedBound) {
  auto coo = trnsparse_test::random_coo<double, std::int32_t>(60, 40, 0.3, 4);
  for (std::size_t k = 0; k < coo.values.size(); ++k) coo.values[k] *= std::pow(10.0, -static_cast<double>(k % 9));
  const auto a = trnsparse::to_csr(coo);
  const std::int64_t n = 6;
  std::vector<double> b(static_cast<std::size_t>(40 * n));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(static_cast<double>(i));
  std::vector<double> full(static_cast<std::size_t>(60 * n)), screened(full.size());
  trnsparse::spmm<double, std::int32_t>(trnblas::Op::no_trans, 1.0, a, n, b, n, 0.0, full, n);
  for (double tau : {0.0, 1e-6, 1e-3}) {
    const auto rep = trnsparse::screened_spmm<double, std::int32_t>(a, n, b, n, screened, n, tau);
    EXPECT_EQ(rep.kept_entries + rep.dropped_entries, a.nnz());
    if (tau > 1e-4) {
      EXPECT_GT(rep.dropped_entries, 0);
    }
    // Difference ≤ the dropped contributions plus both products' rounding, γ_{m+1}·Σ|a||b| ≤ 1e-14 here
    // (m ≤ 40 terms of magnitude ≤ 1).
    for (std::size_t i = 0; i < full.size(); ++i)
      ASSERT_LE(std::fabs(full[i] - screened[i]), rep.max_row_dropped_bound + 1e-14);
    if (tau == 0.0) {
      EXPECT_EQ(rep.dropped_entries, 0);
    }
  }
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { (void)trnsparse::screened_spmm<double, std::int32_t>(a, n, b, n, screened, n, -1.0); },
      "trnsparse::screened_spmm", {"tau"});
  // Options: host only (NotSupported naming the call), threads never change the result.
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        (void)trnsparse::screened_spmm<double, std::int32_t>(a, n, b, n, screened, n, 0.1,
                                                             trncore::Options{}.with_backend(trncore::Backend::sim));
      },
      "trnsparse::screened_spmm");
  std::vector<double> one(screened.size()), two(screened.size());
  (void)trnsparse::screened_spmm<double, std::int32_t>(a, n, b, n, one, n, 0.1, trncore::Options{}.with_threads(1));
  (void)trnsparse::screened_spmm<double, std::int32_t>(a, n, b, n, two, n, 0.1, trncore::Options{}.with_threads(2));
  EXPECT_EQ(one, two);
}

TEST(Screening, SparsityStatsOfTheFivePointLaplacian) {
  const auto s = trnsparse::sparsity_stats(trnsparse_test::laplacian(4));
  EXPECT_EQ(s.rows, 16);
  EXPECT_EQ(s.nonzeros, 16 + 4 * 4 * 3);  // diagonal + 2 directions × 2 signs × 4 lines × 3 links
  EXPECT_EQ(s.min_row_nonzeros, 3);       // corners
  EXPECT_EQ(s.max_row_nonzeros, 5);       // interior
  EXPECT_EQ(s.bandwidth, 4);              // the grid width
  EXPECT_EQ(s.empty_rows, 0);
  EXPECT_DOUBLE_EQ(s.mean_row_nonzeros, 64.0 / 16.0);
  const auto e = trnsparse::sparsity_stats(trnsparse::Csr<float>{});
  EXPECT_EQ(e.nonzeros, 0);
  EXPECT_EQ(e.density, 0.0);
}

TEST(Screening, BadInputIsNamed) {
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [] {
        (void)trnsparse::schwarz_bounds(2, std::vector<double>{1, 2, 3});
      },
      "trnsparse::schwarz_bounds");
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [] { (void)trnsparse::schwarz_bounds(1, std::vector<double>{-1}); }, "trnsparse::schwarz_bounds", {">= 0"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [] { (void)trnsparse::quartet_screening(1, std::vector<double>{std::numeric_limits<double>::quiet_NaN()}, 1.0); },
      "trnsparse::quartet_screening", {"Q[0]"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [] { (void)trnsparse::quartet_screening(1, std::vector<double>{1}, -1.0); }, "trnsparse::quartet_screening",
      {"tau"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [] {
        (void)trnsparse::density_weighted_screening(1, std::vector<double>{1}, std::vector<double>{1, 2}, 1.0);
      },
      "trnsparse::density_weighted_screening", {"D has 2"});
}

}  // namespace
