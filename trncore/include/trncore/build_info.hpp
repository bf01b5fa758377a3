#pragma once
/// @file
/// What a trnsci library was built with, for bug reports and the suite's showcase.

#include <string>

namespace trncore {

/// One line describing this trncore build: library version, compiler and C++ standard.
///
/// Never throws except std::bad_alloc; thread-safe.
std::string build_info();

}  // namespace trncore
