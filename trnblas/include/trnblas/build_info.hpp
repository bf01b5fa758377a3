#pragma once
/// @file
/// What trnblas was built with, for bug reports and the suite's showcase.

#include <string>

namespace trnblas {

/// One line describing this trnblas build: library version and the OpenBLAS it calls for the host backend (OpenBLAS's run-time configuration string).
///
/// Third-party versions are asked of the linked libraries at run time, so the line shows what actually
/// runs. Never throws except std::bad_alloc; thread-safe.
std::string build_info();

}  // namespace trnblas
