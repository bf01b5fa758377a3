#include <trntensor/build_info.hpp>
#include <trntensor/version.hpp>

#include <Eigen/Core>

namespace trntensor {

std::string build_info() {
  std::string info = "trntensor ";
  info.append(version());
  info.append(", Eigen ").append(std::to_string(EIGEN_WORLD_VERSION)).append(".");
  info.append(std::to_string(EIGEN_MAJOR_VERSION)).append(".").append(std::to_string(EIGEN_MINOR_VERSION));
  return info;
}

}  // namespace trntensor
