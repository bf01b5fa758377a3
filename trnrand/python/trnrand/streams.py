"""The C++ stream API of trnrand (stream.hpp, distributions.hpp) as functions over trnrand.Stream values.

Each function fills an existing array in place (`out`: writable, C- or Fortran-contiguous, the exact dtype;
filled in memory order) and returns the Stream advanced past the words it used, so calls compose like the
C++ ones: `s = trnrand.Stream(2026); s = normal(s, x); s = exponential(s, y, 2.0)`. Parameters use the C++
names and conventions (randint's range is closed, [low, high]; truncated_normal's bounds are absolute).
Keywords: threads=, backend=/generation= (fill_uint32, fill_uint64, fill_uniform float32, normal float32 and
normal_engine_order run the sim kernels; the others raise trncore.NotSupported on sim), options=.

Word budget (docs/trnrand.md, "Partitioning"): value i of a fill uses only its own words (1 or 2 per uniform,
2 or 4 per normal, a 2**32-word window for the rejection and search samplers), so a fill of n values equals
the concatenation of fills of any slices [a, b) started at stream.skip_ahead(budget * a).
"""

from ._trnrand import (AliasTable, Stream, beta, bernoulli, binomial, categorical, chi_squared, exponential,
                       fill_uint32, fill_uint64, fill_uniform, gamma, geometric, lognormal, multivariate_normal,
                       normal, normal_engine_order, partition, poisson, randint, randperm, student_t,
                       truncated_normal)

__all__ = ["AliasTable", "Stream", "beta", "bernoulli", "binomial", "categorical", "chi_squared", "exponential",
           "fill_uint32", "fill_uint64", "fill_uniform", "gamma", "geometric", "lognormal", "multivariate_normal",
           "normal", "normal_engine_order", "partition", "poisson", "randint", "randperm", "student_t",
           "truncated_normal"]
