#pragma once
/// @file
/// The whole public API of trnblas.

#include <trnblas/build_info.hpp>
#include <trnblas/version.hpp>
