#pragma once
/// @file
/// The whole public API of trnrand.

#include <trnrand/build_info.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>
#include <trnrand/threefry.hpp>
#include <trnrand/qmc.hpp>
#include <trnrand/sim.hpp>
#include <trnrand/version.hpp>
