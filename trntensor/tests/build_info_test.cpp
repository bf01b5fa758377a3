#include <trntensor/build_info.hpp>
#include <trntensor/version.hpp>

#include <Eigen/Core>
#include <gtest/gtest.h>

#include <string>

namespace {

TEST(BuildInfo, StartsWithLibraryVersion) {
  const std::string info = trntensor::build_info();
  EXPECT_EQ(info.rfind("trntensor " + std::string(trntensor::version()), 0), 0u) << info;
}

TEST(BuildInfo, ReportsTheEigenItWasBuiltWith) {
  const std::string info = trntensor::build_info();
  const std::string eigen = std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
                            std::to_string(EIGEN_MINOR_VERSION);
  EXPECT_NE(info.find("Eigen " + eigen), std::string::npos) << info;
}
}  // namespace
