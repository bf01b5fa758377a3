"""Quasi-random sequences with upstream trnrand's names (trnrand/quasi.py): sobol, halton, latin_hypercube.

The objects trnrand.Sobol and trnrand.Halton (the C++ classes: fill, skip, seek, index) are the stateful
forms; these functions return (n_points, n_dims) arrays in one call.
"""

from __future__ import annotations

import operator
import secrets

import numpy as np

from . import _trnrand as _c
from .generator import Generator, _invalid, get_default_generator


def _float_dtype(fn, dtype):
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise _invalid(fn, f"dtype {dtype!r} is not a NumPy dtype", "pass float32 or float64") from None
    if dt not in (np.float32, np.float64):
        raise _invalid(fn, f"dtype {dt.name} is not supported", "pass float32 or float64")
    return dt


def _below_one(x, dt):
    """x (float64 in [0, 1)) as dt, kept below 1: rounding to float32 could give 1.0."""
    if dt == np.float64:
        return x
    y = x.astype(np.float32)
    np.minimum(y, np.float32(1.0) - np.float32(2.0**-24), out=y)
    return y


def sobol(n_points, n_dims, seed=None, scramble=True, dtype=np.float32, *, skip=0, **kw):
    """The first n_points points (after skip) of the n_dims-dimensional Sobol sequence, shape (n_points, n_dims).

    trnrand.Sobol: Joe & Kuo's new-joe-kuo-6.21201 direction numbers, Gray-code order, point 0 the origin.
    scramble: True (upstream's default) = Owen's nested uniform scramble ('owen', which upstream's docstring
    promises; upstream's torch backend applies a linear matrix scramble instead), False = the plain sequence,
    or a name: 'none', 'linear_matrix_digital_shift' ('lms'), 'owen'. seed selects the scramble (None: a
    fresh seed from the operating system, as upstream; ignored when unscrambled). float64 values are
    digits * 2**-32 exactly; float32 values are (digits >> 8) * 2**-24 (truncated, always < 1).
    Raises trncore.InvalidArgument for n_points < 0, n_dims outside [1, 21201], skip outside [0, 2**32] or
    another dtype; trncore.ResourceExhausted past 2**32 points; trncore.ParseError for an unknown scramble.
    """
    fn = "trnrand.sobol"
    dt = _float_dtype(fn, dtype)
    if scramble is True:
        scramble = "owen"
    elif scramble is False:
        scramble = "none"
    if seed is None:
        seed = secrets.randbits(64) if scramble != "none" else 0
    seq = _c.Sobol(n_dims, scramble=scramble, seed=seed, skip=skip, **kw)
    return seq.fill(n_points, dt)


def halton(n_points, n_dims, dtype=np.float32, *, skip=1, scramble="none", seed=0, **kw):
    """Points skip .. skip + n_points - 1 of the n_dims-dimensional Halton sequence (first n_dims primes as bases),
    shape (n_points, n_dims) (trnrand::halton).

    skip defaults to 1 as upstream (which starts at index 1, so the origin is not produced); values are in
    (0, 1) then. scramble='random_permutation' applies independent random digit permutations (seed selects
    them). Values are computed in float64 by Horner's rule (relative error < 2K * 2**-53 for K digits) and
    float32 is that value rounded, kept below 1. Raises trncore.InvalidArgument for n_points < 0, n_dims
    outside [1, 21201], a negative skip or another dtype; trncore.ParseError for an unknown scramble.
    """
    fn = "trnrand.halton"
    dt = _float_dtype(fn, dtype)
    return _below_one(_c._halton(n_points, n_dims, skip=skip, scramble=scramble, seed=seed, **kw), dt)


def latin_hypercube(n_points, n_dims, dtype=np.float32, generator=None, *, seed=None, centered=False, **kw):
    """A Latin hypercube sample of shape (n_points, n_dims): in every dimension each stratum [p/n, (p+1)/n) holds
    exactly one point (trnrand::latin_hypercube; float64 values lie in their stratum exactly, float32 values
    are those rounded, kept below 1).

    The sample is a function of (n_points, n_dims, seed, centered) only. seed= gives it directly; otherwise it
    is one 64-bit word pair drawn from generator (default: the default generator), which advances by 2 words.
    centered=True puts every point at its stratum's midpoint. threads= splits the dimensions (the sample does
    not depend on it). Raises trncore.InvalidArgument for n_points < 0 or > 2**32, n_dims < 1, both seed
    and generator, or another dtype.
    """
    fn = "trnrand.latin_hypercube"
    dt = _float_dtype(fn, dtype)
    if seed is not None and generator is not None:
        raise _invalid(fn, "both seed and generator were given", "pass one of them")
    if seed is None:
        gen = get_default_generator() if generator is None else generator
        if not isinstance(gen, Generator):
            raise _invalid(fn, f"generator has type {type(gen).__name__}", "pass a trnrand.Generator or None")
        word = np.empty(1, dtype=np.uint64)
        gen._draw(_c.fill_uint64, word, partitioned=False)
        seed = int(word[0])
    else:
        seed = operator.index(seed)
    return _below_one(_c._latin_hypercube(n_points, n_dims, seed=seed, centered=centered, **kw), dt)
