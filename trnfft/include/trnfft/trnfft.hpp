#pragma once
/// @file
/// The whole public API of trnfft.

#include <trnfft/build_info.hpp>
#include <trnfft/version.hpp>
