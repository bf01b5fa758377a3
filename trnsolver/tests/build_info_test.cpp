#include <trnsolver/build_info.hpp>
#include <trnsolver/version.hpp>

#include <lapacke.h>
#include <gtest/gtest.h>

#include <string>

namespace {

TEST(BuildInfo, StartsWithLibraryVersion) {
  const std::string info = trnsolver::build_info();
  EXPECT_EQ(info.rfind("trnsolver " + std::string(trnsolver::version()), 0), 0u) << info;
}

TEST(BuildInfo, ReportsTheLinkedLapack) {
  const std::string info = trnsolver::build_info();
  lapack_int major = 0, minor = 0, patch = 0;
  LAPACKE_ilaver(&major, &minor, &patch);
  EXPECT_EQ(major, 3) << "LAPACK 3.x is what the host backend is written against";
  EXPECT_NE(info.find("LAPACK " + std::to_string(major) + "." + std::to_string(minor)), std::string::npos) << info;
}
}  // namespace
