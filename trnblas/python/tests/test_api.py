"""Every public trnblas function: bad inputs raise trncore exceptions naming the function, keywords are
checked, no reference leaks, and concurrent calls from two Python threads match sequential ones."""
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import trncore
import trnblas

v = lambda n=3: np.arange(1.0, n + 1)  # noqa: E731
M = lambda r=3, c=3: np.arange(1.0, r * c + 1).reshape(r, c) + 4 * np.eye(r, c)  # noqa: E731

# name -> (positional arguments of a valid call, index of an array argument, its required ndim)
CALLS = {
    "axpy": ([2.0, v(), v()], 1, 1),
    "scal": ([2.0, v()], 1, 1),
    "copy": ([v()], 0, 1),
    "swap": ([v(), v()], 0, 1),
    "dot": ([v(), v()], 0, 1),
    "dotu": ([v(), v()], 0, 1),
    "dotc": ([v(), v()], 1, 1),
    "nrm2": ([v()], 0, 1),
    "asum": ([v()], 0, 1),
    "iamax": ([v()], 0, 1),
    "rot": ([v(), v(), 0.6, 0.8], 1, 1),
    "gemv": ([1.0, M(), v()], 1, 2),
    "symv": ([1.0, M(), v()], 1, 2),
    "hemv": ([1.0, M(), v()], 2, 1),
    "trmv": ([M(), v()], 0, 2),
    "trsv": ([M(), v()], 1, 1),
    "ger": ([1.0, v(), v()], 1, 1),
    "geru": ([1.0, v(), v()], 2, 1),
    "gerc": ([1.0, v(), v()], 1, 1),
    "syr": ([1.0, v()], 1, 1),
    "syr2": ([1.0, v(), v()], 2, 1),
    "her": ([1.0, v()], 1, 1),
    "her2": ([1.0, v(), v()], 1, 1),
    "gemm": ([1.0, M(), M()], 1, 2),
    "batched_gemm": ([1.0, np.ones((2, 3, 3)), np.ones((2, 3, 3))], 1, 3),
    "symm": ([1.0, M(), M()], 2, 2),
    "hemm": ([1.0, M(), M()], 1, 2),
    "syrk": ([1.0, M()], 1, 2),
    "herk": ([1.0, M()], 1, 2),
    "syr2k": ([1.0, M(), M()], 2, 2),
    "her2k": ([1.0, M(), M()], 1, 2),
    "trmm": ([1.0, M(), M()], 1, 2),
    "trsm": ([1.0, M(), M()], 2, 2),
    "df_mp2_energy": ([np.ones((2, 3, 4)) * 0.1, -np.ones(2), np.ones(3)], 0, 3),
    "batched_pair_energy": ([np.ones((2, 3, 4)) * 0.1, -np.ones(2), np.ones(3)], 0, 3),
    "df_fit_cholesky": ([np.ones((3, 1, 2)), np.eye(3)], 1, 2),
}
HOST_ONLY = set(CALLS) - {"gemm", "df_mp2_energy", "batched_pair_energy", "df_fit_cholesky"}
WITH_OPTIONS = set(CALLS) - {"df_fit_cholesky"}


def fresh(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def test_every_public_function_is_covered():
    public = {n for n in trnblas.__all__ if callable(getattr(trnblas, n)) and n[0].islower()}
    untested = public - set(CALLS) - {"gemm_strided_batched", "gemm_batched", "rotg", "build_info", "version"}
    assert not untested
    assert trnblas.__version__ == trnblas.version() and "trnblas" in trnblas.build_info()


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_call_runs(name):
    args, _, _ = CALLS[name]
    getattr(trnblas, name)(*fresh(args))


@pytest.mark.parametrize("name", sorted(CALLS))
def test_wrong_dtype(name):
    args, i, ndim = CALLS[name]
    args = fresh(args)
    args[i] = np.full(args[i].shape, "x")
    with pytest.raises(trncore.InvalidArgument) as e:
        getattr(trnblas, name)(*args)
    assert f"trnblas.{name if name != 'batched_pair_energy' else 'df_mp2_energy'}" in str(e.value)
    assert "dtype" in str(e.value)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_wrong_ndim(name):
    args, i, ndim = CALLS[name]
    args = fresh(args)
    args[i] = np.ones((2,) * (ndim + 1 if ndim < 3 else 4))
    with pytest.raises(trncore.DimensionMismatch) as e:
        getattr(trnblas, name)(*args)
    assert "trnblas." in str(e.value)


# name -> an argument whose shape must conform to the others (functions of one free-shaped operand have none)
CONSTRAINED = {"axpy": 2, "swap": 1, "dot": 1, "dotu": 1, "dotc": 1, "rot": 1, "gemv": 2, "symv": 1, "hemv": 2,
               "trmv": 0, "trsv": 1, "syr2": 2, "her2": 2, "gemm": 2, "batched_gemm": 2, "symm": 1, "hemm": 1,
               "syr2k": 2, "her2k": 2, "trmm": 1, "trsm": 1, "df_mp2_energy": 1, "batched_pair_energy": 2,
               "df_fit_cholesky": 1}


@pytest.mark.parametrize("name", sorted(CONSTRAINED))
def test_wrong_shape(name):
    args, _, _ = CALLS[name]
    i = CONSTRAINED[name]
    args = fresh(args)
    args[i] = np.ones((args[i].shape[0] + 1,) + args[i].shape[1:])
    with pytest.raises(trncore.DimensionMismatch) as e:
        getattr(trnblas, name)(*args)
    assert "trnblas." in str(e.value)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_unknown_keyword(name):
    args, _, _ = CALLS[name]
    with pytest.raises(TypeError, match="colour"):
        getattr(trnblas, name)(*fresh(args), colour="red")


@pytest.mark.parametrize("name", sorted(WITH_OPTIONS))
def test_bad_option_strings(name):
    args, _, _ = CALLS[name]
    with pytest.raises(trncore.ParseError, match="bf17"):
        getattr(trnblas, name)(*fresh(args), mode="bf17")
    with pytest.raises(trncore.ParseError, match="gpu"):
        getattr(trnblas, name)(*fresh(args), backend="gpu")
    with pytest.raises(trncore.InvalidArgument):
        getattr(trnblas, name)(*fresh(args), threads="many")


@pytest.mark.parametrize("name", sorted(HOST_ONLY))
def test_sim_backend_not_supported(name):
    args, _, _ = CALLS[name]
    with pytest.raises(trncore.NotSupported, match="trnblas::"):
        getattr(trnblas, name)(*fresh(args), backend="sim")
    with pytest.raises(trncore.NotSupported):
        getattr(trnblas, name)(*fresh(args), target_forward_error=1e-6)


def test_bad_scalars_and_option_words():
    with pytest.raises(trncore.InvalidArgument, match="trnblas.gemm.*alpha"):
        trnblas.gemm("one", M(), M())
    with pytest.raises(trncore.InvalidArgument, match="trnblas.gemm.*transA"):
        trnblas.gemm(1.0, M(), M(), transA="Q")
    with pytest.raises(trncore.InvalidArgument, match="trnblas.symm.*side"):
        trnblas.symm(1.0, M(), M(), side="up")
    with pytest.raises(trncore.InvalidArgument, match="trnblas.herk.*alpha"):
        trnblas.herk(1j, M())
    with pytest.raises(trncore.InvalidArgument, match="trnblas.gemm.*not array-like|trnblas.gemm"):
        trnblas.gemm(1.0, object(), M())
    with pytest.raises(trncore.InvalidArgument, match="trnblas.gemm.*out"):
        trnblas.gemm(1.0, M(), M(), out=np.zeros((3, 3), np.float32))
    with pytest.raises(trncore.InvalidArgument, match="trnblas.gemm.*strides"):
        trnblas.gemm(1.0, M(), M(), out=np.zeros((6, 6))[::2, ::2])
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.gemm.*out"):
        trnblas.gemm(1.0, M(), M(), out=np.zeros((3, 4)))
    with pytest.raises(trncore.InvalidArgument, match="trnblas.batched_gemm.*out"):
        trnblas.batched_gemm(1.0, np.ones((2, 3, 3)), M(), out=[[1.0]])


def test_inputs_accept_array_likes():
    # lists, integer arrays and objects with __array__ convert (integers to float64, like SciPy)
    class Wrapped:
        def __array__(self, dtype=None):
            return M()

    r = trnblas.gemm(1, [[1, 2], [3, 4]], np.eye(2, dtype=np.int64))
    assert r.dtype == np.float64 and np.array_equal(r, [[1, 2], [3, 4]])
    assert np.array_equal(trnblas.gemm(1.0, Wrapped(), np.eye(3)), M())


def test_no_reference_leaks():
    x, y = np.ones(8), np.ones(8)
    A = np.ones((4, 4))
    before = (sys.getrefcount(x), sys.getrefcount(y), sys.getrefcount(A))
    for _ in range(200):  # warm-up: caches, interned strings
        trnblas.dot(x, y)
        trnblas.gemm(1.0, A, A)
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(10000):
        trnblas.dot(x, y)
        trnblas.axpy(2.0, x, y, out=y)
        trnblas.gemv(1.0, A, x[:4])
    for _ in range(1000):
        trnblas.gemm(1.0, A, A, report=True)
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert (sys.getrefcount(x), sys.getrefcount(y), sys.getrefcount(A)) == before
    assert grown < 1 << 20, grown


def test_two_threads_match_sequential():
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((200, 150)), rng.standard_normal((150, 120))
    As, Bs = A[:40, :60].astype(np.float32), B[:60, :30].astype(np.float32)
    seq = [trnblas.gemm(1.0, A, B), trnblas.gemm(1.0, As, Bs, backend="sim", mode="bf16")]
    results = [[None, None], [None, None]]

    def work(slot):
        for _ in range(5):
            results[slot][0] = trnblas.gemm(1.0, A, B)
            results[slot][1] = trnblas.gemm(1.0, As, Bs, backend="sim", mode="bf16")

    threads = [threading.Thread(target=work, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for slot in (0, 1):
        assert np.array_equal(results[slot][0], seq[0]) and np.array_equal(results[slot][1], seq[1])


def test_monitor_keyword_accepted():
    # gemm and DF-MP2 report no iterations; a monitor is accepted and a non-callable is refused
    trnblas.gemm(1.0, M(), M(), backend="sim", mode="ozaki", monitor=lambda p: False)
    with pytest.raises(trncore.InvalidArgument, match="monitor"):
        trnblas.gemm(1.0, M(), M(), monitor=3)


def peak_bytes(f):
    """Peak traced allocation (NumPy reports its array buffers to tracemalloc) while f runs."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    f()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def test_inputs_with_fitting_strides_are_not_copied():
    n = 400
    mb = n * n * 8  # one n x n float64 matrix: 1.28 MB
    A = np.asfortranarray(np.ones((n, n)))
    B = np.ones((n, n))
    big = np.ones((n + 50, n + 50))
    # gemm: F-ordered A against a C-ordered result is a transposed view; only the result is allocated.
    assert peak_bytes(lambda: trnblas.gemm(1.0, A, B)) < 1.5 * mb
    assert peak_bytes(lambda: trnblas.gemm(1.0, big[10:10 + n, 20:20 + n], B)) < 1.5 * mb  # a slice: view with ld
    # An operand with no unit stride must be copied: the measurement does see copies.
    assert peak_bytes(lambda: trnblas.gemm(1.0, np.ones((n, 2 * n))[:, ::2], B)) > 1.9 * mb
    out = np.zeros((n, n), order="F")
    F = np.asfortranarray(B)
    for f in (lambda: trnblas.gemm(1.0, A, B, out=out),  # out= in place: nothing allocated
              lambda: trnblas.symm(1.0, B, F, out=out),  # C-ordered symmetric A: the other triangle, no copy
              lambda: trnblas.trsm(1.0, B, out, out=out),  # C-ordered triangular A: transposed, no copy
              lambda: trnblas.syrk(1.0, B, out=out),  # C-ordered A: op flipped, no copy
              lambda: trnblas.gemv(1.0, A, B[0], out=np.zeros(n))):
        assert peak_bytes(f) < 0.5 * mb
    stack = np.ones((4, n // 2, n // 2))
    res = np.empty_like(stack)
    assert peak_bytes(lambda: trnblas.batched_gemm(1.0, np.swapaxes(stack, 1, 2), stack, transA=True, out=res)) < 0.5 * mb
    Bq = np.ones((5, 60, 200)) * 0.01
    assert peak_bytes(lambda: trnblas.df_mp2_energy(Bq, -np.ones(5), np.ones(60))) < 0.5 * Bq.nbytes
