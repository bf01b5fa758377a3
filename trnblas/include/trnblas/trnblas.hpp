#pragma once
/// @file
/// The whole public API of trnblas.

#include <trnblas/batched.hpp>
#include <trnblas/build_info.hpp>
#include <trnblas/df_mp2.hpp>
#include <trnblas/gemm.hpp>
#include <trnblas/level1.hpp>
#include <trnblas/level2.hpp>
#include <trnblas/level3.hpp>
#include <trnblas/types.hpp>
#include <trnblas/version.hpp>
