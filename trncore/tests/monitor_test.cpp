// ProgressMonitor: calls the monitor with what the routine passes and the elapsed time, reports a stop
// request, and costs nothing without a monitor. Options carries the monitor through copies.
#include <trncore/monitor.hpp>
#include <trncore/options.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(Monitor, ForwardsProgressAndStops) {
  std::vector<trncore::Progress> seen;
  trncore::Options options;
  options.with_monitor([&](const trncore::Progress& p) {
    seen.push_back(p);
    return p.iteration >= 3 ? trncore::MonitorAction::stop : trncore::MonitorAction::proceed;
  });
  const trncore::Options copy = options;  // calls take options by const reference or copy them
  const trncore::detail::ProgressMonitor monitor(copy.monitor, "pkg::solve");
  EXPECT_TRUE(monitor.active());
  EXPECT_FALSE(monitor.stop_requested(1, 0.5));
  EXPECT_FALSE(monitor.stop_requested(2, 0.25));
  EXPECT_TRUE(monitor.stop_requested(3, 0.125));
  ASSERT_EQ(seen.size(), 3u);
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].routine, "pkg::solve");
    EXPECT_EQ(seen[k].iteration, static_cast<std::int64_t>(k + 1));
    EXPECT_GE(seen[k].elapsed_seconds, 0.0);
    if (k > 0) {
      EXPECT_GE(seen[k].elapsed_seconds, seen[k - 1].elapsed_seconds);
    }
  }
  EXPECT_EQ(seen[2].residual, 0.125);
}

// A package's options struct built on OptionsFor keeps its own fields through a chain of base setters, and
// converts both ways with the base.
struct PackageOptions : trncore::OptionsFor<PackageOptions> {
  using OptionsFor::OptionsFor;
  double rtol = 1e-8;
};

TEST(OptionsFor, ChainsKeepTheDerivedType) {
  PackageOptions o;
  o.rtol = 1e-12;
  const PackageOptions chained =
      o.with_threads(3).with_backend(trncore::Backend::sim).with_target(1e-6).with_seed(7, 2);
  EXPECT_EQ(chained.rtol, 1e-12);
  EXPECT_EQ(chained.threads, 3);
  EXPECT_EQ(chained.backend, trncore::Backend::sim);
  EXPECT_EQ(chained.target_forward_error, 1e-6);
  EXPECT_EQ(chained.seed, 7u);
  EXPECT_EQ(chained.stream, 2u);
  const PackageOptions from_base = trncore::Options{}.with_threads(2);
  EXPECT_EQ(from_base.threads, 2);
  EXPECT_EQ(from_base.rtol, 1e-8);
  const trncore::Options& as_base = chained;
  EXPECT_EQ(as_base.threads, 3);
}

TEST(Monitor, AbsentMonitorNeverStops) {
  const trncore::Options options;
  const trncore::detail::ProgressMonitor monitor(options.monitor, "pkg::solve");
  EXPECT_FALSE(monitor.active());
  EXPECT_FALSE(monitor.stop_requested(1, 1.0));
}

}  // namespace
