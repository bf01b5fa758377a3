#pragma once
/// @file
/// The whole public API of trncore.

#include <trncore/build_info.hpp>
#include <trncore/error.hpp>
#include <trncore/version.hpp>
