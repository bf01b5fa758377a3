#pragma once
/// @file
/// The modelled NeuronCore: generations and their spec table, the product model, the whole-matrix
/// TensorEngine numerics (matmul_psum), tiles, the engines and the cost model.

#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/generation.hpp>
#include <trncore/sim/matmul.hpp>
#include <trncore/sim/neuron_core.hpp>
#include <trncore/sim/product_model.hpp>
#include <trncore/sim/spec.hpp>
#include <trncore/sim/tile.hpp>
