#include <trnsparse/build_info.hpp>
#include <trnsparse/version.hpp>

#include <SuiteSparse_config.h>
#include <Eigen/Core>

namespace trnsparse {

std::string build_info() {
  std::string info = "trnsparse ";
  info.append(version());
  int suitesparse[3] = {0, 0, 0};
  SuiteSparse_version(suitesparse);
  info.append(", SuiteSparse ").append(std::to_string(suitesparse[0])).append(".");
  info.append(std::to_string(suitesparse[1])).append(".").append(std::to_string(suitesparse[2]));
  info.append(", Eigen ").append(std::to_string(EIGEN_WORLD_VERSION)).append(".");
  info.append(std::to_string(EIGEN_MAJOR_VERSION)).append(".").append(std::to_string(EIGEN_MINOR_VERSION));
  return info;
}

}  // namespace trnsparse
