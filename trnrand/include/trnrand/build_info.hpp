#pragma once
/// @file
/// What trnrand was built with, for bug reports and the suite's showcase.

#include <string>

namespace trnrand {

/// One line describing this trnrand build: library version. trnrand has no third-party run-time dependency: its generators are its own.
///
/// Third-party versions are asked of the linked libraries at run time, so the line shows what actually
/// runs. Never throws except std::bad_alloc; thread-safe.
std::string build_info();

}  // namespace trnrand
