#include <trnfft/build_info.hpp>
#include <trnfft/version.hpp>

#include <fftw3.h>

namespace trnfft {

std::string build_info() {
  std::string info = "trnfft ";
  info.append(version());
  info.append(", FFTW ").append(fftw_version);
  info.append(" (float: ").append(fftwf_version).append(")");
  return info;
}

}  // namespace trnfft
