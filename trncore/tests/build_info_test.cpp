#include <trncore/build_info.hpp>
#include <trncore/version.hpp>

#include <gtest/gtest.h>

namespace {

TEST(BuildInfo, NamesLibraryVersionAndLanguageStandard) {
  const std::string info = trncore::build_info();
  EXPECT_EQ(info.rfind("trncore " + std::string(trncore::version()), 0), 0u) << info;
  EXPECT_NE(info.find("C++ 2020"), std::string::npos) << info;  // __cplusplus is 202002 under -std=c++20
}

}  // namespace
