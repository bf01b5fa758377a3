#pragma once
/// @file
/// The one way the suite prints a floating-point value in an error message or report: scientific with four
/// significant digits, so 1e-10 never reads "0.000000" (std::to_string's fixed format).

#include <cstdio>
#include <string>

namespace trncore::detail {

/// `x` as "%.3e" (e.g. "1.000e-10", "nan", "inf").
inline std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

}  // namespace trncore::detail
