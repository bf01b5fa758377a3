#pragma once
/// @file
/// The whole public API of trnsparse.

#include <trnsparse/build_info.hpp>
#include <trnsparse/version.hpp>
