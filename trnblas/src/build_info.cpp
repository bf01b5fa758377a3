#include <trnblas/build_info.hpp>
#include <trnblas/version.hpp>

#include <cblas.h>

namespace trnblas {

std::string build_info() {
  std::string info = "trnblas ";
  info.append(version());
  info.append(", ").append(openblas_get_config());
  return info;
}

}  // namespace trnblas
