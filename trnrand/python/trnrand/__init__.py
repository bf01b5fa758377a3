"""trnrand: counter-based random streams, distributions and quasi-random sequences (docs/python.md).

Upstream-shaped API (trnsci/trnrand, over NumPy): Generator, manual_seed, get_default_generator; uniform,
normal, standard_normal, exponential, bernoulli, randint, randperm, truncated_normal, gamma, chi_squared,
beta, poisson and the in-place normal_into, uniform_into, exponential_into; sobol, halton, latin_hypercube.
The C++ API: Stream (a value), partition, Sobol, Halton, AliasTable, normal_icdf, and the stream-level fills
in trnrand.streams.
"""

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from ._trnrand import (HALTON_MAX_DIMS, SOBOL_MAX_DIMS, SOBOL_MAX_POINTS, AliasTable, Halton, Sobol, Stream,
                       normal_icdf, partition, sobol_direction_numbers_notice, version)
from . import streams
from .generator import Generator, get_default_generator, manual_seed
from .distributions import (bernoulli, beta, binomial, categorical, chi_squared, exponential, exponential_into,
                            gamma, geometric, lognormal, multivariate_normal, normal, normal_into, poisson,
                            randint, randperm, standard_normal, student_t, truncated_normal, uniform,
                            uniform_into)
from .quasi import halton, latin_hypercube, sobol

__version__ = version()

__all__ = ["Generator", "get_default_generator", "manual_seed", "uniform", "normal", "standard_normal",
           "exponential", "bernoulli", "randint", "randperm", "truncated_normal", "gamma", "chi_squared", "beta",
           "poisson", "normal_into", "uniform_into", "exponential_into", "lognormal", "student_t", "binomial",
           "geometric", "categorical", "multivariate_normal", "sobol", "halton", "latin_hypercube", "Stream",
           "partition", "Sobol", "Halton", "AliasTable", "normal_icdf", "sobol_direction_numbers_notice",
           "streams", "SOBOL_MAX_DIMS", "SOBOL_MAX_POINTS", "HALTON_MAX_DIMS", "version", "__version__"]
