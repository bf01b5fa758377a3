// The modelled DF-MP2 scale-out: invariants of the model (not measurements): B of the default system does
// not fit one trn2 chip, the fewest chips that hold it fit and one fewer does not, efficiency ≤ 1, the
// compute term shrinks as 1/p up to the pair rounding, the table is labelled modelled, bad options throw.
#include <trntensor/mpi/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/scaling.hpp>

#include <gtest/gtest.h>

#include <cstdio>

TEST(DfMp2Model, LargeBasisNeedsSeveralChipsAndScales) {
  const trntensor::mpi::DfMp2ModelOptions o;
  const double cap = trncore::sim::device_memory_bytes(o.generation) * o.memory_fraction;
  EXPECT_GT(trntensor::mpi::df_mp2_bytes_per_chip(1, o), cap);
  const std::int64_t pmin = trntensor::mpi::df_mp2_min_chips(o);
  EXPECT_GT(pmin, 1);
  EXPECT_LE(trntensor::mpi::df_mp2_bytes_per_chip(pmin, o), cap);
  EXPECT_GT(trntensor::mpi::df_mp2_bytes_per_chip(pmin - 1, o), cap);
  const auto t = trntensor::mpi::df_mp2_scaling({}, o);
  ASSERT_EQ(t.rows.size(), trncore::sim::default_chip_counts().size());
  EXPECT_NE(t.title.find("MODELLED"), std::string::npos);
  for (const auto& r : t.rows) {
    EXPECT_LE(r.efficiency, 1.0 + 1e-12) << r.chips;
    EXPECT_GT(r.total_seconds, 0.0);
    EXPECT_NEAR(r.compute_seconds * static_cast<double>(r.chips), t.rows[0].compute_seconds,
                t.rows[0].compute_seconds * static_cast<double>(r.chips) / 45150.0 + 1e-12)
        << r.chips;  // ⌈pairs/p⌉ rounding: pairs = 45150
  }
  std::printf("%s", t.to_string().c_str());
  EXPECT_THROW(trntensor::mpi::df_mp2_bytes_per_chip(0, o), trncore::InvalidArgument);
  auto bad = o;
  bad.memory_fraction = 1.5;
  EXPECT_THROW(trntensor::mpi::df_mp2_scaling({}, bad), trncore::InvalidArgument);
}
