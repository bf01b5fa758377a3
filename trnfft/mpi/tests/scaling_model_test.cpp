// The modelled scale-out of the distributed 1-D FFT: its arithmetic on hand-checkable cases (one chip: no
// communication; the three all-to-alls priced by trncore::sim::collective_cost), monotone structure and the
// labelled table for 2^30 points at 1–144 chips (printed: the numbers in docs/distributed.md).
#include <trnfft/mpi/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>

#include <gtest/gtest.h>

#include <cstdio>

namespace {

TEST(FftScalingModel, OneChipHasNoCommunication) {
  const auto r = trnfft::mpi::model_fft_1d(std::int64_t{1} << 20, 1);
  EXPECT_EQ(r.comm_seconds, 0.0);
  EXPECT_GT(r.compute_seconds, 0.0);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
  EXPECT_DOUBLE_EQ(r.flops, 5.0 * (1 << 20) * 20);
}

TEST(FftScalingModel, CommunicationIsThreeAllToAlls) {
  const std::int64_t n = std::int64_t{1} << 24, p = 16;
  const auto r = trnfft::mpi::model_fft_1d(n, p);
  const auto a2a = trncore::sim::collective_cost(trncore::sim::Collective::all_to_all, n * 8 / p, {p, 0});
  EXPECT_DOUBLE_EQ(r.comm_seconds, 3 * a2a.seconds);
  EXPECT_DOUBLE_EQ(r.total_seconds, r.compute_seconds + r.comm_seconds);
}

TEST(FftScalingModel, StrongScalingTableFor2To30) {
  const auto t = trnfft::mpi::fft_1d_scaling();
  ASSERT_EQ(t.rows.size(), trncore::sim::default_chip_counts().size());
  EXPECT_NE(t.to_string().find("modelled"), std::string::npos);
  for (std::size_t i = 1; i < t.rows.size(); ++i) {
    EXPECT_LT(t.rows[i].compute_seconds, t.rows[i - 1].compute_seconds);  // compute divides over chips
    EXPECT_LE(t.rows[i].efficiency, 1.0 + 1e-12);
    EXPECT_GT(t.rows[i].comm_seconds, 0.0);
  }
  std::printf("%s\n", t.to_string().c_str());
}

TEST(FftScalingModel, BadArguments) {
  EXPECT_THROW(trnfft::mpi::model_fft_1d(1, 1), trncore::InvalidArgument);
  EXPECT_THROW(trnfft::mpi::model_fft_1d(1024, 0), trncore::InvalidArgument);
  EXPECT_THROW(trnfft::mpi::model_fft_1d(1024, 2, {.radix = 1}), trncore::InvalidArgument);
}

}  // namespace
