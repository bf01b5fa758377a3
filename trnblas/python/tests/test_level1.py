"""trnblas level 1 bindings against NumPy (long-double oracles, bounds of docs/trnblas.md)."""
import numpy as np
import pytest

import trncore
import trnblas
from blas_oracle import COMPLEX, DTYPES, REAL, assert_within, gamma, ld, rand, unit

SIZES = [0, 1, 7, 127, 128, 129]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_axpy_scal(dtype, n):
    rng = np.random.default_rng(n)
    x, y = rand(n, dtype, rng), rand(n, dtype, rng)
    alpha = 0.75 - (0.375j if np.dtype(dtype).kind == "c" else 0)
    r = trnblas.axpy(alpha, x, y)
    assert r.dtype == dtype and r.shape == (n,) and not np.shares_memory(r, y)
    # axpy: |r - (alpha x + y)| <= gamma_2 (|alpha||x| + |y|)
    assert_within(r, ld(alpha) * ld(x) + ld(y), abs(alpha) * np.abs(ld(x)) + np.abs(ld(y)), 2, dtype, "axpy")
    s = trnblas.scal(alpha, x)
    assert_within(s, ld(alpha) * ld(x), abs(alpha) * np.abs(ld(x)), 1, dtype, "scal")  # gamma_1 |alpha||x|


def test_axpy_in_place_and_strided():
    x = np.arange(10.0)
    y = np.ones(10)
    r = trnblas.axpy(2.0, x, y, out=y)
    assert r is y and np.array_equal(y, 2 * np.arange(10.0) + 1)
    # A strided view is used in place: every other element.
    z = np.zeros(20)
    r = trnblas.axpy(1.0, x, z[::2], out=z[::2])
    assert np.shares_memory(r, z) and np.array_equal(z[::2], x) and not z[1::2].any()
    # A negative-stride input is copied, not misread.
    assert np.array_equal(trnblas.axpy(1.0, x[::-1], np.zeros(10)), x[::-1])
    s = np.arange(5.0)
    assert trnblas.scal(3.0, s, out=s) is s and np.array_equal(s, 3 * np.arange(5.0))


def test_axpy_complex_alpha_promotes():
    r = trnblas.axpy(1j, np.ones(3), np.zeros(3))
    assert r.dtype == np.complex128 and np.array_equal(r, 1j * np.ones(3))
    assert trnblas.axpy(2, np.ones(3, np.float32), np.ones(3, np.float32)).dtype == np.float32


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_dot_nrm2_asum_iamax(dtype, n):
    rng = np.random.default_rng(100 + n)
    x, y = rand(n, dtype, rng), rand(n, dtype, rng)
    d = trnblas.dot(x, y)
    assert d.shape == () and d.dtype == dtype
    # dot is x^T y unconjugated (np.dot, upstream torch.dot): |r - x^T y| <= gamma_n |x|^T |y|
    assert_within(d, np.sum(ld(x) * ld(y)), np.sum(np.abs(ld(x)) * np.abs(ld(y))), max(n, 1), dtype, "dot")
    nrm = trnblas.nrm2(x)
    assert nrm.shape == () and nrm.dtype == np.finfo(dtype).dtype
    exact = np.sqrt(np.sum(np.abs(ld(x)) ** 2))
    assert_within(nrm, exact, exact, n + 1, np.finfo(dtype).dtype, "nrm2")  # relative gamma_{n+1}
    a = trnblas.asum(x)
    exact = np.sum(np.abs(ld(x).real) + np.abs(ld(x).imag))  # BLAS asum: |Re| + |Im|
    m = 2 * n - 1 if np.dtype(dtype).kind == "c" else n - 1
    assert_within(a, exact, exact, max(m, 1), np.finfo(dtype).dtype, "asum")
    i = trnblas.iamax(x)
    assert isinstance(i, int)
    if n == 0:
        assert i == -1
    else:
        key = np.abs(x.real) + np.abs(x.imag) if np.dtype(dtype).kind == "c" else np.abs(x)
        assert key[i] == key.max() and i == int(np.argmax(key))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_dotu_dotc(dtype):
    rng = np.random.default_rng(5)
    x, y = rand(129, dtype, rng), rand(129, dtype, rng)
    mag = np.sum(np.abs(ld(x)) * np.abs(ld(y)))
    assert_within(trnblas.dotu(x, y), np.sum(ld(x) * ld(y)), mag, 129, dtype, "dotu")
    assert_within(trnblas.dotc(x, y), np.sum(np.conj(ld(x)) * ld(y)), mag, 129, dtype, "dotc")
    assert trnblas.dotc(np.ones(2), np.ones(2)).dtype == np.complex128  # real input converts


@pytest.mark.parametrize("dtype", DTYPES)
def test_copy_swap_rot(dtype):
    rng = np.random.default_rng(6)
    x, y = rand(7, dtype, rng), rand(7, dtype, rng)
    c = trnblas.copy(x)
    assert np.array_equal(c, x) and not np.shares_memory(c, x)
    dst = np.zeros(7, dtype)
    assert trnblas.copy(x, dst) is dst and np.array_equal(dst, x)
    x0, y0 = x.copy(), y.copy()
    assert trnblas.swap(x, y) is None
    assert np.array_equal(x, y0) and np.array_equal(y, x0)
    cs, sn = 0.6, 0.8
    trnblas.rot(x, y, cs, sn)
    # gamma_2 (|c||x| + |s||y|) per output
    assert_within(x, cs * ld(y0) + sn * ld(x0), cs * np.abs(ld(y0)) + sn * np.abs(ld(x0)), 2, dtype, "rot x")
    assert_within(y, cs * ld(x0) - sn * ld(y0), cs * np.abs(ld(x0)) + sn * np.abs(ld(y0)), 2, dtype, "rot y")


def test_rotg():
    r, z, c, s = trnblas.rotg(3.0, 4.0)
    assert abs(r - 5.0) <= 10 * 2**-53 * 5 and abs(c - 0.6) <= 1e-15 and abs(s - 0.8) <= 1e-15
    assert isinstance(r, float)
    r, z, c, s = trnblas.rotg(1 + 1j, 1.0)
    assert isinstance(r, complex) and abs(c * (1 + 1j) + s * 1.0 - r) <= 1e-15
    r32 = trnblas.rotg(3.0, 4.0, dtype=np.float32)
    assert abs(r32[0] - 5.0) <= 1e-6
    with pytest.raises(trncore.InvalidArgument, match="trnblas.rotg"):
        trnblas.rotg("a", 1.0)


def test_level1_errors():
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.axpy"):
        trnblas.axpy(1.0, np.ones(3), np.ones(4))
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.dot"):
        trnblas.dot(np.ones((2, 2)), np.ones(4))
    with pytest.raises(trncore.InvalidArgument, match="trnblas.axpy"):
        trnblas.axpy(1.0, np.ones(3), np.ones(3), out=np.ones(3, np.float32))
    ro = np.ones(3)
    ro.flags.writeable = False
    with pytest.raises(trncore.InvalidArgument, match="read-only"):
        trnblas.scal(2.0, ro, out=ro)
    with pytest.raises(trncore.InvalidArgument, match="trnblas.swap"):
        trnblas.swap([1.0, 2.0], np.ones(2))  # not an array: cannot be written in place
    with pytest.raises(trncore.InvalidArgument, match="trnblas::axpy"):  # the library's overlap check
        x = np.ones(4)
        trnblas.axpy(1.0, x, x, out=x)
    with pytest.raises(trncore.InvalidArgument, match="trnblas.rot"):
        trnblas.rot(np.ones(2), np.ones(2), 1j, 0.0)
    with pytest.raises(trncore.InvalidArgument, match="alpha"):
        trnblas.scal(None, np.ones(2))
    with pytest.raises(trncore.InvalidArgument, match="trnblas.dot"):
        trnblas.dot(np.array(["a"]), np.ones(1))
    with pytest.raises(trncore.InvalidArgument, match="trnblas.dotu"):
        trnblas.dotu(np.array([1, 2], dtype="M8[s]"), np.ones(2))
