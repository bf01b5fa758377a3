#pragma once
/// @file
/// The whole public API of trnrand.

#include <trnrand/build_info.hpp>
#include <trnrand/version.hpp>
