"""trnrand.Stream, the bulk fills, the sim backend, the Generator's reproducibility, threads and leaks.

No test hard-codes a value computed by today's C++: bits are compared between two calls of the bindings
(threads=1 vs 2, a fill vs its slices, host vs sim where docs/trnrand.md promises equality), against the
definition of the stream (word(i) vs fill_uint32, two uint32 words vs one uint64), or statistically.
"""
import pickle
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import trncore
import trnrand
from trnrand import streams as st

GENERATORS = ["philox4x32_10", "threefry4x32_20"]


@pytest.mark.parametrize("generator", GENERATORS)
def test_stream_value_semantics(generator):
    s = trnrand.Stream(7, 3, 5, generator)
    assert (s.seed, s.subsequence, s.offset, s.generator) == (7, 3, 5, generator)
    assert s == trnrand.Stream(7, 3, 5, generator) and hash(s) == hash(trnrand.Stream(7, 3, 5, generator))
    assert s.skip_ahead(10) == trnrand.Stream(7, 3, 15, generator)
    assert s.skip_ahead_sequence(2) == trnrand.Stream(7, 5, 5, generator)
    assert trnrand.Stream(1, 0, 2**64 - 1).skip_ahead(2).offset == 1  # offsets wrap modulo 2**64
    assert pickle.loads(pickle.dumps(s)) == s
    assert "seed=7" in repr(s)


@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize("n", [0, 1, 127, 128, 129, 1031])
def test_fill_uint32_is_word_by_word(generator, n):
    s = trnrand.Stream(2**64 - 1, 2**40 + 3, 2**32 - 2, generator)  # crosses a 2**32-word boundary of the counter
    out = np.empty(n, dtype=np.uint32)
    assert st.fill_uint32(s, out) == s.skip_ahead(n)
    assert [int(v) for v in out] == [s.word(i) for i in range(n)]


def test_fill_uint64_pairs_words():
    s = trnrand.Stream(11, 1, 1)
    w = np.empty(2 * 1001, dtype=np.uint32)
    st.fill_uint32(s, w)
    d = np.empty(1001, dtype=np.uint64)
    assert st.fill_uint64(s, d) == s.skip_ahead(2002)
    assert np.array_equal(d, w[0::2].astype(np.uint64) | (w[1::2].astype(np.uint64) << np.uint64(32)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fill_uniform_is_the_exact_grid(dtype):
    s = trnrand.Stream(3)
    n = 4099
    w = np.empty(2 * n, dtype=np.uint32)
    st.fill_uint32(s, w)
    oc, co = np.empty(n, dtype), np.empty(n, dtype)
    st.fill_uniform(s, oc)
    st.fill_uniform(s, co, "closed_open")
    if dtype == np.float32:
        k = (w[:n] >> 8).astype(np.float64)
        assert np.array_equal(oc, ((k + 1) * 2.0**-24).astype(np.float32))
        assert np.array_equal(co, (k * 2.0**-24).astype(np.float32))
    else:
        k = ((w[0::2].astype(np.uint64) << np.uint64(32)) | w[1::2].astype(np.uint64)) >> np.uint64(11)
        assert np.array_equal(co, k.astype(np.float64) * 2.0**-53)
        assert np.array_equal(oc, (k + np.uint64(1)).astype(np.float64) * 2.0**-53)
    assert oc.min() > 0 and oc.max() <= 1 and co.min() >= 0 and co.max() < 1


def test_fills_threads_and_slices_bitwise():
    # > 64 Ki values per thread so that threads=2 really splits the fill (docs/trnrand.md).
    n = 300_007
    s = trnrand.Stream(99, 4, 13)
    for fill, dtype, budget in [(st.fill_uint32, np.uint32, 1), (st.fill_uint64, np.uint64, 2),
                                (st.fill_uniform, np.float32, 1), (st.fill_uniform, np.float64, 2)]:
        a, b = np.empty(n, dtype), np.empty(n, dtype)
        assert fill(s, a, threads=1) == fill(s, b, threads=2)
        assert np.array_equal(a, b)
        parts = []
        for r in range(3):
            begin, count = trnrand.partition(n, 3, r)
            part = np.empty(count, dtype)
            fill(s.skip_ahead(budget * begin), part)
            parts.append(part)
        assert np.array_equal(np.concatenate(parts), a)


@pytest.mark.parametrize("generation", ["trn1", "trn2"])
@pytest.mark.parametrize("generator", GENERATORS)
def test_sim_fills_equal_host(generation, generator):
    # docs/trnrand.md, "Sim backend": sim::fill_uint32 and sim::fill_uniform are bitwise the host's.
    s = trnrand.Stream(5, 2, 3, generator)
    n = 128 * 512 + 3
    for fill, dtype in [(st.fill_uint32, np.uint32), (st.fill_uint64, np.uint64), (st.fill_uniform, np.float32)]:
        host, sim = np.empty(n, dtype), np.empty(n, dtype)
        assert fill(s, host) == fill(s, sim, backend="sim", generation=generation)
        assert np.array_equal(host, sim)
    with pytest.raises(trncore.NotSupported):
        st.fill_uniform(s, np.empty(4), backend="sim")  # no fp64 on the engines


def test_partition():
    assert trnrand.partition(10, 3, 0) == (0, 4) and trnrand.partition(10, 3, 2) == (7, 3)
    with pytest.raises(trncore.InvalidArgument, match="partition"):
        trnrand.partition(10, 0, 0)
    with pytest.raises(trncore.InvalidArgument, match="partition"):
        trnrand.partition(10, 3, 3)
    with pytest.raises(trncore.InvalidArgument, match="trnrand.partition"):
        trnrand.partition(-1, 3, 0)


def test_stream_bad_input():
    with pytest.raises(trncore.ParseError, match="mersenne"):
        trnrand.Stream(1, generator="mersenne")
    with pytest.raises(trncore.InvalidArgument, match="trnrand.Stream"):
        trnrand.Stream(-1)
    with pytest.raises(trncore.InvalidArgument, match="trnrand.Stream"):
        trnrand.Stream(2**64)
    assert trnrand.Stream(np.uint64(2**63 + 1), np.int32(2)) == trnrand.Stream(2**63 + 1, 2)  # NumPy ints
    for bad in [True, 1.0, "3"]:
        with pytest.raises(trncore.InvalidArgument, match="trnrand.Stream: seed has type"):
            trnrand.Stream(bad)
    with pytest.raises(trncore.InvalidArgument, match="skip_ahead"):
        trnrand.Stream(1).skip_ahead(-5)
    with pytest.raises(trncore.InvalidArgument, match="word"):
        trnrand.Stream(1).word(1.5)
    s = trnrand.Stream(1)
    for fill in [st.fill_uint32, st.fill_uint64, st.fill_uniform]:
        name = fill.__name__
        with pytest.raises(trncore.InvalidArgument, match=f"trnrand.streams.{name}.*dtype"):
            fill(s, np.empty(4, np.int16))
        with pytest.raises(trncore.InvalidArgument, match=f"trnrand.streams.{name}.*not a NumPy array"):
            fill(s, [0, 0])
        ok = np.empty(8, {"fill_uint32": np.uint32, "fill_uint64": np.uint64, "fill_uniform": np.float32}[name])
        with pytest.raises(trncore.InvalidArgument, match="contiguous"):
            fill(s, ok[::2])
        ro = ok.copy()
        ro.flags.writeable = False
        with pytest.raises(trncore.InvalidArgument, match="read-only"):
            fill(s, ro)
        with pytest.raises(trncore.InvalidArgument, match="threads"):
            fill(s, ok, threads=-1)
        with pytest.raises(trncore.ParseError):
            fill(s, ok, backend="sim", generation="trn9")
        with pytest.raises(trncore.ParseError):
            fill(s, ok, backend="gpu")
        with pytest.raises(TypeError, match=name):
            fill(s, ok, thread=2)
    with pytest.raises(trncore.InvalidArgument, match="interval"):
        st.fill_uniform(s, np.empty(3, np.float32), "open_open")


def test_fills_write_in_place():
    out = np.zeros((3, 5), dtype=np.float32, order="F")
    before = out.__array_interface__["data"][0]
    st.fill_uniform(trnrand.Stream(1), out)
    assert out.__array_interface__["data"][0] == before and np.all(out > 0)


# ---- Generator ---------------------------------------------------------------------------------------------


def test_generator_reproducible_and_advancing():
    a, b = trnrand.Generator(42), trnrand.Generator(42)
    x = trnrand.normal(1000, generator=a)
    assert np.array_equal(x, trnrand.normal(1000, generator=b))
    assert not np.array_equal(x, trnrand.normal(1000, generator=a))  # the stream advanced
    assert a.position() == 2 * 2000 and a.stream == trnrand.Stream(42, 0, 4000)
    c = trnrand.Generator(42)
    c.advance(2000)
    assert np.array_equal(trnrand.normal(1000, generator=c), trnrand.normal(1000, generator=b))
    state = c.get_state()
    y = trnrand.uniform(10, generator=c)
    c.set_state(state)
    assert np.array_equal(trnrand.uniform(10, generator=c), y)
    c.advance_to(0)
    assert np.array_equal(trnrand.normal(1000, generator=c), x)
    assert c.manual_seed(43) is c and c.seed == 43 and c.position() == 0
    # Same values as the stream API from the same position.
    out = np.empty(1000, np.float32)
    st.normal(trnrand.Stream(42), out)
    assert np.array_equal(out, x)
    # The default generator.
    g = trnrand.manual_seed(5)
    assert trnrand.get_default_generator() is g
    assert np.array_equal(trnrand.randint(20, low=0, high=100), trnrand.randint(20, low=0, high=100,
                                                                                  generator=trnrand.Generator(5)))
    assert trnrand.Generator(None).seed is None


@pytest.mark.parametrize("P", [2, 3])
def test_generator_partitions_concatenate(P):
    # Rank r's draws of n values concatenate, in rank order, to one draw of P*n values; successive calls
    # do not overlap across ranks.
    n = 101
    draws = [("normal", {}), ("uniform", {"low": -1, "high": 2}), ("gamma", {"shape": 2.5}),
             ("randint", {"low": 0, "high": 7}), ("poisson", {"lam": 3.0}), ("bernoulli", {"p": 0.3}),
             ("exponential", {"rate": 2.0}), ("truncated_normal", {}), ("beta", {"alpha": 2, "beta": 3})]
    whole = trnrand.Generator(9)
    ranks = [trnrand.Generator(9, partition_rank=r, partition_size=P) for r in range(P)]
    for name, kw in draws:
        f = getattr(trnrand, name)
        ref = f(P * n, generator=whole, **kw)
        got = np.concatenate([f(n, generator=g, **kw) for g in ranks])
        assert np.array_equal(ref, got), name
    assert all(g.stream == whole.stream for g in ranks)


def test_generator_bad_input():
    with pytest.raises(trncore.InvalidArgument, match="partition_rank"):
        trnrand.Generator(1, partition_rank=2, partition_size=2)
    with pytest.raises(trncore.InvalidArgument, match="partition_size"):
        trnrand.Generator(1, partition_size=0)
    with pytest.raises(trncore.InvalidArgument, match="device"):
        trnrand.Generator(1, device="cuda")
    with pytest.raises(trncore.InvalidArgument, match="seed"):
        trnrand.Generator(-3)
    with pytest.raises(trncore.ParseError):
        trnrand.Generator(1, generator="mt19937")
    with pytest.raises(trncore.InvalidArgument, match="advance"):
        trnrand.Generator(1).advance(-1)
    with pytest.raises(trncore.InvalidArgument, match="set_state"):
        trnrand.Generator(1).set_state(5)
    with pytest.raises(trncore.InvalidArgument, match="generator"):
        trnrand.normal(3, generator=np.random.default_rng(0))


def test_two_threads_match_sequential():
    # Two Python threads (GIL released inside) on their own generators, and on one shared Sobol object.
    n = 200_000
    ref = [trnrand.normal(n, generator=trnrand.Generator(s), threads=1) for s in (1, 2)]
    got = [None, None]
    barrier = threading.Barrier(2)

    def work(i, seed):
        barrier.wait()
        for _ in range(3):
            got[i] = trnrand.normal(n, generator=trnrand.Generator(seed), threads=1)

    ts = [threading.Thread(target=work, args=(i, s)) for i, s in enumerate((1, 2))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert np.array_equal(got[0], ref[0]) and np.array_equal(got[1], ref[1])
    # A shared generator: the two threads' draws are disjoint, consecutive blocks of one stream.
    g = trnrand.Generator(7)
    out = [None, None]

    def draw(i):
        barrier.wait()
        out[i] = trnrand.uniform(50_000, generator=g, dtype=np.float64)

    ts = [threading.Thread(target=draw, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    whole = trnrand.uniform(100_000, generator=trnrand.Generator(7), dtype=np.float64)
    first = 0 if np.array_equal(out[0], whole[:50_000]) else 1
    assert np.array_equal(out[first], whole[:50_000]) and np.array_equal(out[1 - first], whole[50_000:])


def test_refcount_and_leak():
    buf = np.empty(64, np.float32)
    s = trnrand.Stream(1)
    g = trnrand.Generator(1)
    r_buf, r_s, r_g = sys.getrefcount(buf), sys.getrefcount(s), sys.getrefcount(g)
    for _ in range(200):  # warm caches before measuring
        st.normal(s, buf)
        trnrand.normal_into(buf, generator=g)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for _ in range(10_000):
        st.normal(s, buf)
        trnrand.normal_into(buf, generator=g)
    grown = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert sys.getrefcount(buf) == r_buf and sys.getrefcount(s) == r_s and sys.getrefcount(g) == r_g
    assert grown < 1 << 20
