#pragma once
/// @file
/// The whole public API of trnsolver.

#include <trnsolver/build_info.hpp>
#include <trnsolver/dense.hpp>
#include <trnsolver/hpl_mxp.hpp>
#include <trnsolver/jacobi.hpp>
#include <trnsolver/krylov.hpp>
#include <trnsolver/randomized.hpp>
#include <trnsolver/sketch.hpp>
#include <trnsolver/solve.hpp>
#include <trnsolver/version.hpp>
