#include <trnfft/build_info.hpp>
#include <trnfft/version.hpp>

#include <fftw3.h>
#include <gtest/gtest.h>

#include <string>

namespace {

TEST(BuildInfo, StartsWithLibraryVersion) {
  const std::string info = trnfft::build_info();
  EXPECT_EQ(info.rfind("trnfft " + std::string(trnfft::version()), 0), 0u) << info;
}

TEST(BuildInfo, ReportsTheLinkedFftw) {
  const std::string info = trnfft::build_info();
  // fftw_version is read from the linked libfftw3 at run time; the header declares it, the library defines it.
  EXPECT_NE(info.find(std::string("FFTW ") + fftw_version), std::string::npos) << info;
  EXPECT_EQ(std::string(fftw_version).rfind("fftw-3.", 0), 0u) << fftw_version;
  EXPECT_EQ(std::string(fftwf_version), std::string(fftw_version)) << "float and double FFTW builds differ";
}
}  // namespace
