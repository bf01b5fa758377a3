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

TEST(Monitor, AbsentMonitorNeverStops) {
  const trncore::Options options;
  const trncore::detail::ProgressMonitor monitor(options.monitor, "pkg::solve");
  EXPECT_FALSE(monitor.active());
  EXPECT_FALSE(monitor.stop_requested(1, 1.0));
}

}  // namespace
