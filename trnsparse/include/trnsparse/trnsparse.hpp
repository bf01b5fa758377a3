#pragma once
/// @file
/// The whole public API of trnsparse.

#include <trnsparse/attention.hpp>
#include <trnsparse/build_info.hpp>
#include <trnsparse/direct.hpp>
#include <trnsparse/data.hpp>
#include <trnsparse/eigen.hpp>
#include <trnsparse/formats.hpp>
#include <trnsparse/iterative.hpp>
#include <trnsparse/matrix_market.hpp>
#include <trnsparse/ops.hpp>
#include <trnsparse/screening.hpp>
#include <trnsparse/sim.hpp>
#include <trnsparse/version.hpp>
