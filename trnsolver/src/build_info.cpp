#include <trnsolver/build_info.hpp>
#include <trnsolver/version.hpp>

#include <lapacke.h>

namespace trnsolver {

std::string build_info() {
  std::string info = "trnsolver ";
  info.append(version());
  lapack_int major = 0, minor = 0, patch = 0;
  LAPACKE_ilaver(&major, &minor, &patch);
  info.append(", LAPACK ").append(std::to_string(major)).append(".").append(std::to_string(minor));
  info.append(".").append(std::to_string(patch)).append(" via LAPACKE");
  return info;
}

}  // namespace trnsolver
