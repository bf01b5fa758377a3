// The modelled scale-out (scaling_model.hpp): hand-computed small cases from the published constants, the
// limits (one chip: no communication; efficiency ≤ 1; weak scaling grows only by communication), the tier
// effect, and bad input.
#include <trnsolver/scaling_model.hpp>

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using trncore::sim::Generation;
using trnsolver::ScalingKind;

// trn2 chip rates from the published spec (docs/numerics.md) as the model uses them:
// 8 cores; TensorEngine tiles at 512 / (512 + 64) of the spec rate.
constexpr double kEff = 512.0 / 576.0;
constexpr double kBf16 = 8 * 79e12 * kEff;            // FLOP/s
constexpr double kFp32 = 8 * (181e12 / 8) * kEff;     // FLOP/s
constexpr double kClock = 79e12 / (2.0 * 128 * 128);  // derived clock
constexpr double kEntries = 8 * 128 * kClock * kEff;  // distance-pass entries/s
constexpr double kScalar = 8 * 2.9e12;
constexpr double kVector = 8 * 2.3e12;
constexpr double kVectorCore = 2.3e12;
constexpr double kHbm = 2.9e12;
constexpr double kHost = 1e11;
// trn2 instance tier of the link model: 512e9 B/s each way, 2 us per step (collectives.hpp).
constexpr double kAlpha = 2e-6, kBw = 512e9;

void expect_rel(double got, double want, double tol = 1e-12) {
  EXPECT_NEAR(got, want, tol * std::abs(want)) << "want " << want;
}

TEST(ScalingModel, GridsAndChipCounts) {
  using P = std::pair<std::int64_t, std::int64_t>;
  EXPECT_EQ(trnsolver::square_grid(1), P(1, 1));
  EXPECT_EQ(trnsolver::square_grid(2), P(1, 2));
  EXPECT_EQ(trnsolver::square_grid(7), P(1, 7));
  EXPECT_EQ(trnsolver::square_grid(8), P(2, 4));
  EXPECT_EQ(trnsolver::square_grid(128), P(8, 16));
  EXPECT_EQ(trnsolver::square_grid(144), P(12, 12));
  EXPECT_EQ(trnsolver::default_chip_counts(), (std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 144}));
  // 0.8 · 96 GiB / 10 bytes per entry = 8.246e9 entries: n = 90809 → 177 blocks of 512.
  EXPECT_EQ(trnsolver::hpl_mxp_memory_order(1), 90624);
  EXPECT_EQ(trnsolver::device_memory_bytes(Generation::trn3), 144.0 * 1024 * 1024 * 1024);
}

TEST(ScalingModel, HplHandComputedSmallCase) {
  trnsolver::HplMxpModelOptions o;
  o.refinement_iterations = 1;
  // n = 1024, nb = 512, one chip: two block steps. Step 0: diagonal LU (2/3·512³ on one VectorEngine), the
  // 512×512 trailing update and both panel solves on the TensorEngines (4·512³ flops); step 1: the diagonal
  // block only. One GMRES-IR iteration: residual max(8n²/HBM, 2n²·20/vector), LU solve max(2n²/HBM,
  // 2n²/vector) plus the diagonal blocks' L and U solves (2·512² per block on one VectorEngine), replicated
  // Gram-Schmidt 4·2·n·20/vector.
  const double b3 = 512.0 * 512 * 512, n2 = 1024.0 * 1024, b2 = 512.0 * 512;
  const double lu = 2 * (2.0 / 3.0 * b3 / kVectorCore) + 4 * b3 / kBf16;
  const double serial_solve = 2 * 2 * b2 / kVectorCore, gram_schmidt = 4 * 2 * 1024.0 * 20 / kVector;
  const double gmres = std::max(8 * n2 / kHbm, 2 * n2 * 20 / kVector) + std::max(2 * n2 / kHbm, 2 * n2 / kVector) +
                       serial_solve + gram_schmidt;
  const trnsolver::ScalingRow one = trnsolver::model_hpl_mxp(1024, 1, o);
  EXPECT_EQ(one.comm_seconds, 0.0);
  expect_rel(one.compute_seconds, lu + gmres);
  expect_rel(one.flops, 2.0 / 3.0 * 1024.0 * 1024 * 1024 + 2 * n2);
  EXPECT_EQ(one.efficiency, 1.0);

  // Two chips, grid 1×2: columns of one chip never communicate; along the row (2 chips, one instance) a
  // broadcast is a binomial tree of one step, alpha + bytes/beta; a 2-chip allgather or all_to_all is one
  // step moving half the bytes. LU: step 0 broadcasts the diagonal block and the L panel (512×512 bf16
  // each), step 1 the diagonal block (the L panel is empty); the single 512-column trailing block stays on
  // one chip, so the LU's compute is unchanged.
  // GMRES-IR: the residual's ordered_sum of 2 blocks of 8·1024 bytes along the row = indices (16 bytes) +
  // all_to_all (1 block: 8192) + allgather (8192). Each LU solve: per block step and direction an ordered_sum
  // of the eliminated blocks (0 or 1) of 8·512 bytes (indices 0 or 8 bytes, all_to_all 0 or 4096, allgather
  // 4096) and a broadcast of 8·512 bytes: 16 steps and 2·(2048 + 4096) + 2·(4 + 2048 + 2048 + 4096) bytes.
  const trnsolver::ScalingRow two = trnsolver::model_hpl_mxp(1024, 2, o);
  EXPECT_EQ(two.grid_rows, 1);
  EXPECT_EQ(two.grid_cols, 2);
  const double panel = 2.0 * 512 * 512;
  const double comm =
      3 * (kAlpha + panel / kBw) + (3 * kAlpha + (8.0 + 4096 + 4096) / kBw) + (16 * kAlpha + 28680.0 / kBw);
  expect_rel(two.comm_seconds, comm);
  const double gmres2 =
      std::max(8 * n2 / 2 / kHbm, n2 * 20 / kVector) + std::max(n2 / kHbm, n2 / kVector) + serial_solve + gram_schmidt;
  expect_rel(two.compute_seconds, lu + gmres2);
  expect_rel(two.efficiency, one.total_seconds / (2 * two.total_seconds));
}

TEST(ScalingModel, RsvdHandComputedSmallCase) {
  trnsolver::KernelRsvdModelOptions o;
  o.rank = 10;
  o.oversampling = 0;
  o.power_iterations = 0;
  o.refine = false;
  // n = 1000, l = 10, q = 0, no refinement: 2 products with K, each max(distance pass + sketch GEMM, exp);
  // 1 CholeskyQR2 (2 × (Gram 2·r·l², TRSM r·l² at the fp32 rate, Cholesky l³/3 on the host)); the final
  // Gram, Cholesky, the l×l SVD (22·l³ on the host) and the basis update (2 Grams' worth).
  const auto expected_compute = [](double rows) {
    const double e = rows * 1000, l = 10;
    const double product = std::max(e / kEntries + 2 * e * l / kBf16, e / kScalar);
    const double gram = 2 * rows * l * l / kFp32, trsm = rows * l * l / kFp32, chol = l * l * l / 3 / kHost;
    return 2 * product + 2 * (gram + trsm + chol) + gram + chol + 22 * l * l * l / kHost + 2 * gram;
  };
  const trnsolver::ScalingRow one = trnsolver::model_kernel_rsvd(1000, 1, o);
  EXPECT_EQ(one.comm_seconds, 0.0);
  expect_rel(one.compute_seconds, expected_compute(1000));
  expect_rel(one.flops, 2 * 2.0 * 1000 * 1000 * 10);
  // Two chips in one instance: the points (1000·3 doubles), one basis allgather in bf16 (1000·10·2 bytes),
  // three ordered Gram reductions of ⌈1000/512⌉ = 2 blocks of 10·10·8 bytes (indices 16 bytes, all_to_all of
  // one block, allgather of the 800-byte sum); each collective 1 step moving half the bytes.
  const trnsolver::ScalingRow two = trnsolver::model_kernel_rsvd(1000, 2, o);
  expect_rel(two.comm_seconds,
             (kAlpha + 12000 / kBw) + (kAlpha + 10000 / kBw) + 3 * (3 * kAlpha + (8.0 + 400 + 400) / kBw));
  expect_rel(two.compute_seconds, expected_compute(500));
}

TEST(ScalingModel, OneChipHasNoCommunicationAndEfficiencyIsAtMostOne) {
  for (ScalingKind kind : {ScalingKind::strong, ScalingKind::weak}) {
    for (Generation g : {Generation::trn1, Generation::trn2, Generation::trn3}) {
      trnsolver::HplMxpModelOptions h;
      h.generation = g;
      trnsolver::KernelRsvdModelOptions r;
      r.generation = g;
      for (const trnsolver::ScalingTable& t :
           {trnsolver::hpl_mxp_scaling(kind, {}, 0, h), trnsolver::kernel_rsvd_scaling(kind, {}, 0, r)}) {
        ASSERT_EQ(t.rows.size(), 9u);
        EXPECT_EQ(t.rows[0].chips, 1);
        EXPECT_EQ(t.rows[0].comm_seconds, 0.0) << t.title;
        EXPECT_EQ(t.rows[0].efficiency, 1.0);
        for (const trnsolver::ScalingRow& row : t.rows) {
          EXPECT_LE(row.efficiency, 1.0 + 1e-12) << t.title << " chips " << row.chips;
          EXPECT_GT(row.efficiency, 0.0);
          EXPECT_EQ(row.total_seconds, row.compute_seconds + row.comm_seconds);
          EXPECT_EQ(row.grid_rows * row.grid_cols, row.chips);
          if (row.chips > 1) {
            EXPECT_GT(row.comm_seconds, 0.0);
          }
        }
        const std::string text = t.to_string();
        EXPECT_EQ(text.rfind("modelled (not measured) on ", 0), 0u) << text;
        EXPECT_NE(text.find("estimated"), std::string::npos);
      }
    }
  }
}

TEST(ScalingModel, StrongScalingSpeedsUpComputeAndWeakScalingGrowsOnlyByCommunication) {
  const trnsolver::ScalingTable strong = trnsolver::kernel_rsvd_scaling(ScalingKind::strong, {});
  for (std::size_t i = 1; i < strong.rows.size(); ++i) {
    EXPECT_LT(strong.rows[i].compute_seconds, strong.rows[i - 1].compute_seconds);
    EXPECT_EQ(strong.rows[i].n, 1'000'000);
  }
  // Weak rsvd: n = ⌊√p · n₁⌋ keeps the O(n²/p) work per chip (nearly) constant; the O(n/p) orthonormalisation
  // shrinks. So compute never grows and stays within 0.5% of one chip's; all growth is communication.
  const trnsolver::ScalingTable weak = trnsolver::kernel_rsvd_scaling(ScalingKind::weak, {});
  const trnsolver::ScalingRow& base = weak.rows[0];
  for (const trnsolver::ScalingRow& row : weak.rows) {
    EXPECT_LE(row.compute_seconds, base.compute_seconds * (1 + 1e-12)) << row.chips;
    EXPECT_GE(row.compute_seconds, base.compute_seconds * 0.995) << row.chips;
    EXPECT_LE(row.total_seconds - row.comm_seconds, base.total_seconds * (1 + 1e-12));
  }
  EXPECT_EQ(weak.rows.back().n, 1'000'008);  // 144 chips: 12 · 83,334, the flagship's size
  // Weak HPL-MxP: memory per chip fixed, so n grows as √p and the compute per chip grows as √p too.
  const trnsolver::ScalingTable hpl = trnsolver::hpl_mxp_scaling(ScalingKind::weak, {});
  for (std::size_t i = 1; i < hpl.rows.size(); ++i) {
    EXPECT_GT(hpl.rows[i].n, hpl.rows[i - 1].n);
    EXPECT_EQ(hpl.rows[i].n % 512, 0);
  }
}

TEST(ScalingModel, FlagshipAndTierEffect) {
  // The 10⁶ kernel rsvd: 144 trn2 chips span three UltraServers (EFA); 144 trn3 chips are one Gen2
  // UltraServer (NeuronLink-v4), so its communication is far cheaper.
  trnsolver::KernelRsvdModelOptions o2, o3;
  o3.generation = Generation::trn3;
  const trnsolver::ScalingRow t2 = trnsolver::model_kernel_rsvd(1'000'000, 144, o2);
  const trnsolver::ScalingRow t3 = trnsolver::model_kernel_rsvd(1'000'000, 144, o3);
  EXPECT_LT(t3.comm_seconds * 5, t2.comm_seconds);
  EXPECT_LT(t2.total_seconds, trnsolver::model_kernel_rsvd(1'000'000, 1, o2).total_seconds / 50);
  // Crossing into EFA (64 → 65 chips on trn2) makes the same problem's communication jump.
  const double in = trnsolver::model_kernel_rsvd(1'000'000, 64, o2).comm_seconds;
  const double out = trnsolver::model_kernel_rsvd(1'000'000, 65, o2).comm_seconds;
  EXPECT_GT(out, 3 * in);
  // On trn3 the 65th chip stays inside the 144-chip NeuronLink domain: no jump.
  trnsolver::KernelRsvdModelOptions t3o;
  t3o.generation = Generation::trn3;
  EXPECT_LT(trnsolver::model_kernel_rsvd(1'000'000, 65, t3o).comm_seconds,
            1.1 * trnsolver::model_kernel_rsvd(1'000'000, 64, t3o).comm_seconds);
  // Without refinement the run does 6 products instead of 9 (3 of them at 21 passes): much faster.
  trnsolver::KernelRsvdModelOptions plain;
  plain.refine = false;
  EXPECT_LT(trnsolver::model_kernel_rsvd(1'000'000, 1, plain).total_seconds * 5,
            trnsolver::model_kernel_rsvd(1'000'000, 1, o2).total_seconds);
}

TEST(ScalingModel, BadInputNamesTheFunctionAndValues) {
  auto expect_invalid = [](auto&& call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "no throw; wanted " << needle;
    } catch (const trncore::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_FALSE(e.hint().empty());
    }
  };
  expect_invalid([] { trnsolver::model_hpl_mxp(0, 4); }, "trnsolver::model_hpl_mxp: n = 0 is below 1");
  expect_invalid([] { trnsolver::model_hpl_mxp(100, 0); }, "chips = 0 is below 1");
  expect_invalid(
      [] {
        trnsolver::HplMxpModelOptions o;
        o.block = 0;
        trnsolver::model_hpl_mxp(100, 1, o);
      },
      "options.block = 0");
  expect_invalid(
      [] {
        trnsolver::HplMxpModelOptions o;
        o.memory_fraction = 1.5;
        trnsolver::hpl_mxp_memory_order(1, o);
      },
      "options.memory_fraction = 1.5 is outside (0, 1]");
  expect_invalid(
      [] {
        trnsolver::HplMxpModelOptions o;
        o.fp64_emulation_ops = std::nan("");
        trnsolver::model_hpl_mxp(100, 1, o);
      },
      "options.fp64_emulation_ops = nan");
  expect_invalid([] { trnsolver::model_kernel_rsvd(100, 1); }, "l = rank + oversampling = 310 exceeds n = 100");
  expect_invalid(
      [] {
        trnsolver::KernelRsvdModelOptions o;
        o.dimension = 127;
        trnsolver::model_kernel_rsvd(1000, 1, o);
      },
      "options.dimension = 127 is outside [1, 126]");
  expect_invalid(
      [] {
        const std::vector<std::int64_t> chips{1, 0};
        trnsolver::kernel_rsvd_scaling(ScalingKind::strong, chips);
      },
      "trnsolver::kernel_rsvd_scaling: chips contains 0");
  expect_invalid([] { trnsolver::hpl_mxp_scaling(ScalingKind::weak, {}, -5); }, "n = -5 is negative");
  expect_invalid([] { trnsolver::square_grid(-1); }, "trncore::sim::square_grid: chips = -1 is below 1");
  expect_invalid([] { trnsolver::device_memory_bytes(static_cast<Generation>(9)); }, "generation value 9");
}

}  // namespace
