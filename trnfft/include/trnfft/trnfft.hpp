#pragma once
/// @file
/// The whole public API of trnfft.

#include <trnfft/build_info.hpp>
#include <trnfft/functions.hpp>
#include <trnfft/plan.hpp>
#include <trnfft/stft.hpp>
#include <trnfft/types.hpp>
#include <trnfft/version.hpp>
#include <trnfft/wisdom.hpp>
