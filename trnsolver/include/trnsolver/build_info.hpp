#pragma once
/// @file
/// What trnsolver was built with, for bug reports and the suite's showcase.

#include <string>

namespace trnsolver {

/// One line describing this trnsolver build: library version and the LAPACK version that LAPACKE reports for the host backend.
///
/// Third-party versions are asked of the linked libraries at run time, so the line shows what actually
/// runs. Never throws except std::bad_alloc; thread-safe.
std::string build_info();

}  // namespace trnsolver
