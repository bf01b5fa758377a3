#pragma once
/// @file
/// The whole public API of trnsolver.

#include <trnsolver/build_info.hpp>
#include <trnsolver/version.hpp>
