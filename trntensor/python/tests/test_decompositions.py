"""CP-ALS, Tucker (HOSVD/HOOI) and TT-SVD against tensors of known low rank built here with NumPy, and the
reconstructions against numpy.einsum of the factors.

Tolerances: exact low-rank data is recovered up to rounding (relative 1e-8 for CP, whose ALS tail converges
linearly; the C++ tests use the same), HOSVD's bound √(Σ discarded σ²) for truncated Tucker, and TT-SVD's
certified error_bound ≤ ε for truncated trains (Oseledets 2011, Thm 2.2).
"""
import numpy as np
import pytest

import trncore
import trntensor as tt


def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


def cp_tensor(shape, rank, seed, nonnegative=False):
    rng = np.random.default_rng(seed)
    factors = [rng.standard_normal((n, rank)) for n in shape]
    if nonnegative:
        factors = [np.abs(f) for f in factors]
    letters = "abcdefgh"[: len(shape)]
    return np.einsum(",".join(c + "r" for c in letters) + "->" + letters, *factors), factors


def test_cp_recovers_rank_three():
    # Generic rank-3 Gaussian factors (seed 0); some draws are ALS "swamps" that need thousands of sweeps.
    x, _ = cp_tensor((6, 7, 5), 3, 0)
    for line_search in (False, True):
        d = tt.cp_als(x, rank=3, max_iterations=3000, tolerance=1e-15, line_search=line_search, seed=1)
        assert d.fit > 1 - 1e-8 and d.converged and not d.stopped_by_monitor
        assert rel(tt.cp_reconstruct(d), x) < 1e-8
        # the factors have unit-norm columns and reconstruct like numpy.einsum
        for f in d.factors:
            assert np.allclose(np.linalg.norm(f, axis=0), 1, atol=1e-12)
        manual = np.einsum("r,ar,br,cr->abc", d.weights, *d.factors)
        assert np.allclose(tt.cp_reconstruct(d.factors, d.weights), manual, atol=1e-13)
    # upstream's shape: (factors, weights); tol is the fit change between sweeps
    factors, weights = tt.cp_decompose(x, 3, max_iter=3000, tol=1e-15)
    assert len(factors) == 3 and factors[0].shape == (6, 3) and weights.shape == (3,)
    assert rel(tt.cp_reconstruct(factors, weights), x) < 1e-8
    (f2, w2), info = tt.cp_decompose(x, 3, max_iter=3000, tol=1e-15, report=True)
    assert isinstance(info, tt.CpDecomposition) and info.fit > 1 - 1e-8
    assert np.array_equal(w2, weights)  # seeded: the same decomposition


def test_cp_nonnegative_and_threads_and_float32():
    x, _ = cp_tensor((8, 6, 7), 2, 20, nonnegative=True)
    factors, weights = tt.cp_decompose(x, 2, max_iter=5000, tol=1e-15, nonneg=True)
    assert all(np.all(f >= 0) for f in factors)
    assert rel(tt.cp_reconstruct(factors, weights), x) < 1e-5  # HALS's sublinear tail (C++ test: same)
    y, _ = cp_tensor((5, 4, 6), 2, 3)
    a = tt.cp_als(y, rank=2, max_iterations=40, threads=1)
    b = tt.cp_als(y, rank=2, max_iterations=40, threads=2)
    assert np.array_equal(a.weights, b.weights)  # threads never change the result
    c = tt.cp_als(y.astype(np.float32), rank=2, max_iterations=40)  # converted to float64
    assert c.factors[0].dtype == np.float64


def test_cp_monitor_stops_and_sees_sweeps():
    x, _ = cp_tensor((6, 7, 5), 3, 0)
    seen = []

    def monitor(p):
        seen.append((p.iteration, p.residual))
        return p.iteration >= 4

    d = tt.cp_als(x, rank=3, max_iterations=100, tolerance=0, monitor=monitor)
    assert [s[0] for s in seen] == [1, 2, 3, 4]
    assert d.stopped_by_monitor and not d.converged and d.iterations == 4
    # stopped at sweep 4 = bitwise the run with max_iterations = 4
    e = tt.cp_als(x, rank=3, max_iterations=4, tolerance=0)
    assert np.array_equal(d.weights, e.weights)
    _, info = tt.cp_decompose(x, 3, tol=0, monitor=lambda p: p.iteration >= 2, report=True)
    assert info.stopped_by_monitor and info.iterations == 2

    with pytest.raises(trncore.InvalidArgument, match="monitor"):
        tt.cp_als(x, rank=3, monitor=42)

    def boom(p):
        raise KeyError("from the monitor")

    with pytest.raises(KeyError):
        tt.cp_als(x, rank=3, monitor=boom)


def test_tucker_exact_multilinear_rank_and_truncation():
    rng = np.random.default_rng(5)
    core = rng.standard_normal((2, 3, 2))
    us = [np.linalg.qr(rng.standard_normal((n, r)))[0] for n, r in ((6, 2), (5, 3), (7, 2))]
    x = np.einsum("abc,ia,jb,kc->ijk", core, *us)
    g, factors = tt.tucker_decompose(x, (2, 3, 2))
    assert g.shape == (2, 3, 2) and [f.shape for f in factors] == [(6, 2), (5, 3), (7, 2)]
    assert rel(tt.tucker_reconstruct(g, factors), x) < 1e-12
    for f in factors:
        assert np.allclose(f.T @ f, np.eye(f.shape[1]), atol=1e-13)
    assert np.allclose(tt.tucker_reconstruct(g, factors), np.einsum("abc,ia,jb,kc->ijk", g, *factors), atol=1e-13)
    # truncated: the HOSVD bound from the unfoldings' discarded singular values; HOOI never worse
    y = rng.standard_normal((6, 5, 7))
    ranks = (3, 2, 4)
    (g1, f1), h = tt.tucker_decompose(y, ranks, report=True)
    discarded = sum(np.sum(np.linalg.svd(np.moveaxis(y, n, 0).reshape(y.shape[n], -1), compute_uv=False)[r:] ** 2)
                    for n, r in enumerate(ranks))
    err = np.linalg.norm(tt.tucker_reconstruct(g1, f1) - y)
    assert err <= np.sqrt(discarded) * (1 + 1e-12) and h.iterations == 0
    assert abs(h.relative_error - err / np.linalg.norm(y)) < 1e-12
    (g2, f2), o = tt.tucker_decompose(y, ranks, method="hooi", max_iterations=30, report=True)
    assert o.relative_error <= h.relative_error + 1e-15 and o.iterations >= 1
    assert abs(rel(tt.tucker_reconstruct(o), y) - o.relative_error) < 1e-12
    sweeps = []
    s = tt.tucker_hooi(y, ranks, tolerance=0, monitor=lambda p: sweeps.append(p.iteration) or p.iteration >= 3)
    assert s.stopped_by_monitor and sweeps == [1, 2, 3]


def test_tt_exact_ranks_and_truncation():
    rng = np.random.default_rng(8)
    g = [rng.standard_normal(s) for s in ((1, 4, 2), (2, 5, 3), (3, 6, 1))]
    x = np.einsum("aib,bjc,ckd->ijk", *g)
    # epsilon = 0 keeps the rounding-level singular values too; 1e-12 drops exactly those
    cores, train = tt.tt_decompose(x, epsilon=1e-12, report=True)
    assert train.ranks == [1, 2, 3, 1] and [c.shape for c in cores] == [(1, 4, 2), (2, 5, 3), (3, 6, 1)]
    # the bound certifies the truncation; the reconstruction adds only rounding (≈ 1e-15 here)
    assert train.error_bound <= 1e-12 and rel(tt.tt_reconstruct(cores), x) < 1e-13
    full = tt.tt_decompose(x, None)  # epsilon 0: exact up to rounding, ranks up to the unfoldings' sizes
    assert rel(tt.tt_reconstruct(full), x) < 1e-13
    assert np.allclose(tt.tt_reconstruct(cores), np.einsum("aib,bjc,ckd->ijk", *cores), atol=1e-13)
    # a train of ranks (2, 3, 2) plus noise: every ε truncates something
    g4 = [rng.standard_normal(s) for s in ((1, 4, 2), (2, 5, 3), (3, 6, 2), (2, 3, 1))]
    y = np.einsum("aib,bjc,ckd,dle->ijkl", *g4) + 0.05 * rng.standard_normal((4, 5, 6, 3))
    for eps in (0.6, 0.3, 0.1, 0.01):
        cores, train = tt.tt_decompose(y, None, epsilon=eps, report=True)
        # error_bound certifies the truncation; the reconstruction adds rounding only (< 1e-13 here)
        assert 0 < train.error_bound <= eps
        assert rel(tt.tt_reconstruct(train), y) <= train.error_bound + 1e-13
    capped = tt.tt_decompose(y, 2)  # upstream: max_rank caps every bond
    assert max(c.shape[2] for c in capped) <= 2
    t = tt.tt_svd(y, 0.0, max_rank=2)
    assert rel(tt.tt_reconstruct(t), y) <= t.error_bound + 1e-13


def test_bad_input_decompositions():
    x = np.random.default_rng(1).standard_normal((3, 4, 5))
    cases = [
        (lambda: tt.cp_als(x, rank=0), trncore.InvalidArgument),
        (lambda: tt.cp_als(np.ones(4), rank=1), trncore.InvalidArgument),  # ndim < 2
        (lambda: tt.cp_als(np.full((2, 2), np.nan), rank=1), trncore.InvalidArgument),
        (lambda: tt.cp_als(x, rank=2, tolerance=-1.0), trncore.InvalidArgument),
        (lambda: tt.cp_als(x, rank=2, backend="sim"), trncore.NotSupported),
        (lambda: tt.cp_als(x + 1j, rank=2), trncore.InvalidArgument),
        (lambda: tt.cp_decompose(np.array([["a"]]), 1), trncore.InvalidArgument),
        (lambda: tt.tucker_decompose(x.astype(complex), (2, 2, 2)), trncore.InvalidArgument),
        (lambda: tt.tt_decompose(np.zeros((2, 0)), 1), trncore.InvalidArgument),  # the library crashed here
        (lambda: tt.tt_svd(np.zeros((0, 3)), 0.1), trncore.InvalidArgument),
        (lambda: tt.cp_decompose(x, 2, factors=[np.ones((3, 2))] * 3), trncore.NotSupported),
        (lambda: tt.tucker_hosvd(x, (2, 2)), trncore.InvalidArgument),
        (lambda: tt.tucker_hosvd(x, (2, 9, 2)), trncore.InvalidArgument),
        (lambda: tt.tucker_hosvd(x, "abc"), trncore.InvalidArgument),
        (lambda: tt.tucker_hooi(x, (2, 2, 2), max_iterations=-1), trncore.InvalidArgument),
        (lambda: tt.tucker_decompose(x, (2, 2, 2), method="svd"), trncore.InvalidArgument),
        (lambda: tt.tucker_hosvd(x, (2, 2, 2), backend="sim"), trncore.NotSupported),
        (lambda: tt.tt_svd(x, -0.1), trncore.InvalidArgument),
        (lambda: tt.tt_svd(x, 0.1, max_rank=0), trncore.InvalidArgument),
        (lambda: tt.tt_svd(x, 0.1, max_rank="two"), trncore.InvalidArgument),
        (lambda: tt.tt_decompose(x, 2, backend="sim"), trncore.NotSupported),
        (lambda: tt.cp_reconstruct([np.ones((3, 2)), np.ones((4, 3))]), trncore.DimensionMismatch),
        (lambda: tt.cp_reconstruct([np.ones(3)]), trncore.DimensionMismatch),
        (lambda: tt.cp_reconstruct(5), trncore.InvalidArgument),
        (lambda: tt.tucker_reconstruct(np.ones((2, 2)), [np.ones((3, 2))]), trncore.DimensionMismatch),
        (lambda: tt.tucker_reconstruct(np.ones((2, 2))), trncore.InvalidArgument),
        (lambda: tt.tt_reconstruct([np.ones((1, 3, 2)), np.ones((3, 4, 1))]), trncore.DimensionMismatch),
        (lambda: tt.tt_reconstruct([np.ones((3, 2))]), trncore.DimensionMismatch),
    ]
    for call, error in cases:
        with pytest.raises(error) as e:
            call()
        assert "trntensor" in str(e.value)
    for f in (lambda: tt.cp_als(x, rank=2, colour=1), lambda: tt.tucker_hooi(x, (2, 2, 2), colour=1),
              lambda: tt.tt_svd(x, 0.1, colour=1), lambda: tt.tucker_hosvd(x, (2, 2, 2), max_iterations=3),
              lambda: tt.cp_decompose(x, 2, colour=1), lambda: tt.tucker_decompose(x, (2, 2, 2), colour=1),
              lambda: tt.tt_decompose(x, 2, colour=1)):
        with pytest.raises(TypeError):
            f()


def test_ctrl_c_stops_a_long_decomposition():
    import os
    import signal
    import threading
    import time

    x = np.random.default_rng(0).standard_normal((20, 20, 20))
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        tt.cp_als(x, rank=8, max_iterations=10**6, tolerance=0)  # ~12 min without the interrupt
    timer.join()
    assert time.perf_counter() - start < 10
