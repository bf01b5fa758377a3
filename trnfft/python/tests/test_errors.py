"""Bad input for every public function (the trncore exception naming the function, never a crash),
reference counts and memory over 10^4 calls, and concurrent calls from two Python threads."""
import gc
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import trncore
import trnfft

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
MULTI_D = ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"]
TRANSFORMS = ONE_D + MULTI_D
STRINGS = np.array(["a", "b", "c", "d"])


@pytest.mark.parametrize("name", TRANSFORMS)
def test_transform_bad_input(name):
    f = getattr(trnfft, name)
    fn = "trnfft." + name
    x = np.ones((4, 4))
    with pytest.raises(trncore.InvalidArgument, match=fn + ":") as e:
        f(STRINGS.reshape(2, 2))
    assert isinstance(e.value, ValueError) and e.value.function == fn
    with pytest.raises(trncore.InvalidArgument, match=fn):
        f(object())
    with pytest.raises(trncore.DimensionMismatch, match=fn):
        f(np.float64(3.0))  # 0-D
    with pytest.raises(TypeError, match=fn + ".*colour"):
        f(x, colour=1)
    with pytest.raises(trncore.ParseError):
        f(x, backend="gpu")
    with pytest.raises(trncore.ParseError):
        f(x, mode="fp3")
    with pytest.raises(trncore.ParseError):
        f(x, norm="unitary")
    with pytest.raises(trncore.InvalidArgument, match=fn):
        f(x, norm=1)
    with pytest.raises(trncore.InvalidArgument, match=fn):
        f(x, threads="two")
    with pytest.raises(trncore.NotSupported, match=fn + ".*report"):
        f(x, report=True)
    with pytest.raises(trncore.NotSupported):
        f(x, mode="fp8_e4m3", backend="sim")  # a math mode without a sim FFT
    if name in ONE_D:
        with pytest.raises(trncore.InvalidArgument, match=fn):
            f(x, n=2.5)
        with pytest.raises(trncore.InvalidArgument):
            f(x, axis=2)  # out of range
        with pytest.raises(trncore.InvalidArgument):
            f(x, n=0)
    else:
        with pytest.raises(trncore.InvalidArgument, match=fn):
            f(x, s="ab")
        with pytest.raises(trncore.InvalidArgument):
            f(x, axes=(0, 0))  # repeated
        with pytest.raises(trncore.DimensionMismatch):
            f(x, s=(4, 4), axes=(0,))
        with pytest.raises(trncore.InvalidArgument):
            f(np.ones((2, 3, 4)), axes=(5,))
    if name in ("rfft", "ihfft", "rfft2", "rfftn"):
        with pytest.raises(trncore.InvalidArgument, match=fn + ".*real"):
            f(x + 1j)


def test_other_functions_bad_input():
    with pytest.raises(trncore.InvalidArgument, match="trnfft.fftfreq"):
        trnfft.fftfreq("8")
    with pytest.raises(trncore.InvalidArgument, match="trnfft.rfftfreq"):
        trnfft.rfftfreq(None)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.rfftfreq(8, float("nan"))
    for f in (trnfft.fftshift, trnfft.ifftshift):
        with pytest.raises(trncore.InvalidArgument, match=f.__name__):
            f(STRINGS)
        with pytest.raises(trncore.InvalidArgument):
            f(np.ones(3), axes=(0, 0))
    for f in (trnfft.stft, trnfft.istft):
        with pytest.raises(trncore.InvalidArgument, match=f.__name__):
            f(STRINGS.reshape(2, 2), 4)
        with pytest.raises(TypeError):
            f(np.ones((9, 4)), 16, colour=1)
        with pytest.raises(trncore.ParseError):
            f(np.ones((9, 4)), 16, backend="gpu")
        with pytest.raises(trncore.InvalidArgument, match=f.__name__):
            f(np.ones((9, 4)), "16")
    with pytest.raises(trncore.InvalidArgument, match="trnfft.Plan"):
        trnfft.Plan((8,), "U4")
    with pytest.raises(trncore.InvalidArgument, match="trnfft.Plan"):
        trnfft.Plan("eight")
    p = trnfft.Plan((8,))
    with pytest.raises(trncore.InvalidArgument, match="trnfft.Plan.execute"):
        p.execute(STRINGS.repeat(2))
    with pytest.raises(trncore.DimensionMismatch, match="trnfft.Plan.execute"):
        p.execute(np.ones((8, 1)))
    with pytest.raises(TypeError):
        p.execute(np.ones(8), colour=1)
    for f in (trnfft.export_wisdom, trnfft.forget_wisdom):
        with pytest.raises(trncore.InvalidArgument, match=f.__name__):
            f(np.int16)


def test_refcounts_and_memory_over_many_calls():
    x = np.ones(8)
    h = np.ones(5, np.complex128)
    p = trnfft.Plan((8,))
    out = np.empty(8, np.complex128)
    before = (sys.getrefcount(x), sys.getrefcount(h), sys.getrefcount(out))
    for _ in range(200):  # warm-up: caches, first-use allocations
        trnfft.fft(x)
        trnfft.irfft(h)
        p.execute(x, out=out)
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(10000):
        trnfft.fft(x)
        trnfft.irfft(h)
        p.execute(x, out=out)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert (sys.getrefcount(x), sys.getrefcount(h), sys.getrefcount(out)) == before
    assert grown < 1 << 20, grown


def test_two_threads_match_sequential():
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((16, 300)) + 1j * rng.standard_normal((16, 300)) for _ in range(6)]
    calls = [lambda x: trnfft.fft(x), lambda x: trnfft.rfftn(x.real), lambda x: trnfft.irfft2(x),
             lambda x: trnfft.stft(x.real[0], 64), lambda x: trnfft.fft(x, backend="sim", mode="bf16")]
    sequential = [[c(x) for x in xs] for c in calls]
    results = [[None] * len(xs) for _ in calls]

    def work(k):
        for ci, c in enumerate(calls):
            for i in range(k, len(xs), 2):
                results[ci][i] = c(xs[i])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for ci in range(len(calls)):
        for a, b in zip(results[ci], sequential[ci]):
            assert np.array_equal(a, b)
