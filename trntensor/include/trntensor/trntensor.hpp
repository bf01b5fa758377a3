#pragma once
/// @file
/// The whole public API of trntensor.

#include <trntensor/build_info.hpp>
#include <trntensor/chemistry.hpp>
#include <trntensor/decompositions.hpp>
#include <trntensor/einsum.hpp>
#include <trntensor/plan.hpp>
#include <trntensor/sharded.hpp>
#include <trntensor/subscripts.hpp>
#include <trntensor/tensor.hpp>
#include <trntensor/version.hpp>
