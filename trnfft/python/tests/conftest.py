"""Shared tolerances of the trnfft binding tests.

Host (FFTW) transforms: docs/trnfft.md "Accuracy" states the normwise bound
||y^ - y||_2 <= c*u*log2(N)*||y||_2 (c small; the C++ tests hold every transform to c = 10), plus one
rounding (<= u) for the free functions' norm scaling. A comparison against scipy.fft computed in double
on the same data carries that bound once for trnfft and (for double data) once for pocketfft, hence the
factor 2. Frobenius norms over a batch: the per-transform bound holds for the whole batch because the
squares add.
"""
import numpy as np

C = 10.0


def unit(dtype):
    dt = np.dtype(dtype)
    return 2.0**-24 if dt in (np.float32, np.complex64) else 2.0**-53


def host_bound(n, dtype):
    """(C*log2 N + 1)*u: the relative 2-norm bound of one host transform of length N."""
    return (C * max(np.log2(max(n, 1)), 1.0) + 1.0) * unit(dtype)


def assert_close(got, want, n, dtype, factor=2.0):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    err = np.linalg.norm((got - want).ravel())
    ref = np.linalg.norm(want.ravel())
    tol = factor * host_bound(n, dtype) * ref
    assert err <= tol, f"relative error {err / max(ref, 1e-300):.3e} > {tol / max(ref, 1e-300):.3e} (n={n})"


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    x = rng.uniform(-1, 1, shape)
    if dt.kind == "c":
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(dt)
