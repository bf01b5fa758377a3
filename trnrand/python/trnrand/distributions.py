"""Distributions with upstream trnrand's names and signatures (trnrand/distributions.py), over NumPy.

Every function takes the output shape as positional ints (`normal(3, 4)`) or one tuple (`normal((3, 4))`),
parameters as keywords, dtype= and generator= (None: the default generator, see manual_seed), and the
suite's options as keywords: threads= (splits the work; no value depends on it), backend= ("host" or "sim"
where the C++ has a sim kernel: uniform and normal in float32), generation=, product=, options=. Each draws
from the generator's stream and advances it (trnrand.Generator), so results are bitwise reproducible for a
seed, on any machine and for any thread count.

Differences from upstream (torch): NumPy arrays in and out; gamma, beta, chi_squared, poisson and
truncated_normal are exact samplers of the C++ library (upstream draws rejection batches from torch); the
into-variants return the buffer they filled (upstream returns None); errors are trncore.InvalidArgument
(a ValueError; upstream uses assert) with the library's message.
"""

from __future__ import annotations

import math
import operator

import numpy as np
import trncore

from . import _trnrand as _c
from .generator import Generator, _invalid, get_default_generator

_OPTION_KEYS = frozenset({"threads", "backend", "generation", "product", "options"})


def _gen(fn, generator):
    if generator is None:
        return get_default_generator()
    if not isinstance(generator, Generator):
        raise _invalid(fn, f"generator has type {type(generator).__name__}", "pass a trnrand.Generator or None")
    return generator


def _opts(fn, kw):
    unknown = sorted(set(kw) - _OPTION_KEYS)
    if unknown:
        raise TypeError(f"{fn}: unexpected keyword argument(s) {', '.join(unknown)}: see help() of the function "
                        "for the keywords it takes")
    return kw


def _shape(fn, size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = []
    for d in size:
        try:
            d = operator.index(d)
        except TypeError:
            raise _invalid(fn, f"size entry {d!r} is not an int", "pass the shape as ints, e.g. f(3, 4) or "
                           "f((3, 4))") from None
        if d < 0:
            raise _invalid(fn, f"size entry {d} is negative", "pass non-negative sizes")
        shape.append(d)
    return tuple(shape)


def _empty(fn, shape, dtype):
    """np.empty, with a size NumPy cannot allocate reported as the suite's ResourceExhausted."""
    try:
        return np.empty(shape, dtype=dtype)
    except (ValueError, MemoryError) as e:
        raise trncore.ResourceExhausted.make(fn, f"an output of shape {shape} cannot be allocated ({e})",
                                             "draw fewer values per call") from None


def _dtype(fn, dtype, allowed):
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise _invalid(fn, f"dtype {dtype!r} is not a NumPy dtype", f"pass one of {', '.join(allowed)}") from None
    if dt.name not in allowed:
        raise _invalid(fn, f"dtype {dt.name} is not supported", f"pass one of {', '.join(allowed)}")
    return dt


def _real(fn, name, value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise _invalid(fn, f"{name} = {value!r} is not a real number", f"pass a finite float {name}") from None


def _int(fn, name, value):
    try:
        return operator.index(value)
    except TypeError:
        raise _invalid(fn, f"{name} = {value!r} is not an int", f"pass an int {name}") from None


def _buffer(fn, buf):
    """The in-place buffer of an *_into function: a writable contiguous float32/float64 ndarray."""
    if not isinstance(buf, np.ndarray):
        raise _invalid(fn, f"buf is written in place but is not a NumPy array (type {type(buf).__name__})",
                       "pass a numpy.ndarray")
    if buf.dtype not in (np.float32, np.float64):
        raise _invalid(fn, f"buf is written in place but has dtype {buf.dtype}",
                       "pass a float32 or float64 array (in-place outputs are never converted)")
    if not buf.flags.writeable:
        raise _invalid(fn, "buf is read-only", "pass a writable array")
    if not (buf.flags.c_contiguous or buf.flags.f_contiguous):
        raise _invalid(fn, f"buf is not contiguous (shape {buf.shape})",
                       "pass a C- or Fortran-contiguous array (it is filled in memory order)")
    return buf


_FLOATS = ("float32", "float64")


def uniform(*size, low=0.0, high=1.0, dtype=np.float32, generator=None, **kw):
    """Uniform on [low, high): low + (high - low) * u with u on [0, 1).

    u is trnrand::fill_uniform with the closed_open interval: float32 from one word (the 2**24-point grid
    k * 2**-24, exactly), float64 from two words (the 2**-53 grid). For (low, high) = (0, 1) the values are u
    exactly; otherwise the affine map rounds once or twice (|error| <= 2 ulp of max(|low|, |high|)), which can
    reach high when high - low is tiny relative to them. backend="sim" runs the engine kernel in float32
    (bitwise the host's values); float64 there raises trncore.NotSupported. Raises trncore.InvalidArgument
    for a negative size, non-finite bounds, low > high, or a dtype other than float32/float64.
    """
    fn = "trnrand.uniform"
    shape, dt = _shape(fn, size), _dtype(fn, dtype, _FLOATS)
    low, high = _real(fn, "low", low), _real(fn, "high", high)
    if not (math.isfinite(low) and math.isfinite(high) and low <= high):
        raise _invalid(fn, f"low = {low!r}, high = {high!r} is not a finite interval with low <= high",
                       "pass finite low <= high")
    out = _empty(fn, shape, dtype=dt)
    return uniform_into(out, low=low, high=high, generator=generator, _fn=fn, **kw)


def uniform_into(buf, low=0.0, high=1.0, generator=None, _fn="trnrand.uniform_into", **kw):
    """Fills buf (a writable contiguous float32/float64 array, any shape, in memory order) with uniform(low,
    high) values in place and returns buf. Same values, keywords and errors as uniform()."""
    fn = _fn
    _buffer(fn, buf)
    low, high = _real(fn, "low", low), _real(fn, "high", high)
    if not (math.isfinite(low) and math.isfinite(high) and low <= high):
        raise _invalid(fn, f"low = {low!r}, high = {high!r} is not a finite interval with low <= high",
                       "pass finite low <= high")
    _gen(fn, generator)._draw(_c.fill_uniform, buf, "closed_open", **_opts(fn, kw))
    if (low, high) != (0.0, 1.0):
        buf *= buf.dtype.type(high - low)
        buf += buf.dtype.type(low)
    return buf


def normal(*size, mean=0.0, std=1.0, dtype=np.float32, generator=None, **kw):
    """Normal(mean, std) by Box-Muller (trnrand::normal: cosine half, computed in double and rounded once to the
    dtype, a few ulps; value i owns 2 words in float32, 4 in float64; tails truncated at 5.77 std in float32,
    8.57 in float64 by the uniform grid). backend="sim" (float32) runs trnrand::sim::normal, whose values are
    the fp32 engine sequence of trnrand.streams.normal_engine_order (|x - z| <= 2**-24 (9.11 std r + |x|)),
    not these. Raises trncore.InvalidArgument for a negative size, non-finite mean, std < 0 or non-finite,
    or another dtype; trncore.NotSupported for float64 on sim."""
    fn = "trnrand.normal"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return normal_into(out, mean=mean, std=std, generator=generator, _fn=fn, **kw)


def standard_normal(*size, dtype=np.float32, generator=None, **kw):
    """normal(*size, mean=0, std=1, dtype=dtype, generator=generator)."""
    fn = "trnrand.standard_normal"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return normal_into(out, generator=generator, _fn=fn, **kw)


def normal_into(buf, mean=0.0, std=1.0, generator=None, _fn="trnrand.normal_into", **kw):
    """Fills buf (writable contiguous float32/float64, any shape, memory order) with normal(mean, std) values in
    place and returns buf (upstream returns None). Values, keywords and errors as normal()."""
    _buffer(_fn, buf)
    _gen(_fn, generator)._draw(_c.normal, buf, _real(_fn, "mean", mean), _real(_fn, "std", std), **_opts(_fn, kw))
    return buf


def exponential(*size, rate=1.0, dtype=np.float32, generator=None, **kw):
    """Exponential(rate) (mean 1/rate) by inversion -ln(u)/rate, u in (0, 1] (trnrand::exponential: never
    infinite; tail truncated at 16.6/rate in float32, 36.7/rate in float64 by the grid). Raises
    trncore.InvalidArgument unless rate > 0 finite, for a negative size or another dtype."""
    fn = "trnrand.exponential"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return exponential_into(out, rate=rate, generator=generator, _fn=fn, **kw)


def exponential_into(buf, rate=1.0, generator=None, _fn="trnrand.exponential_into", **kw):
    """Fills buf (writable contiguous float32/float64) with exponential(rate) values in place; returns buf."""
    _buffer(_fn, buf)
    _gen(_fn, generator)._draw(_c.exponential, buf, _real(_fn, "rate", rate), **_opts(_fn, kw))
    return buf


def lognormal(*size, mean=0.0, std=1.0, dtype=np.float32, generator=None, **kw):
    """exp(normal(mean, std)) (trnrand::lognormal; mean and std of the underlying normal). Not in upstream."""
    fn = "trnrand.lognormal"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return _gen(fn, generator)._draw(_c.lognormal, out, _real(fn, "mean", mean), _real(fn, "std", std),
                                     **_opts(fn, kw))


def bernoulli(*size, p=0.5, dtype=np.float32, generator=None, **kw):
    """1 with probability p, else 0 (trnrand::bernoulli: u < p with u on the 2**-53 grid, so P(1) is p rounded
    to 2**-53; p = 0 and p = 1 exact). Drawn as uint8 and converted to dtype (default float32 as upstream;
    dtype=np.uint8 avoids the copy). Raises trncore.InvalidArgument unless 0 <= p <= 1, for a negative size
    or a non-numeric dtype."""
    fn = "trnrand.bernoulli"
    dt = _dtype(fn, dtype, ("float32", "float64", "uint8", "int8", "int32", "int64", "bool"))
    out = _empty(fn, _shape(fn, size), dtype=np.uint8)
    _gen(fn, generator)._draw(_c.bernoulli, out, _real(fn, "p", p), **_opts(fn, kw))
    return out if dt == np.uint8 else out.astype(dt)


def randint(*size, low=0, high=1, dtype=np.int64, generator=None, **kw):
    """Uniform integers in [low, high) (upstream's half-open range; trnrand::randint(low, high - 1), Lemire's
    unbiased multiply-and-reject). int64 by default; other integer dtypes are a conversion of the int64
    values. Raises trncore.InvalidArgument unless low < high (ints), for a negative size or a non-integer
    dtype."""
    fn = "trnrand.randint"
    dt = _dtype(fn, dtype, ("int64", "int32", "int16", "int8", "uint8", "uint16", "uint32", "uint64"))
    low, high = _int(fn, "low", low), _int(fn, "high", high)
    if low >= high:
        raise _invalid(fn, f"low = {low} >= high = {high}", "pass low < high (the range [low, high) is half-open)")
    if low < -(2**63) or high > 2**63:
        raise _invalid(fn, f"[low, high) = [{low}, {high}) is not within int64", "pass -2**63 <= low < high <= 2**63")
    out = _empty(fn, _shape(fn, size), dtype=np.int64)
    _gen(fn, generator)._draw(_c.randint, out, low, high - 1, **_opts(fn, kw))
    return out if dt == np.int64 else out.astype(dt)


def randperm(n, dtype=np.int64, generator=None, **kw):
    """A uniformly random permutation of 0 .. n-1 (trnrand::randperm: Fisher-Yates; sequential, so threads is
    ignored and a partitioned generator gives every rank the same permutation). Raises
    trncore.InvalidArgument for n < 0 or a non-integer dtype."""
    fn = "trnrand.randperm"
    dt = _dtype(fn, dtype, ("int64", "int32", "uint32", "uint64"))
    n = _int(fn, "n", n)
    if n < 0:
        raise _invalid(fn, f"n = {n} is negative", "pass n >= 0")
    out = _empty(fn, n, dtype=np.int64)
    _gen(fn, generator)._draw(_c.randperm, out, partitioned=False, **_opts(fn, kw))
    return out if dt == np.int64 else out.astype(dt)


def truncated_normal(*size, mean=0.0, std=1.0, low=-2.0, high=2.0, dtype=np.float32, generator=None, **kw):
    """Normal(mean, std) truncated to [mean + low*std, mean + high*std] (bounds in std units, as upstream),
    exact: trnrand::truncated_normal (normal, uniform or Robert's exponential rejection; not an
    approximation, any distance into the tail), computed in double, rounded once and clamped to the bounds.
    Raises trncore.InvalidArgument unless std > 0 finite, mean finite, low <= high, low < inf, high > -inf."""
    fn = "trnrand.truncated_normal"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    mean, std = _real(fn, "mean", mean), _real(fn, "std", std)
    low, high = _real(fn, "low", low), _real(fn, "high", high)
    a = low * std + mean if math.isfinite(low) else low
    b = high * std + mean if math.isfinite(high) else high
    return _gen(fn, generator)._draw(_c.truncated_normal, out, mean, std, a, b, **_opts(fn, kw))


def gamma(*size, shape, scale=1.0, dtype=np.float32, generator=None, **kw):
    """Gamma(shape, scale) (mean shape*scale), exact up to a few ulps * max(1, |ln X|) (trnrand::gamma:
    Marsaglia-Tsang; shape < 1 by the boost in logarithms; float32 is the float64 value rounded once). Raises
    trncore.InvalidArgument unless shape > 0 and scale > 0 finite, for a negative size or another dtype."""
    fn = "trnrand.gamma"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return _gen(fn, generator)._draw(_c.gamma, out, _real(fn, "shape", shape), _real(fn, "scale", scale),
                                     **_opts(fn, kw))


def chi_squared(*size, df, dtype=np.float32, generator=None, **kw):
    """Chi-squared with df > 0 (real) degrees of freedom: 2 * Gamma(df/2) (trnrand::chi_squared). Raises
    trncore.InvalidArgument unless df > 0 finite."""
    fn = "trnrand.chi_squared"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return _gen(fn, generator)._draw(_c.chi_squared, out, _real(fn, "df", df), **_opts(fn, kw))


def beta(*size, alpha, beta, dtype=np.float32, generator=None, **kw):
    """Beta(alpha, beta) on [0, 1] as X/(X+Y), X ~ Gamma(alpha), Y ~ Gamma(beta) (trnrand::beta; formed from
    logarithms when a shape is < 1, so tiny shapes never give 0/0). Raises trncore.InvalidArgument unless
    alpha > 0 and beta > 0 finite."""
    fn = "trnrand.beta"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return _gen(fn, generator)._draw(_c.beta, out, _real(fn, "alpha", alpha), _real(fn, "beta", beta),
                                     **_opts(fn, kw))


def student_t(*size, df, dtype=np.float32, generator=None, **kw):
    """Student's t with df > 0 degrees of freedom (trnrand::student_t). Not in upstream."""
    fn = "trnrand.student_t"
    out = _empty(fn, _shape(fn, size), dtype=_dtype(fn, dtype, _FLOATS))
    return _gen(fn, generator)._draw(_c.student_t, out, _real(fn, "df", df), **_opts(fn, kw))


def poisson(*size, lam=1.0, dtype=np.float32, generator=None, **kw):
    """Poisson(lam), exact (trnrand::poisson: inversion for lam < 10, Hormann's PTRS otherwise). Drawn as int64
    and converted to dtype (default float32 as upstream; dtype=np.int64 avoids the copy). Raises
    trncore.InvalidArgument unless 0 <= lam <= 1e15."""
    fn = "trnrand.poisson"
    dt = _dtype(fn, dtype, ("float32", "float64", "int64", "int32"))
    out = _empty(fn, _shape(fn, size), dtype=np.int64)
    _gen(fn, generator)._draw(_c.poisson, out, _real(fn, "lam", lam), **_opts(fn, kw))
    return out if dt == np.int64 else out.astype(dt)


def binomial(*size, n, p, generator=None, **kw):
    """Binomial(n, p) as int64, exact (trnrand::binomial). Not in upstream."""
    fn = "trnrand.binomial"
    out = _empty(fn, _shape(fn, size), dtype=np.int64)
    return _gen(fn, generator)._draw(_c.binomial, out, _int(fn, "n", n), _real(fn, "p", p), **_opts(fn, kw))


def geometric(*size, p, generator=None, **kw):
    """Geometric(p) on {1, 2, ...} as int64 (NumPy's convention; trnrand::geometric). Not in upstream."""
    fn = "trnrand.geometric"
    out = _empty(fn, _shape(fn, size), dtype=np.int64)
    return _gen(fn, generator)._draw(_c.geometric, out, _real(fn, "p", p), **_opts(fn, kw))


def categorical(*size, weights, generator=None, **kw):
    """Indices in [0, len(weights)) with probability weights[i]/sum as int64 (trnrand::categorical: Walker's
    alias method; build a trnrand.AliasTable once for repeated sampling). Not in upstream."""
    fn = "trnrand.categorical"
    out = _empty(fn, _shape(fn, size), dtype=np.int64)
    w = np.asarray(weights)
    if w.ndim != 1 or w.dtype.kind not in "fiub":
        raise _invalid(fn, f"weights must be a 1-D numeric array, got shape {w.shape} dtype {w.dtype}",
                       "pass a 1-D array of non-negative weights")
    return _gen(fn, generator)._draw(_c.categorical, out, w, **_opts(fn, kw))


def multivariate_normal(*size, mean, L, dtype=np.float64, generator=None, **kw):
    """N(mean, L L^T) of shape size + (d,) (trnrand::multivariate_normal; L the lower-triangular Cholesky
    factor, d = len(mean)). Not in upstream. Not split by a partitioned generator (each rank draws the same
    rows). Raises trncore.DimensionMismatch unless L is d x d, trncore.InvalidArgument for non-finite
    entries or a negative diagonal of L."""
    fn = "trnrand.multivariate_normal"
    dt = _dtype(fn, dtype, _FLOATS)
    mean = np.asarray(mean)
    L = np.asarray(L)
    if mean.ndim != 1 or L.ndim != 2:
        raise _invalid(fn, f"mean must be 1-D and L 2-D, got shapes {mean.shape} and {L.shape}",
                       "pass mean of shape (d,) and L of shape (d, d)")
    out = _empty(fn, _shape(fn, size) + (mean.shape[0],), dtype=dt)
    return _gen(fn, generator)._draw(_c.multivariate_normal, out, mean, L, partitioned=False, **_opts(fn, kw))
