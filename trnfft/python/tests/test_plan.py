"""trnfft.Plan (plan once, execute many on new arrays), its reports, and FFTW wisdom."""
import threading

import numpy as np
import pytest
import scipy.fft as sf

import trncore
import trnfft
from conftest import assert_close, host_bound, rand


@pytest.mark.parametrize("n", [1, 7, 127, 128, 129, 131, 512, 513])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_c2c_1d(n, dtype):
    x = rand(n, dtype, seed=n)
    x64 = x.astype(np.complex128)
    f = trnfft.Plan((n,), dtype)
    b = trnfft.Plan((n,), dtype, direction="backward")
    y = f.execute(x)
    assert y.dtype == dtype and f.output_dtype == dtype
    assert_close(y, sf.fft(x64), n, dtype)
    # plans never scale: backward = n * ifft
    assert_close(b.execute(x), sf.ifft(x64, norm="forward"), n, dtype)


@pytest.mark.parametrize("shape,axes", [((128,), None), ((6, 129), (1,)), ((6, 129), (0,)), ((4, 6, 10), (0, 2)),
                                        ((4, 6, 10), (2, 0)), ((7, 9), None)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_r2c_c2r_batched(shape, axes, dtype):
    x = rand(shape, dtype, seed=1)
    x64 = x.astype(np.float64)
    ax = tuple(range(len(shape))) if axes is None else axes
    n = int(np.prod([shape[a] for a in ax]))
    r2c = trnfft.Plan(shape, dtype, kind="r2c", axes=axes)
    c2r = trnfft.Plan(shape, dtype, kind="c2r", axes=axes)
    assert r2c.input_shape == shape and c2r.output_shape == shape
    assert r2c.output_shape == c2r.input_shape
    assert r2c.axes == tuple(a % len(shape) for a in ax)
    assert r2c.transform_size == n and r2c.batch_count * n == x.size
    y = r2c.execute(x)
    assert y.shape == r2c.output_shape
    assert_close(y, sf.rfftn(x64, axes=ax), n, dtype)
    h = y.copy()
    z = c2r.execute(y)
    assert np.array_equal(y, h)  # c2r's input is never modified (the binding copies for host c2r)
    assert_close(z, n * x64, n, dtype, factor=4.0)  # forward + backward: two transforms' bounds
    c2c = trnfft.Plan(shape, dtype, axes=axes)
    assert_close(c2c.execute(x), sf.fftn(x64, axes=ax), n, dtype)


def test_plan_reuse_is_deterministic_and_out_in_place():
    p = trnfft.Plan((8, 256), np.complex128, axes=(1,), rigor="measure")
    x = rand((8, 256), np.complex128, seed=2)
    a = p.execute(x)
    b = p.execute(x)
    assert np.array_equal(a, b)  # a given plan is deterministic
    assert_close(a, sf.fft(x, axis=1), 256, np.float64)
    out = np.empty(p.output_shape, p.output_dtype)  # NumPy's allocation meets FFTW's 16-byte SIMD alignment
    r = p.execute(x, out=out)
    assert r is out and np.shares_memory(r, out) and np.array_equal(out, a)
    # another array, same plan
    x2 = rand((8, 256), np.complex128, seed=3)
    assert_close(p.execute(x2), sf.fft(x2, axis=1), 256, np.float64)


def test_input_used_without_copy_when_compatible():
    p = trnfft.Plan((64,), np.complex128, unaligned=True)
    x = rand(65, np.complex128, seed=4)[1:]  # misaligned view; unaligned plans take it as is
    out = np.empty(65, np.complex128)[1:]
    r = p.execute(x, out=out)
    assert np.shares_memory(r, out)
    assert_close(r, sf.fft(x), 64, np.float64)
    # an aligned plan copies a misaligned/strided/converted input, and refuses a misaligned out
    q = trnfft.Plan((64,), np.complex128)
    assert_close(q.execute(x), sf.fft(x), 64, np.float64)
    assert_close(q.execute(rand(128, np.complex128, seed=5)[::2]), sf.fft(rand(128, np.complex128, seed=5)[::2]), 64,
                 np.float64)
    assert_close(q.execute(np.arange(64)), sf.fft(np.arange(64.0)), 64, np.float64)
    misaligned = np.empty(65 * 16 + 64, np.uint8)
    off = (-misaligned.ctypes.data) % 64 + 8
    bad_out = misaligned[off:off + 64 * 16].view(np.complex128)
    with pytest.raises(trncore.InvalidArgument, match="aligned"):
        q.execute(x, out=bad_out)


def test_out_errors():
    p = trnfft.Plan((4, 8), np.float64, kind="r2c")
    x = rand((4, 8), np.float64)
    with pytest.raises(trncore.DimensionMismatch, match="Plan.execute"):
        p.execute(rand((4, 9), np.float64))
    with pytest.raises(trncore.DimensionMismatch):
        p.execute(x, out=np.empty((4, 8), np.complex128))
    with pytest.raises(trncore.InvalidArgument, match="dtype"):
        p.execute(x, out=np.empty((4, 5), np.complex64))
    ro = np.empty((4, 5), np.complex128)
    ro.flags.writeable = False
    with pytest.raises(trncore.InvalidArgument, match="read-only"):
        p.execute(x, out=ro)
    with pytest.raises(trncore.InvalidArgument, match="C-contiguous"):
        p.execute(x, out=np.empty((5, 4), np.complex128).T)
    with pytest.raises(trncore.InvalidArgument, match="real"):
        p.execute(x + 1j)
    with pytest.raises(trncore.InvalidArgument, match="not a NumPy array"):
        p.execute(x, out=[[0j] * 5] * 4)


def test_plan_creation_errors():
    with pytest.raises(trncore.InvalidArgument, match="trnfft.Plan"):
        trnfft.Plan((0,))
    with pytest.raises(trncore.InvalidArgument, match="out of range"):
        trnfft.Plan((4, 4), axes=(2,))
    with pytest.raises(trncore.InvalidArgument, match="repeated"):
        trnfft.Plan((4, 4), axes=(0, -2))
    with pytest.raises(trncore.InvalidArgument, match="contradicts"):
        trnfft.Plan((8,), kind="r2c", direction="backward")
    with pytest.raises(trncore.ParseError):
        trnfft.Plan((8,), kind="c2x")
    with pytest.raises(trncore.ParseError):
        trnfft.Plan((8,), rigor="fast")
    with pytest.raises(trncore.InvalidArgument, match="dtype"):
        trnfft.Plan((8,), np.int32)
    with pytest.raises(TypeError, match="colour"):
        trnfft.Plan((8,), colour=1)
    with pytest.raises(trncore.NotSupported):
        trnfft.Plan((8,), target_forward_error=1e-6)  # host plans have no target
    with pytest.raises(trncore.NotSupported):
        trnfft.Plan((8,), refine=True)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.Plan((8,), backend="sim", mode="fp32", refine=True)  # refine is bf16 only


def test_sim_report_and_accuracy():
    p = trnfft.Plan((4, 64), np.complex64, axes=(1,), backend="sim", mode="bf16")
    assert p.backend == "sim"
    a = p.accuracy()
    assert isinstance(a, trncore.AccuracyReport)
    assert a.certified and a.met and a.target is None and 0 < a.a_priori_bound < 1
    x = rand((4, 64), np.complex64, seed=6)
    y, rep = p.execute(x, report=True)
    assert rep.certified and rep.met and rep.cost is not None
    assert rep.a_priori_bound <= a.a_priori_bound
    assert any("bf16" in t for t in rep.trajectory)
    ref = sf.fft(x.astype(np.complex128), axis=1)
    for t in range(4):  # the certificate is per transform
        assert np.linalg.norm(y[t] - ref[t]) <= rep.a_priori_bound * np.linalg.norm(ref[t])
    y2 = p.execute(x)  # without report: same values
    assert np.array_equal(y, y2)
    # refine (bf16_refined)
    r = trnfft.Plan((64,), np.complex64, backend="sim", mode="bf16", refine=True)
    assert any("refine" in t for t in r.accuracy().trajectory)


def test_sim_target_and_uncertified_runs():
    p = trnfft.Plan((128,), np.complex128, backend="sim", target_forward_error=1e-6)
    acc = p.accuracy()
    assert acc.target == 1e-6 and acc.met and acc.a_priori_bound <= 1e-6
    x = rand(128, np.complex128, seed=7)
    y, rep = p.execute(x, report=True)
    assert rep.met and rep.target == 1e-6
    assert np.linalg.norm(y - sf.fft(x)) <= rep.a_priori_bound * np.linalg.norm(sf.fft(x))
    with pytest.raises(trncore.TargetNotMet):
        trnfft.Plan((128,), backend="sim", target_forward_error=1e-40)
    x[5] = np.inf
    y, rep = p.execute(x, report=True)  # the report form never raises TargetNotMet
    assert not rep.certified and not rep.met and "NaN or Inf" in rep.uncertified_reason
    with pytest.raises(trncore.TargetNotMet, match="NaN or Inf"):
        p.execute(x)


def test_host_plan_has_no_report():
    p = trnfft.Plan((16,))
    with pytest.raises(trncore.NotSupported):
        p.accuracy()
    with pytest.raises(trncore.NotSupported):
        p.execute(np.ones(16), report=True)
    assert "c2c forward" in p.description and "backend host" in repr(p)
    assert isinstance(p.algorithm(), str) and p.threads >= 1


def test_one_plan_from_two_threads():
    p = trnfft.Plan((32, 512), np.complex128, axes=(1,))
    xs = [rand((32, 512), np.complex128, seed=s) for s in range(8)]
    sequential = [p.execute(x) for x in xs]
    results = [None] * 8

    def work(k):
        for i in range(k, 8, 2):
            for _ in range(5):
                results[i] = p.execute(xs[i])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(results, sequential):
        assert np.array_equal(a, b)


def test_basic_interface_helpers():
    x = rand((6, 10), np.float64, seed=8)
    p = trnfft.plan_dft_r2c(x.shape)
    y = p.execute(x)
    assert_close(y, sf.rfft2(x), 60, np.float64)
    q = trnfft.plan_dft_c2r(x.shape)
    assert_close(q.execute(y), 60 * x, 60, np.float64, factor=4.0)
    c = trnfft.plan_dft((6, 10), "backward")
    assert c.direction == "backward"
    assert_close(c.execute(y[:, :5].repeat(2, 1)), sf.ifft2(y[:, :5].repeat(2, 1), norm="forward"), 60, np.float64)


def test_wisdom(tmp_path):
    trnfft.Plan((1024,), rigor="measure")
    text = trnfft.export_wisdom()
    assert "fftw" in text.lower()
    trnfft.forget_wisdom()
    trnfft.import_wisdom(text)
    f = tmp_path / "w.txt"
    trnfft.export_wisdom_to_file(str(f), np.float32)
    trnfft.import_wisdom_from_file(str(f), dtype=np.float32)
    with pytest.raises(trncore.ParseError):
        trnfft.import_wisdom("not wisdom")
    with pytest.raises(trncore.IoError) as e:
        trnfft.import_wisdom_from_file(str(tmp_path / "missing" / "w.txt"))
    assert isinstance(e.value, OSError) and "missing" in str(e.value)
    with pytest.raises(trncore.InvalidArgument, match="export_wisdom"):
        trnfft.export_wisdom(np.int8)
