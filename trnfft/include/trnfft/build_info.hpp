#pragma once
/// @file
/// What trnfft was built with, for bug reports and the suite's showcase.

#include <string>

namespace trnfft {

/// One line describing this trnfft build: library version and the FFTW it calls for the host backend (FFTW's own version string, double and float).
///
/// Third-party versions are asked of the linked libraries at run time, so the line shows what actually
/// runs. Never throws except std::bad_alloc; thread-safe.
std::string build_info();

}  // namespace trnfft
