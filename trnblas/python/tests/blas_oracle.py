"""Oracles and error bounds shared by the trnblas binding tests.

References are computed in long double (x86-64: 64-bit significand, u = 2^-64) from the same data; a bound
of the C++ documentation (docs/trnblas.md, "Accuracy": gamma_n = n*u/(1 - n*u), 4u for complex data) is
then checked componentwise, plus the oracle's own rounding (gamma_{n+4}(2^-64) times the same magnitude).
"""
import numpy as np

U_ORACLE = 2.0 ** -64


def unit(dtype):
    """The unit roundoff the C++ bounds use for dtype: eps/2, times 4 for complex data."""
    dtype = np.dtype(dtype)
    u = np.finfo(dtype).eps / 2
    return 4 * u if dtype.kind == "c" else u


def gamma(n, u):
    return n * u / (1 - n * u)


def ld(x):
    """x in long double (complex long double for complex x), for the oracle."""
    x = np.asarray(x)
    return x.astype(np.clongdouble if x.dtype.kind == "c" else np.longdouble)


def assert_within(result, exact, magnitude, n, dtype, what=""):
    """|result - exact| <= gamma_n(u)*magnitude + gamma_{n+4}(2^-64)*magnitude, componentwise."""
    result, exact, magnitude = ld(result), ld(exact), np.abs(ld(magnitude))
    assert result.shape == exact.shape, (result.shape, exact.shape)
    err = np.abs(result - exact)
    bound = (gamma(n, unit(dtype)) + gamma(n + 4, U_ORACLE)) * magnitude
    bad = err > bound
    assert not bad.any(), f"{what}: max err {err.max()} vs bound {bound[bad].min()} at {np.argwhere(bad)[:3]}"


def rand(shape, dtype, rng, scale=1.0):
    dtype = np.dtype(dtype)
    x = rng.standard_normal(shape) * scale
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape) * scale
    return x.astype(dtype)


DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
REAL = [np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
