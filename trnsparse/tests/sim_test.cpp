// sim bsr_spmm (one trnblas sim GEMM per stored block) and the block-density report.
// Oracle: a long-double dense product built from the COO triples. Tolerance: the componentwise bound the
// call reports, |Ĉ − C| ≤ bound·(|α||A||B| + |β||C|) (sim.hpp; per-block bounds from docs/trnblas-sim.md),
// checked element by element against the oracle's |·| products — so a mode that silently lost accuracy,
// or a bound that was not a bound, fails.
#include <trnsparse/sim.hpp>

#include "sparse_test_support.hpp"

#include <trnsparse/ops.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

namespace {

// The long-double oracle of C = alpha·A·B + beta·C0 at (i, j), A dense row-major m×k (dense_oracle), B k×n
// with leading dimension ldb, C0 with ldc, and the magnitude |alpha|·Σ|a_il·b_lj| + |beta·c0_ij| that the
// componentwise bound multiplies.
struct ExpectedEntry {
  long double value;
  long double scale;
};
template <class T>
ExpectedEntry expected_entry(const std::vector<long double>& a, std::int64_t k, const std::vector<T>& b,
                             std::int64_t ldb, const std::vector<T>& c0, std::int64_t ldc, long double alpha,
                             long double beta, std::int64_t i, std::int64_t j) {
  long double exact = 0, mag = 0;
  for (std::int64_t l = 0; l < k; ++l) {
    const long double p = a[static_cast<std::size_t>(i * k + l)] * b[static_cast<std::size_t>(l * ldb + j)];
    exact += p;
    mag += std::fabs(p);
  }
  const long double cij = c0[static_cast<std::size_t>(i * ldc + j)];
  return {alpha * exact + beta * cij, std::fabs(alpha) * mag + std::fabs(beta) * std::fabs(cij)};
}

using trncore::MathMode;
using trnsparse_test::random_coo;

template <class T>
std::vector<T> random_dense(std::int64_t n, std::uint64_t seed) {
  return trnsparse_test::random_vector<T>(n, seed);
}

template <class T>
void check_against_oracle(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t block, double density,
                          MathMode mode, T alpha, T beta, std::uint64_t seed) {
  const auto coo = random_coo<T, std::int32_t>(m, k, density, seed);
  const auto bsr = trnsparse::to_bsr(trnsparse::to_csr(coo), block, block);
  const std::int64_t ldb = n + 1, ldc = n + 2;
  const auto b = random_dense<T>(std::max<std::int64_t>(0, k * ldb), seed + 1);
  auto c = random_dense<T>(std::max<std::int64_t>(0, m * ldc), seed + 2);
  const auto c0 = c;
  trncore::AccuracyReport report;
  const auto opts = trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(mode);
  trnsparse::bsr_spmm<T, std::int32_t>(alpha, bsr, n, b, ldb, beta, c, ldc, opts, report);
  EXPECT_TRUE(report.met);
  ASSERT_TRUE(report.cost.has_value());
  const auto a = trnsparse_test::dense_oracle(coo);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const ExpectedEntry e = expected_entry(a, k, b, ldb, c0, ldc, alpha, beta, i, j);
      ASSERT_LE(std::fabs(c[static_cast<std::size_t>(i * ldc + j)] - e.value), report.a_priori_bound * e.scale)
          << m << "x" << k << "x" << n << " block " << block << " mode " << trncore::to_string(mode) << " at " << i
          << "," << j;
    }
  // Padding columns of C are untouched.
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = n; j < ldc; ++j)
      ASSERT_EQ(c[static_cast<std::size_t>(i * ldc + j)], c0[static_cast<std::size_t>(i * ldc + j)]);
}

TEST(SimBsrSpmm, MeetsItsReportedBoundInEveryModeAndShape) {
  std::uint64_t seed = 1;
  for (auto [m, k] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {1, 1}, {7, 13}, {129, 127}, {200, 257}}) {
    for (auto mode : {MathMode::fp32, MathMode::bf16, MathMode::compensated}) {
      check_against_oracle<float>(m, k, 5, 128, 0.05, mode, 1.0f, 0.0f, seed++);
      check_against_oracle<float>(m, k, 3, 4, 0.2, mode, -0.5f, 2.0f, seed++);
    }
    check_against_oracle<double>(m, k, 4, 128, 0.05, MathMode::ozaki, 1.5, -1.0, seed++);
    check_against_oracle<double>(m, k, 4, 16, 0.1, MathMode::bf16, 1.0, 0.5, seed++);
  }
}

TEST(SimBsrSpmm, RowsWithoutBlocksGetBetaTimesC) {
  // Block rows 0 and 2 have blocks, block row 1 none (ragged), 4x4 blocks on a 10x8 matrix.
  trnsparse::Coo<float> coo{10, 8, {0, 9, 3}, {7, 0, 3}, {2.0f, -1.0f, 4.0f}};
  const auto bsr = trnsparse::to_bsr(trnsparse::to_csr(coo), 4, 4);
  std::vector<float> b(8 * 2, 1.0f), c(10 * 2, 3.0f);
  trncore::AccuracyReport report;
  trnsparse::bsr_spmm<float, std::int32_t>(
      1.0f, bsr, 2, b, 2, 0.5f, c, 2,
      trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(MathMode::fp32), report);
  // Exact in fp32: small integers and halves.
  const std::vector<float> want{3.5f, 3.5f, 1.5f, 1.5f, 1.5f, 1.5f, 5.5f, 5.5f, 1.5f, 1.5f,
                                1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 0.5f, 0.5f};
  EXPECT_EQ(c, want);
}

TEST(SimBsrSpmm, BitwiseIdenticalForOneAndTwoThreads) {
  const auto bsr = trnsparse::to_bsr(trnsparse::to_csr(random_coo<float, std::int32_t>(300, 260, 0.02, 9)), 128, 128);
  const auto b = random_dense<float>(260 * 64, 3);
  for (auto mode : {MathMode::bf16, MathMode::compensated}) {
    std::vector<float> c1(300 * 64), c2(300 * 64);
    trncore::AccuracyReport r1, r2;
    auto o = trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(mode);
    trnsparse::bsr_spmm<float, std::int32_t>(1.0f, bsr, 64, b, 64, 0.0f, c1, 64, o.with_threads(1), r1);
    trnsparse::bsr_spmm<float, std::int32_t>(1.0f, bsr, 64, b, 64, 0.0f, c2, 64, o.with_threads(2), r2);
    EXPECT_EQ(c1, c2);
    EXPECT_EQ(r1.a_priori_bound, r2.a_priori_bound);
    EXPECT_EQ(r1.cost->stats, r2.cost->stats);
  }
}

TEST(SimBlockDensity, CountsStoredBlocksAndFill) {
  // Block diagonal 256x256 of two dense 128x128 blocks, plus one entry in block (0, 1).
  trnsparse::Coo<double> coo{256, 256, {}, {}, {}};
  for (int blk = 0; blk < 2; ++blk)
    for (int i = 0; i < 128; ++i)
      for (int j = 0; j < 128; ++j) {
        coo.row.push_back(blk * 128 + i);
        coo.col.push_back(blk * 128 + j);
        coo.values.push_back(1.0);
      }
  coo.row.push_back(5);
  coo.col.push_back(200);
  coo.values.push_back(1.0);
  const auto a = trnsparse::to_csr(coo);
  const auto d = trnsparse::block_density(a);
  EXPECT_EQ(d.stored_blocks, 3);
  EXPECT_EQ(d.total_blocks, 4);
  EXPECT_DOUBLE_EQ(d.block_density, 0.75);
  EXPECT_DOUBLE_EQ(d.fill, (2.0 * 128 * 128 + 1) / (3.0 * 128 * 128));
  EXPECT_EQ(d.max_blocks_per_row, 2);
  trnsparse::BlockDensity d2;
  const auto bsr = trnsparse::to_bsr(a, 128, 128, d2);
  EXPECT_EQ(bsr.block_count(), 3);
  EXPECT_EQ(d2.stored_blocks, 3);
  EXPECT_NE(d.to_string().find("3 of 4 stored"), std::string::npos) << d.to_string();
}

// The same call on both backends: bsr_spmm / spmm(Bsr) on the host run each block with OpenBLAS and certify
// the composed bound (oracle: the long-double dense product, as for sim); spmm(Bsr) is bsr_spmm bit for bit.
TEST(BsrSpmmBackends, HostMeetsItsBoundAndSpmmIsTheSameCall) {
  for (auto [m, k, block] :
       {std::tuple<std::int64_t, std::int64_t, std::int64_t>{7, 13, 4}, {129, 127, 128}, {200, 257, 16}}) {
    const auto coo = random_coo<double, std::int32_t>(m, k, 0.1, static_cast<std::uint64_t>(m));
    const auto bsr = trnsparse::to_bsr(trnsparse::to_csr(coo), block, block);
    const std::int64_t n = 3, ldb = 4, ldc = 5;
    const auto b = random_dense<double>(k * ldb, 11);
    const auto c0 = random_dense<double>(m * ldc, 12);
    for (auto backend : {trncore::Backend::host, trncore::Backend::sim}) {
      auto o = trncore::Options{}.with_backend(backend);
      if (backend == trncore::Backend::sim) o.with_math_mode(MathMode::ozaki);
      auto c1 = c0, c2 = c0, c3 = c0;
      trncore::AccuracyReport r1, r2;
      trnsparse::bsr_spmm<double, std::int32_t>(1.5, bsr, n, b, ldb, -0.5, c1, ldc, o, r1);
      trnsparse::spmm<double, std::int32_t>(trnblas::Op::no_trans, 1.5, bsr, n, b, ldb, -0.5, c2, ldc, o, r2);
      trnsparse::spmm<double, std::int32_t>(trnblas::Op::no_trans, 1.5, bsr, n, b, ldb, -0.5, c3, ldc, o);
      EXPECT_EQ(c1, c2);
      EXPECT_EQ(c1, c3);
      EXPECT_TRUE(r1.met) << r1.uncertified_reason;
      EXPECT_EQ(r1.a_priori_bound, r2.a_priori_bound);
      EXPECT_EQ(r1.cost.has_value(), backend == trncore::Backend::sim);
      const auto a = trnsparse_test::dense_oracle(coo);
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          const ExpectedEntry e = expected_entry(a, k, b, ldb, c0, ldc, 1.5L, -0.5L, i, j);
          ASSERT_LE(std::fabs(c1[static_cast<std::size_t>(i * ldc + j)] - e.value), r1.a_priori_bound * e.scale)
              << trncore::to_string(backend) << " " << m << "x" << k << " at " << i << "," << j;
        }
    }
  }
}

TEST(SimBsrSpmmErrors, BadArgumentsAreNamed) {
  const auto bsr = trnsparse::to_bsr(trnsparse::to_csr(random_coo<float, std::int32_t>(8, 8, 0.5, 1)), 4, 4);
  std::vector<float> b(64), c(64);
  trncore::AccuracyReport r;
  // The host has no bf16 products: NotSupported from the block gemm, naming the mode.
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsparse::bsr_spmm<float, std::int32_t>(1, bsr, 8, b, 8, 0, c, 8,
                                                 trncore::Options{}.with_math_mode(MathMode::bf16), r);
      },
      "trnblas::gemm", {"bf16"});
  // The BSR spmm has no transpose; the CSR products have no sim backend (the hint names the BSR spmm).
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] { trnsparse::spmm<float, std::int32_t>(trnblas::Op::trans, 1, bsr, 8, b, 8, 0, c, 8); }, "trnsparse::spmm",
      {"trans", "transpose"});
  const auto csr = trnsparse::to_csr(random_coo<float, std::int32_t>(8, 8, 0.5, 1));
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsparse::spmm<float, std::int32_t>(trnblas::Op::no_trans, 1, csr, 8, b, 8, 0, c, 8,
                                             trncore::Options{}.with_backend(trncore::Backend::sim));
      },
      "trnsparse::spmm", {"backend sim", "to_bsr"});
  // Without a report, an uncertified result throws TargetNotMet (NaN in B).
  std::vector<float> nan_b(64, std::nanf(""));
  EXPECT_THROW((trnsparse::bsr_spmm<float, std::int32_t>(1, bsr, 8, nan_b, 8, 0, c, 8)), trncore::TargetNotMet);
  const auto sim = trncore::Options{}.with_backend(trncore::Backend::sim);
  trnsci_testing::expect_error<trncore::DimensionMismatch>(
      [&] { trnsparse::bsr_spmm<float, std::int32_t>(1, bsr, 9, b, 9, 0, c, 9, sim, r); }, "trnsparse::bsr_spmm",
      {"b has 64"});
  trnsci_testing::expect_error<trncore::InvalidArgument>(
      [&] { trnsparse::bsr_spmm<float, std::int32_t>(1, bsr, 8, b, 7, 0, c, 8, sim, r); }, "trnsparse::bsr_spmm",
      {"ldb"});
  trnsci_testing::expect_error<trncore::NotSupported>(
      [&] {
        trnsparse::bsr_spmm<float, std::int32_t>(1, bsr, 8, b, 8, 0, c, 8,
                                                 trncore::Options{sim}.with_math_mode(MathMode::fp64), r);
      },
      "trnblas::gemm", {"fp64"});
}

}  // namespace
