#pragma once
/// @file
/// Where the data shipped with trnsparse lives: the Matrix Market files under share/trnsparse/ of the
/// install prefix (in a build tree, trnsparse/share/ of the sources).

#include <trncore/error.hpp>

#include <cstdlib>
#include <string>

namespace trnsparse {

/// The directory holding the matrices shipped with trnsparse, e.g. "<prefix>/share/trnsparse".
///
/// CMake consumers of trnsci::trnsparse get it as the TRNSPARSE_DATA_DIR compile definition (the install
/// prefix's share/trnsparse when found through trnsparseConfig.cmake, so it follows a relocated install).
/// Without that definition (pkg-config consumers) it is read at run time from the environment variable
/// TRNSPARSE_DATA_DIR, which `pkg-config --variable=pkgdatadir trnsparse` gives. Files: poisson2d_32.mtx
/// (2-D 5-point Laplacian on a 32×32 grid, SPD, 1024×1024, symmetric storage).
/// @throws trncore::IoError when neither the definition nor the environment variable is set.
inline std::string data_dir() {
#ifdef TRNSPARSE_DATA_DIR
  return TRNSPARSE_DATA_DIR;
#else
  if (const char* dir = std::getenv("TRNSPARSE_DATA_DIR"); dir != nullptr && *dir != '\0') return dir;
  throw trncore::IoError("trnsparse::data_dir",
                         "TRNSPARSE_DATA_DIR is neither a compile definition nor set in the environment",
                         "link the CMake target trnsci::trnsparse, or set TRNSPARSE_DATA_DIR to the output of "
                         "'pkg-config --variable=pkgdatadir trnsparse'");
#endif
}

}  // namespace trnsparse
