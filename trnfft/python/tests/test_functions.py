"""numpy.fft-style functions against scipy.fft / numpy.fft on the same data (tolerances: conftest.py)."""
import numpy as np
import pytest
import scipy.fft as sf

import trncore
import trnfft
from conftest import assert_close, host_bound, rand

SIZES = [1, 7, 127, 128, 129, 131, 512, 513]
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def ref64(x):
    """The reference computes in double precision on the same (possibly single-precision) values."""
    x = np.asarray(x)
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_fft_ifft(n, dtype):
    x = rand(n, dtype, seed=n)
    y = trnfft.fft(x)
    assert y.dtype == (np.complex64 if np.dtype(dtype) in (np.float32, np.complex64) else np.complex128)
    assert_close(y, sf.fft(ref64(x)), n, dtype)
    assert_close(trnfft.ifft(x), sf.ifft(ref64(x)), n, dtype)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_real_transforms(n, dtype):
    x = rand(n, dtype, seed=n + 1)
    assert_close(trnfft.rfft(x), sf.rfft(ref64(x)), n, dtype)
    assert_close(trnfft.ihfft(x), sf.ihfft(ref64(x)), n, dtype)
    cdt = np.complex64 if dtype == np.float32 else np.complex128
    h = rand(n // 2 + 1, cdt, seed=n + 2)
    m = 2 * (n // 2 + 1) - 2 if n > 1 else None
    if m:  # default length 2*(m - 1)
        assert_close(trnfft.irfft(h), sf.irfft(ref64(h)), m, dtype)
        assert_close(trnfft.hfft(h), sf.hfft(ref64(h)), m, dtype)
    # explicit odd/even n
    assert_close(trnfft.irfft(h, n), sf.irfft(ref64(h), n), n, dtype)
    assert_close(trnfft.hfft(h, n), sf.hfft(ref64(h), n), n, dtype)


def test_size_zero_and_one():
    with pytest.raises(ValueError):
        np.fft.fft(np.zeros(0))
    with pytest.raises(trncore.InvalidArgument, match="fft"):
        trnfft.fft(np.zeros(0))
    with pytest.raises(trncore.InvalidArgument):
        trnfft.fft(np.ones(4), n=0)
    # irfft of one point without n would have length 0: NumPy and trnfft both refuse
    with pytest.raises(ValueError):
        np.fft.irfft(np.ones(1))
    with pytest.raises(trncore.InvalidArgument, match="irfft"):
        trnfft.irfft(np.ones(1))
    # an empty batch axis gives an empty result of the right shape, as NumPy
    e = trnfft.fft(np.zeros((0, 8)))
    assert e.shape == np.fft.fft(np.zeros((0, 8))).shape == (0, 8)
    assert trnfft.fft(np.array([2.5])).tolist() == [2.5 + 0j]
    # padding an empty input up to n is legal in NumPy and here
    assert np.array_equal(trnfft.fft(np.zeros(0), n=4), np.zeros(4, complex))


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_norm_modes(norm):
    x = rand(129, np.complex128, seed=3)
    r = rand(128, np.float64, seed=4)
    assert_close(trnfft.fft(x, norm=norm), sf.fft(x, norm=norm), 129, np.float64)
    assert_close(trnfft.ifft(x, norm=norm), sf.ifft(x, norm=norm), 129, np.float64)
    assert_close(trnfft.rfft(r, norm=norm), sf.rfft(r, norm=norm), 128, np.float64)
    assert_close(trnfft.irfft(x[:65], norm=norm), sf.irfft(x[:65], norm=norm), 128, np.float64)
    assert_close(trnfft.hfft(x[:65], norm=norm), sf.hfft(x[:65], norm=norm), 128, np.float64)
    assert_close(trnfft.ihfft(r, norm=norm), sf.ihfft(r, norm=norm), 128, np.float64)
    assert_close(trnfft.fftn(x.reshape(3, 43), norm=norm), sf.fftn(x.reshape(3, 43), norm=norm), 129, np.float64)


def test_pad_and_truncate():
    x = rand(100, np.complex128, seed=5)
    for n in (7, 100, 131, 256):
        assert_close(trnfft.fft(x, n), sf.fft(x, n), n, np.float64)
        assert_close(trnfft.rfft(x.real, n), sf.rfft(x.real, n), n, np.float64)
        assert_close(trnfft.irfft(x, n), sf.irfft(x, n), n, np.float64)


def test_batched_along_axes():
    x = rand((6, 129), np.complex128, seed=6)
    r = x.real.copy()
    for axis in (0, 1, -1, -2):
        assert_close(trnfft.fft(x, axis=axis), sf.fft(x, axis=axis), 129, np.float64)
        assert_close(trnfft.ifft(x, 200, axis=axis), sf.ifft(x, 200, axis=axis), 200, np.float64)
        assert_close(trnfft.rfft(r, axis=axis), sf.rfft(r, axis=axis), 129, np.float64)
        assert_close(trnfft.irfft(x, axis=axis), sf.irfft(x, axis=axis), 256, np.float64)
        assert_close(trnfft.hfft(x, 11, axis=axis), sf.hfft(x, 11, axis=axis), 11, np.float64)
        assert_close(trnfft.ihfft(r, axis=axis), sf.ihfft(r, axis=axis), 129, np.float64)
    # upstream's (torch) spelling dim= is accepted
    assert np.array_equal(trnfft.fft(x, dim=0), trnfft.fft(x, axis=0))
    assert np.array_equal(trnfft.fftn(x, dim=(0,)), trnfft.fftn(x, axes=(0,)))
    with pytest.raises(trncore.InvalidArgument, match="dim"):
        trnfft.fft(x, axis=0, dim=0)


@pytest.mark.parametrize("shape", [(7, 128), (129, 6), (1, 1), (8, 1)])
def test_2d(shape):
    x = rand(shape, np.complex128, seed=7)
    r = x.real.copy()
    n = shape[0] * shape[1]
    assert_close(trnfft.fft2(x), sf.fft2(x), n, np.float64)
    assert_close(trnfft.ifft2(x), sf.ifft2(x), n, np.float64)
    assert_close(trnfft.rfft2(r), sf.rfft2(r), n, np.float64)
    s = (shape[0] + 2, 10)
    assert_close(trnfft.fft2(x, s=s), sf.fft2(x, s=s), s[0] * s[1], np.float64)
    assert_close(trnfft.irfft2(x, s=s), sf.irfft2(x, s=s), s[0] * s[1], np.float64)
    assert_close(trnfft.rfft2(r, s=s), sf.rfft2(r, s=s), s[0] * s[1], np.float64)
    assert_close(trnfft.fft2(x, axes=(1, 0)), sf.fft2(x, axes=(1, 0)), n, np.float64)


def test_nd():
    x = rand((3, 5, 8, 2), np.complex128, seed=8)
    r = x.real.copy()
    for axes in (None, (0, 2), (2, 0), (-1,), (1, 2, 3)):
        n = np.prod([x.shape[a] for a in (axes if axes is not None else range(4))])
        assert_close(trnfft.fftn(x, axes=axes), sf.fftn(x, axes=axes), n, np.float64)
        assert_close(trnfft.ifftn(x, axes=axes), sf.ifftn(x, axes=axes), n, np.float64)
        assert_close(trnfft.rfftn(r, axes=axes), sf.rfftn(r, axes=axes), n, np.float64)
        assert_close(trnfft.irfftn(x, axes=axes), sf.irfftn(x, axes=axes), 2 * n, np.float64)
    assert_close(trnfft.fftn(x, s=(4, 9)), sf.fftn(x, s=(4, 9)), 36, np.float64)
    assert_close(trnfft.irfftn(x, s=(6, 7), axes=(0, 2)), sf.irfftn(x, s=(6, 7), axes=(0, 2)), 42, np.float64)
    # round trip
    assert_close(trnfft.irfftn(trnfft.rfftn(r), s=r.shape), r, r.size, np.float64, factor=4.0)


def test_strided_and_foreign_inputs():
    base = rand((20, 30), np.complex128, seed=9)
    for v in (base[::2, 1::3], base.T, np.asfortranarray(base), base[:, ::-1], base[3]):
        assert_close(trnfft.fftn(v), sf.fftn(v), v.size, np.float64)
        assert_close(trnfft.fft(v), sf.fft(v), v.shape[-1], np.float64)
    r = base.real
    assert_close(trnfft.rfft2(r[::3]), sf.rfft2(r[::3]), r[::3].size, np.float64)
    # nested lists, integers (-> float64), objects with __array__ (e.g. a torch CPU tensor)
    assert_close(trnfft.fft([1, 2, 3, 4]), np.fft.fft([1, 2, 3, 4]), 4, np.float64)
    assert trnfft.fft(np.arange(8)).dtype == np.complex128

    class Tensorish:
        def __array__(self, dtype=None):
            return np.arange(6, dtype=np.float32)

    y = trnfft.fft(Tensorish())
    assert y.dtype == np.complex64
    assert_close(y, np.fft.fft(np.arange(6.0)), 6, np.float32)


def test_input_never_modified():
    h = rand(65, np.complex128, seed=10)
    keep = h.copy()
    trnfft.irfft(h)
    trnfft.irfftn(h.reshape(5, 13))
    trnfft.hfft(h)
    assert np.array_equal(h, keep)


def test_freq_and_shift():
    for n in (1, 2, 7, 8, 129):
        for d in (1.0, 0.1, 3.0):
            assert np.array_equal(trnfft.fftfreq(n, d), np.fft.fftfreq(n, d))
            assert np.array_equal(trnfft.rfftfreq(n, d), np.fft.rfftfreq(n, d))
    x = rand((4, 7, 6), np.complex64, seed=11)
    for axes in (None, 0, (1, 2), (-1,)):
        assert np.array_equal(trnfft.fftshift(x, axes), np.fft.fftshift(x, axes))
        assert np.array_equal(trnfft.ifftshift(x, axes), np.fft.ifftshift(x, axes))
    assert trnfft.fftshift(x).dtype == np.complex64
    with pytest.raises(trncore.InvalidArgument, match="fftfreq"):
        trnfft.fftfreq(0)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.fftfreq(4, 0.0)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.fftshift(x, axes=5)


def sim_bound(shape, kind="c2c", **kw):
    """The a-priori bound of a sim plan of that geometry: what the free function on sim certifies."""
    return trnfft.Plan(shape, kind=kind, backend="sim", **kw).accuracy().a_priori_bound


@pytest.mark.parametrize("mode", ["compensated", "ozaki"])
def test_sim_backend_small(mode):
    x = rand(64, np.complex128, seed=12)
    y = trnfft.fft(x, backend="sim", mode=mode)
    ref = sf.fft(x)
    b = sim_bound((64,), mode=mode)
    assert 0 < b < 1e-3
    # the certified bound of the run plus the reference's own rounding
    assert np.linalg.norm(y - ref) <= (b + host_bound(64, np.float64)) * np.linalg.norm(ref)
    r = x.real.copy()
    y = trnfft.rfft(r, backend="sim", mode=mode)
    assert np.linalg.norm(y - sf.rfft(r)) <= (sim_bound((64,), "r2c", mode=mode) + 1e-15) * np.linalg.norm(sf.rfft(r))


def test_sim_target_and_host_target():
    x = rand(32, np.complex64, seed=13)
    y = trnfft.fft(x, backend="sim", target_forward_error=1e-3)
    assert np.linalg.norm(y - sf.fft(x.astype(np.complex128))) <= 1e-3 * np.linalg.norm(sf.fft(x.astype(np.complex128)))
    with pytest.raises(trncore.NotSupported):
        trnfft.fft(x, target_forward_error=1e-3)  # host: no target
    with pytest.raises(trncore.TargetNotMet):
        trnfft.fft(x, backend="sim", target_forward_error=1e-30)
    # NaN input: the run is not certified, so the no-report free function raises TargetNotMet
    bad = x.copy()
    bad[3] = np.nan
    with pytest.raises(trncore.TargetNotMet, match="NaN"):
        trnfft.fft(bad, backend="sim")
    assert np.isnan(trnfft.fft(bad)).any()  # host: NumPy-like propagation


def test_options_object_and_threads():
    x = rand((16, 256), np.complex128, seed=14)
    o = trncore.Options(backend="sim", mode="ozaki", threads=2)
    a = trnfft.fft(x, options=o)
    b = trnfft.fft(x, options=o, threads=1)
    assert np.array_equal(a, b)  # sim results are bitwise identical for any thread count
    assert_close(trnfft.fft(x, threads=2), sf.fft(x), 256, np.float64)
