#pragma once
/// @file
/// What trnsparse was built with, for bug reports and the suite's showcase.

#include <string>

namespace trnsparse {

/// One line describing this trnsparse build: library version, the SuiteSparse it calls for direct solvers (version reported by the linked library) and the Eigen version it was compiled with.
///
/// Third-party versions are asked of the linked libraries at run time, so the line shows what actually
/// runs. Never throws except std::bad_alloc; thread-safe.
std::string build_info();

}  // namespace trnsparse
