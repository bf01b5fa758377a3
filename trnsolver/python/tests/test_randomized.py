"""Randomized NLA against numpy.linalg on the same data.

Exactly rank-r matrices are recovered to rounding (HMT: with probability 1 when l ≥ r), so the checks use
rank-r data and tolerances c·n·u·‖A‖; approximate cases use the HMT / Nyström expectation bounds with a
safety factor 10 (the bounds are on the expectation; the seed is fixed so the test is deterministic).
"""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spl

import trncore
import trnsolver as ts


def low_rank(m, n, r, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((m, r)) @ rng.standard_normal((r, n))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rsvd_exact_rank(dtype):
    a = low_rank(80, 50, 6).astype(dtype)
    u, s, vh = ts.rsvd(a, 6, seed=1)
    u_eps = np.finfo(dtype).eps
    assert u.shape == (80, 6) and s.shape == (6,) and vh.shape == (6, 50)
    assert np.linalg.norm((u * s) @ vh - a) <= 100 * 80 * u_eps * np.linalg.norm(a)
    assert np.allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False)[:6], rtol=100 * 80 * u_eps)
    # same seed → bitwise identical; operator forms agree
    assert np.array_equal(ts.rsvd(a, 6, seed=1)[1], s)
    for op in (sp.csr_matrix(a), spl.aslinearoperator(a)):
        _, s2, _ = ts.rsvd(op, 6, seed=1)
        assert np.allclose(s2, s, rtol=100 * 80 * u_eps)


def test_rsvd_decaying_spectrum_bound():
    rng = np.random.default_rng(2)
    m, n, k, p, q = 120, 90, 10, 10, 1
    qa, _ = np.linalg.qr(rng.standard_normal((m, n)))
    qb, _ = np.linalg.qr(rng.standard_normal((n, n)))
    sig = 0.7 ** np.arange(n)
    a = (qa * sig) @ qb.T
    (u, s, vh), info = ts.rsvd(a, k, oversampling=p, power_iterations=q, report=True)
    assert info["rank"] == k and info["matvecs"] > 0
    e = 2 * q + 1
    tail = np.sqrt(np.sum(sig[k:] ** (2 * e)))
    bound = ((1 + np.sqrt(k / (p - 1))) * sig[k] ** e + np.e * np.sqrt(k + p) / p * tail) ** (1 / e) + sig[k]
    assert np.linalg.norm(a - (u * s) @ vh, 2) <= 10 * bound


def test_rsvd_sim_and_adaptive():
    a = low_rank(64, 40, 5).astype(np.float32)
    (u, s, vh), info = ts.rsvd(a, 5, backend="sim", mode="bf16", refine_math_mode="compensated", report=True)
    assert info["cost"] is not None
    assert np.linalg.norm((u * s) @ vh - a) <= 1e-4 * np.linalg.norm(a)
    u, s, vh = ts.rsvd_adaptive(low_rank(60, 40, 7), 1e-8, block_size=4)
    assert 7 <= s.size <= 12
    (u, s, vh), info = ts.rsvd_adaptive(low_rank(60, 40, 7), 1e-8, block_size=4, report=True)
    assert info["error_estimate"] <= 1e-8


def test_nystrom_eigh_randomized():
    g = low_rank(50, 50, 8, 3)
    a = g @ g.T  # PSD rank 8
    w, u = ts.nystrom(a, 12)
    assert np.linalg.norm((u * w) @ u.T - a) <= 1e-10 * np.linalg.norm(a)
    s = low_rank(40, 40, 4, 4)
    s = s + s.T
    w, u = ts.eigh_randomized(s, 4)
    ref = np.linalg.eigvalsh(s)
    ref = ref[np.argsort(-np.abs(ref))][:4]
    assert np.allclose(w, ref, rtol=1e-10, atol=1e-10 * np.abs(ref).max())


def test_trace_diagonal():
    a = np.diag(np.arange(1.0, 41.0))
    g = low_rank(40, 40, 8, 6)
    psd = g @ g.T  # rank 8 ≤ s = 20: Q captures the range, the estimate is exact up to rounding
    est, se = ts.hutch_plus_plus(psd, 60)
    assert est == pytest.approx(np.trace(psd), rel=1e-10)
    est, se = ts.hutchinson(a, 50)
    assert est == pytest.approx(np.trace(a), rel=1e-12)  # diagonal A: Rademacher probes are exact
    d = ts.diagonal_estimate(a, 10)
    assert np.allclose(d, np.diag(a))


def test_lstsq_sketched():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((400, 12))
    b = rng.standard_normal(400)
    x, info = ts.lstsq_sketched(a, b, report=True)
    xr = np.linalg.lstsq(a, b, rcond=None)[0]
    kappa = np.linalg.cond(a)
    assert info["converged"] and np.linalg.norm(x - xr) <= (kappa * 9 * 1e-12 + 1e-13 * kappa ** 2) * np.linalg.norm(xr)
    with pytest.raises(trncore.InvalidArgument, match="lstsq_sketched"):
        ts.lstsq_sketched(a.T, b[:12])


def test_sketches():
    om = ts.sketch_matrix(50, 4, sketch="rademacher", seed=3)
    assert om.shape == (50, 4) and set(np.unique(om)) <= {-1.0, 1.0}
    a = np.random.default_rng(0).standard_normal((20, 50))
    assert np.allclose(ts.sketch_right(a, 4, sketch="rademacher", seed=3), a @ om)
    om2 = ts.sketch_matrix(20, 3, seed=1)
    assert np.allclose(ts.sketch_left(a, 3, seed=1), om2.T @ a)
    with pytest.raises(trncore.ParseError):
        ts.sketch_matrix(5, 2, sketch="bogus")


def test_rayleigh_ritz_sketched():
    rng = np.random.default_rng(8)
    n = 60
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    lam = np.linspace(1, 10, n)
    # a real 2×2 rotation block gives the complex pair 20 ± 3i
    d = np.diag(lam)
    d[0:2, 0:2] = [[20.0, 3.0], [-3.0, 20.0]]
    a = q @ d @ q.T
    # basis: the invariant subspace of the pair and of λ = 10 (last), mixed by a random non-orthogonal matrix
    v = np.column_stack([q[:, 0], q[:, 1], q[:, -1]]) @ rng.standard_normal((3, 3))
    (w, x, res), info = ts.rayleigh_ritz_sketched(a, v, 12, report=True, seed=2)
    assert info["rank"] == 3 and x.shape == (n, 3)
    # invariant subspace: |Δλ| ≲ c·d·u·κ(V)²·‖A‖ (Bauer–Fike on M)
    tol = 100 * 3 * 2.0 ** -53 * np.linalg.cond(v) ** 2 * np.linalg.norm(a, 2)
    assert np.allclose(np.sort_complex(w), np.sort_complex(np.array([20 + 3j, 20 - 3j, 10])), atol=tol)
    for j in range(3):
        assert np.linalg.norm(a @ x[:, j] - w[j] * x[:, j]) <= res[j] * 1.01 + tol
    with pytest.raises(trncore.InvalidArgument, match="rayleigh_ritz_sketched"):
        ts.rayleigh_ritz_sketched(a, v, 2)  # sketch_rows < d
