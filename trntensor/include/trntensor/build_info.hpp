#pragma once
/// @file
/// What trntensor was built with, for bug reports and the suite's showcase.

#include <string>

namespace trntensor {

/// One line describing this trntensor build: library version and the Eigen version it was compiled with.
///
/// Third-party versions are asked of the linked libraries at run time, so the line shows what actually
/// runs. Never throws except std::bad_alloc; thread-safe.
std::string build_info();

}  // namespace trntensor
