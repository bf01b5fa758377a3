#include <trnrand/build_info.hpp>
#include <trnrand/version.hpp>

namespace trnrand {

std::string build_info() {
  std::string info = "trnrand ";
  info.append(version());
  return info;
}

}  // namespace trnrand
