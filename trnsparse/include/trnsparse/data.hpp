#pragma once
/// @file
/// Where the data shipped with trnsparse lives: the Matrix Market files under share/trnsparse/ of the
/// install prefix (in a build tree, trnsparse/share/ of the sources).

#include <string>

#ifndef TRNSPARSE_DATA_DIR
#error "trnsparse/data.hpp: TRNSPARSE_DATA_DIR is not defined; link the CMake target trnsci::trnsparse or compile with the flags of 'pkg-config --cflags trnsparse'"
#endif

namespace trnsparse {

/// The directory holding the matrices shipped with trnsparse, e.g. "<prefix>/share/trnsparse". The path
/// comes from the TRNSPARSE_DATA_DIR compile definition that the trnsci::trnsparse target hands to its
/// consumers (the install prefix's share/trnsparse when found through trnsparseConfig.cmake, so it
/// follows a relocated install) and that `pkg-config --cflags trnsparse` prints (relative to the .pc
/// file's prefix, equally relocatable), hence inline. Files: poisson2d_32.mtx (2-D 5-point Laplacian on a
/// 32×32 grid, SPD, 1024×1024, symmetric storage). Never throws except std::bad_alloc.
inline std::string data_dir() { return TRNSPARSE_DATA_DIR; }

}  // namespace trnsparse
