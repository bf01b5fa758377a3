#pragma once
/// @file
/// The whole public API of trnblas.

#include <trnblas/build_info.hpp>
#include <trnblas/gemm.hpp>
#include <trnblas/types.hpp>
#include <trnblas/version.hpp>
