#pragma once
/// @file
/// The whole public API of trntensor.

#include <trntensor/build_info.hpp>
#include <trntensor/version.hpp>
