#include <trncore/build_info.hpp>
#include <trncore/version.hpp>

namespace trncore {

std::string build_info() {
  std::string info = "trncore ";
  info.append(version());
#if defined(__clang__)
  info.append(", clang ").append(__clang_version__);
#elif defined(__GNUC__)
  info.append(", gcc ").append(__VERSION__);
#endif
  info.append(", C++ ").append(std::to_string(__cplusplus));
  return info;
}

}  // namespace trncore
