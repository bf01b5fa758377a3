// The modelled sparse CG scale-out against hand computation from its stated formula and the published
// constants it reads, and the properties every scaling table must have. Modelled numbers, never measured.
#include <trnsparse/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>
#include <trncore/sim/spec.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

using trncore::sim::Generation;

TEST(SparseScalingModel, TheBillionNonzeroEdge) {
  const auto n = trnsparse::poisson_edge_for_nonzeros(1'000'000'000);
  EXPECT_GE(7 * n * n * n - 6 * n * n, 1'000'000'000);
  EXPECT_LT(7 * (n - 1) * (n - 1) * (n - 1) - 6 * (n - 1) * (n - 1), 1'000'000'000);
  EXPECT_EQ(n, 524);  // 7·524³ − 6·524² = 1,005,497,312; N = 523 gives 999,748,495
}

TEST(SparseScalingModel, OneChipIsTheHandComputedMemoryBoundTime) {
  const std::int64_t e = 64;
  const auto row = trnsparse::model_sparse_cg(e, 1);
  const double n = 64.0 * 64 * 64;
  const double hbm = trncore::sim::topology(Generation::trn2).cores_per_chip.value *
                     trncore::sim::spec(Generation::trn2).hbm_bytes_per_s;
  const double per_iteration = (8 * 7 * n + 12 * n + 36 * n) / hbm;
  const double kappa = 4.0 * 65 * 65 / (std::numbers::pi * std::numbers::pi);
  const double its = std::ceil(0.5 * std::sqrt(kappa) * std::log(2.0 / 1e-6));
  EXPECT_DOUBLE_EQ(row.compute_seconds, its * per_iteration);
  EXPECT_EQ(row.comm_seconds, 0.0);
  EXPECT_EQ(row.efficiency, 1.0);
}

TEST(SparseScalingModel, TablesAreLabelledAndEfficienciesAtMostOne) {
  for (auto kind : {trncore::sim::ScalingKind::strong, trncore::sim::ScalingKind::weak}) {
    const auto t = trnsparse::sparse_cg_scaling(kind, {});
    ASSERT_EQ(t.rows.size(), trncore::sim::default_chip_counts().size());
    EXPECT_EQ(t.to_string().rfind("modelled (not measured)", 0), 0u);
    for (const auto& r : t.rows) {
      EXPECT_LE(r.efficiency, 1.0 + 1e-12) << r.chips;
      EXPECT_GT(r.efficiency, 0.0);
      EXPECT_EQ(r.total_seconds, r.compute_seconds + r.comm_seconds);
    }
    EXPECT_EQ(t.rows.front().comm_seconds, 0.0);
  }
  // Strong scaling of the 10^9-nonzero system: the compute shrinks with the chips, communication appears.
  const auto strong = trnsparse::sparse_cg_scaling(trncore::sim::ScalingKind::strong, {});
  EXPECT_LT(strong.rows.back().compute_seconds, strong.rows.front().compute_seconds / 100);
  EXPECT_GT(strong.rows.back().comm_seconds, 0.0);
}

TEST(SparseScalingModel, BadInputNamesTheFunctionAndValues) {
  auto expect_invalid = [](auto&& call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "no throw; wanted " << needle;
    } catch (const trncore::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_invalid([] { trnsparse::model_sparse_cg(1, 1); }, "trnsparse::model_sparse_cg: edge N = 1 is below 2");
  expect_invalid([] { trnsparse::model_sparse_cg(10, 11); }, "chips = 11 for N = 10");
  expect_invalid(
      [] {
        trnsparse::SparseCgModelOptions o;
        o.rtol = 2;
        trnsparse::model_sparse_cg(10, 2, o);
      },
      "rtol");
  expect_invalid([] { trnsparse::poisson_edge_for_nonzeros(0); }, "nonzeros = 0");
}
