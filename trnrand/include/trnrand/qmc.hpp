#pragma once
/// @file
/// Quasi-random sequences: Sobol (Joe–Kuo direction numbers, up to 21201 dimensions, linear-matrix and
/// Owen scrambling), Halton (random digit permutations) and Latin hypercube samples.

#include <trnrand/halton.hpp>
#include <trnrand/latin_hypercube.hpp>
#include <trnrand/sobol.hpp>
