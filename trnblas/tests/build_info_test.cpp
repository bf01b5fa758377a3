#include <trnblas/build_info.hpp>
#include <trnblas/version.hpp>

#include <cblas.h>
#include <openblas_config.h>
#include <gtest/gtest.h>

#include <string>

namespace {

TEST(BuildInfo, StartsWithLibraryVersion) {
  const std::string info = trnblas::build_info();
  EXPECT_EQ(info.rfind("trnblas " + std::string(trnblas::version()), 0), 0u) << info;
}

TEST(BuildInfo, ReportsTheLinkedOpenBlas) {
  const std::string info = trnblas::build_info();
  // openblas_get_config() comes from the linked library; OPENBLAS_VERSION from the header compiled against.
  EXPECT_NE(info.find("OpenBLAS"), std::string::npos) << info;
  std::string header_version = OPENBLAS_VERSION;
  header_version.erase(0, header_version.find_first_not_of(' '));
  header_version.erase(header_version.find_last_not_of(' ') + 1);
  EXPECT_NE(info.find(header_version), std::string::npos) << "library: " << info << ", header: " << header_version;
}
}  // namespace
