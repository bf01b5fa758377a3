#include <trnrand/build_info.hpp>
#include <trnrand/version.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(BuildInfo, StartsWithLibraryVersion) {
  const std::string info = trnrand::build_info();
  EXPECT_EQ(info.rfind("trnrand " + std::string(trnrand::version()), 0), 0u) << info;
}

}  // namespace
