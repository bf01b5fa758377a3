#include <trnsparse/build_info.hpp>
#include <trnsparse/version.hpp>

#include <SuiteSparse_config.h>
#include <gtest/gtest.h>

#include <string>

namespace {

TEST(BuildInfo, StartsWithLibraryVersion) {
  const std::string info = trnsparse::build_info();
  EXPECT_EQ(info.rfind("trnsparse " + std::string(trnsparse::version()), 0), 0u) << info;
}

TEST(BuildInfo, LinkedSuiteSparseMatchesItsHeader) {
  const std::string info = trnsparse::build_info();
  // The library's SuiteSparse_version() against the header's macros: a mismatch means a broken install.
  const std::string header = std::to_string(SUITESPARSE_MAIN_VERSION) + "." + std::to_string(SUITESPARSE_SUB_VERSION) +
                             "." + std::to_string(SUITESPARSE_SUBSUB_VERSION);
  EXPECT_NE(info.find("SuiteSparse " + header), std::string::npos) << info;
  EXPECT_NE(info.find("Eigen 3."), std::string::npos) << info;
}
}  // namespace
