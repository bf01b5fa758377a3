"""Dense routines against numpy.linalg / scipy.linalg on the same data.

Tolerances come from the backward-error bounds the C++ headers state, with u the unit roundoff of the dtype
and a modest constant c = 10 for p(n) in LAPACK's bounds (measured values are far below):
- LU: ‖PLU − A‖ ≤ γ_n·‖|L||U|‖ (Higham Thm 9.3): check ≤ c·n·u·‖|L||U|‖.
- Cholesky: ‖LLᵀ − A‖ ≤ n·γ_{n+1}‖A‖ (Thm 10.3).
- QR: ‖QR − A‖ ≤ c·m·n·u·‖A‖ (Thm 19.4), ‖QᵀQ − I‖ ≤ c·m·n·u.
- SVD / eigh / Schur: ‖ΔA‖₂ ≤ p(n)·u·‖A‖₂ (LAPACK UG §4.7–4.9), orthogonality p(n)·u.
"""
import numpy as np
import pytest
import scipy.linalg as sl

import trncore
import trnsolver as ts

U = {np.float32: 2.0 ** -24, np.float64: 2.0 ** -53}
C = 10.0


def rand(shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def spd(n, dtype=np.float64, seed=0):
    a = rand((n, n), np.float64, seed)
    return (a @ a.T + n * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (7, 7), (13, 5), (5, 13)])
def test_lu(dtype, shape):
    a = rand(shape, dtype)
    p, l, u = ts.lu(a)
    assert l.dtype == dtype
    m, n = shape
    # P L U = A within γ_n |L||U| (Higham Thm 9.3)
    bound = C * max(n, 1) * U[dtype] * np.linalg.norm(np.abs(l) @ np.abs(u)) + 1e-300
    assert np.linalg.norm(p @ l @ u - a) <= bound
    if m and n:
        ps, ls, us = sl.lu(a.astype(np.float64))
        # same pivoting strategy (partial pivoting, ties aside) → same U up to rounding
        assert np.allclose(np.abs(u), np.abs(us), atol=C * n * U[dtype] * np.abs(us).max() * 10)


@pytest.mark.parametrize("n", [127, 128, 129])
def test_lu_tile_edges_sim(n):
    # sim LU: blocked by 128, trailing updates as fp32 TensorEngine GEMMs (mode fp32 / compensated):
    # P L U = A within the fp32 bound γ_n·|L||U| plus the GEMM bound of the same order.
    a = rand((n, n), np.float32, n)
    lu, piv, info = ts.getrf(a, backend="sim", mode="compensated")
    assert info == 0
    l = np.tril(lu, -1) + np.eye(n, dtype=np.float32)
    u = np.triu(lu)
    pa = a.astype(np.float64).copy()
    for i, p in enumerate(piv):
        pa[[i, p - 1]] = pa[[p - 1, i]]
    err = np.linalg.norm(l.astype(np.float64) @ u - pa)
    assert err <= C * n * U[np.float32] * np.linalg.norm(np.abs(l) @ np.abs(u))
    # and it agrees with the host factorization's pivots on this random matrix
    _, piv_host, _ = ts.getrf(a)
    assert np.array_equal(piv, piv_host)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_getrf_getrs_gecon(dtype):
    n = 31
    a = spd(n, dtype) + rand((n, n), dtype, 3)
    lu, piv, info = ts.getrf(a)
    assert info == 0 and piv.dtype == np.int64 and piv.min() >= 1
    b = rand((n, 3), dtype, 1)
    x = ts.getrs(lu, piv, b)
    # backward error ‖b − Ax‖/(‖A‖‖x‖) ≤ c·n·u (Higham Thm 9.4)
    be = np.linalg.norm(b - a @ x) / (np.linalg.norm(a) * np.linalg.norm(x))
    assert be <= C * n * U[dtype]
    xt = ts.getrs(lu, piv, b[:, 0], trans="T")
    assert xt.shape == (n,)
    assert np.linalg.norm(b[:, 0] - a.T @ xt) / (np.linalg.norm(a) * np.linalg.norm(xt)) <= C * n * U[dtype]
    anorm = ts.lange(a, "one")
    assert anorm == pytest.approx(np.linalg.norm(a.astype(np.float64), 1), rel=C * n * U[dtype])
    rc = ts.gecon(lu, anorm, "one")
    true_rc = 1.0 / np.linalg.cond(a.astype(np.float64), 1)
    # Higham's estimator: a lower bound of ‖A⁻¹‖ (so rcond ≥ true), within a factor n in the worst case
    assert true_rc * (1 - 1e-3) <= rc <= n * true_rc


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 17])
def test_cholesky(dtype, n):
    a = spd(n, dtype)
    l = ts.cholesky(a)
    assert np.allclose(l, np.tril(l))
    bound = n * C * (n + 1) * U[dtype] * (np.linalg.norm(a, 2) if n else 0) + 1e-300
    assert np.linalg.norm(l.astype(np.float64) @ l.T - a) <= bound
    uu = ts.cholesky(a, upper=True)
    assert uu.shape == (n, n)
    if n:
        assert np.allclose(uu, l.T, atol=C * n * U[dtype] * np.abs(l).max())
    if n:
        assert np.allclose(l, np.linalg.cholesky(a.astype(np.float64)), atol=C * n * U[dtype] * np.abs(l).max())


def test_cholesky_not_spd():
    a = -np.eye(3)
    with pytest.raises(trncore.InvalidArgument, match="trnsolver.cholesky"):
        ts.cholesky(a)
    f, info = ts.potrf(a)
    assert info == 1


def test_potrs_solve_spd_inv_spd():
    n = 23
    a = spd(n)
    b = rand(n, seed=2)
    f, info = ts.potrf(a, "upper")
    x = ts.potrs(f, b, "upper")
    assert np.linalg.norm(b - a @ x) / (np.linalg.norm(a) * np.linalg.norm(x)) <= C * 3 * n * U[np.float64]
    x2 = ts.solve_spd(a, b, iterative_refinement=True)
    assert np.allclose(x2, sl.solve(a, b, assume_a="pos"), rtol=C * n * U[np.float64] * np.linalg.cond(a))
    inv = ts.inv_spd(a)
    assert np.linalg.norm(inv @ a - np.eye(n)) <= C * n * U[np.float64] * np.linalg.cond(a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (9, 4), (4, 9), (31, 31)])
def test_qr(dtype, shape):
    a = rand(shape, dtype)
    q, r = ts.qr(a)
    m, n = shape
    k = min(m, n)
    assert q.shape == (m, k) and r.shape == (k, n)
    assert np.linalg.norm(q.astype(np.float64) @ r - a) <= C * m * n * U[dtype] * np.linalg.norm(a)
    assert np.linalg.norm(q.T.astype(np.float64) @ q - np.eye(k)) <= C * m * n * U[dtype]
    qc, rc = ts.qr(a, mode="complete")
    assert qc.shape == (m, m)
    assert np.allclose(np.abs(r), np.abs(np.linalg.qr(a.astype(np.float64))[1]), atol=C * m * n * U[dtype] * 10)
    assert np.array_equal(ts.qr(a, mode="r"), r)


def test_qr_sim():
    a = rand((40, 20), np.float32)
    q, r = ts.qr(a, backend="sim", math_mode="compensated")  # mode= is numpy's qr mode
    # compensated sim GEMMs (fp32 accuracy): ‖QR − A‖ ≤ c·m·n·u_fp32‖A‖ (plus the same-order GEMM bound)
    assert np.linalg.norm(q.astype(np.float64) @ r - a) <= C * 40 * 20 * U[np.float32] * np.linalg.norm(a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (12, 7), (7, 12)])
def test_svd_pinv(dtype, shape):
    a = rand(shape, dtype)
    u, s, vh = ts.svd(a)
    m, n = shape
    s_ref = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    # |σ̂ − σ| ≤ p(m,n)·u·σ₁ (LAPACK UG §4.9)
    assert np.abs(s - s_ref).max() <= C * max(m, n) * U[dtype] * s_ref[0]
    assert np.linalg.norm((u * s) @ vh - a) <= C * max(m, n) * U[dtype] * s_ref[0] * np.sqrt(min(m, n))
    uf, sf, vhf = ts.svd(a, full_matrices=True)
    assert uf.shape == (m, m) and vhf.shape == (n, n)
    assert np.allclose(ts.svd(a, compute_uv=False), s)
    p = ts.pinv(a)
    pr = np.linalg.pinv(a.astype(np.float64))
    kappa = s_ref[0] / s_ref[-1]
    assert np.linalg.norm(p - pr) <= C * max(m, n) * U[dtype] * kappa * np.linalg.norm(pr)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 2, 37])
def test_eigh(dtype, n):
    a = rand((n, n), dtype)
    a = (a + a.T) / 2
    w, v = ts.eigh(a)
    if n == 0:
        assert w.shape == (0,) and v.shape == (0, 0)
        return
    a2 = np.linalg.norm(a.astype(np.float64), 2)
    wr = np.linalg.eigvalsh(a.astype(np.float64))
    assert np.abs(w - wr).max() <= C * n * U[dtype] * a2  # |λ̂ − λ| ≤ p(n)·u·‖A‖₂
    assert np.linalg.norm(a @ v - v * w) <= C * n * U[dtype] * a2 * np.sqrt(n)
    assert np.linalg.norm(v.T @ v - np.eye(n)) <= C * n * U[dtype] * np.sqrt(n)
    assert np.abs(ts.eigh(a, eigvals_only=True) - wr).max() <= C * n * U[dtype] * a2
    wu, _ = ts.eigh(a, uplo="U")
    assert np.abs(wu - wr).max() <= C * n * U[dtype] * a2
    wj, vj = ts.eigh(a, tol=1e-12, method="jacobi")
    assert np.abs(wj - wr).max() <= C * n * U[dtype] * a2
    w2, v2, info = ts.syevd(a)
    assert info == 0 and np.allclose(w2, w)


@pytest.mark.parametrize("method", ["jacobi", "tridiagonal"])
def test_eigh_sim(method):
    n = 24
    a = rand((n, n), np.float32)
    a = (a + a.T) / 2
    # compensated: fp32-accurate sim GEMMs (plain "fp32" mode rounds products to bf16 under the default
    # bf16 product model, docs/trnblas-sim.md), so the host bound with u = 2^-24 applies
    w, v = ts.eigh(a, backend="sim", method=method, mode="compensated")
    a2 = np.linalg.norm(a.astype(np.float64), 2)
    assert np.abs(w - np.linalg.eigvalsh(a.astype(np.float64))).max() <= C * n * U[np.float32] * a2
    wj, vj, res = ts.eigh_jacobi(a, backend="sim")
    assert res.converged and res.cost is not None


def test_eigh_generalized():
    n = 15
    a = rand((n, n))
    a = a + a.T
    b = spd(n, seed=4)
    w, x = ts.eigh_generalized(a, b)
    wr = sl.eigh(a, b, eigvals_only=True)
    bound = C * n * U[np.float64] * np.linalg.norm(np.linalg.inv(b), 2) * np.linalg.norm(a, 2)
    assert np.abs(w - wr).max() <= bound
    assert np.linalg.norm(x.T @ b @ x - np.eye(n)) <= C * n * U[np.float64] * np.linalg.cond(b) * 10
    with pytest.raises(trncore.InvalidArgument, match="positive definite"):
        ts.eigh_generalized(a, -b)


def test_ldlt():
    n = 19
    a = rand((n, n))
    a = a + a.T  # indefinite
    for uplo in ("lower", "upper"):
        f, piv, info = ts.sytrf(a, uplo)
        assert info == 0
        b = rand((n, 2), seed=5)
        x = ts.sytrs(f, piv, b, uplo)
        # backward stable (Higham Thm 11.3) with modest growth on random data
        assert np.linalg.norm(b - a @ x) / (np.linalg.norm(a) * np.linalg.norm(x)) <= C * n * U[np.float64] * 10
        assert np.allclose(x, np.linalg.solve(a, b), rtol=1e-8 * np.linalg.cond(a))


def test_schur():
    n = 21
    a = rand((n, n))
    t, z, w = ts.schur(a, return_eigenvalues=True)
    assert np.linalg.norm(z @ t @ z.T - a) <= C * n * U[np.float64] * np.linalg.norm(a, 2) * np.sqrt(n)
    assert np.allclose(np.tril(t, -2), 0)
    assert np.allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(a)), atol=1e-10 * np.linalg.norm(a))
    ts2, zs = sl.schur(a, output="real")
    assert np.allclose(np.sort(np.diag(t)), np.sort(np.diag(ts2)), atol=1e-10 * np.linalg.norm(a))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lstsq_gels(dtype):
    a = rand((30, 6), dtype)
    b = rand((30,), dtype, 1)
    x, res, rank, s = ts.lstsq(a, b)
    xr, resr, rankr, sr = np.linalg.lstsq(a.astype(np.float64), b.astype(np.float64), rcond=None)
    kappa = sr[0] / sr[-1]
    # LS conditioning: ‖Δx‖/‖x‖ ≲ c·m·n·u·(κ + κ²‖r‖/(‖A‖‖x‖)) (Higham Thm 20.1)
    tol = C * 30 * 6 * U[dtype] * (kappa + kappa ** 2 * np.sqrt(resr[0]) / (sr[0] * np.linalg.norm(xr)))
    assert np.linalg.norm(x - xr) <= tol * np.linalg.norm(xr)
    assert rank == rankr and np.allclose(s, sr, rtol=C * 30 * U[dtype] * kappa)
    assert np.allclose(res, resr, rtol=tol * 10)
    xq, _, rq, sq = ts.lstsq(a, b, method="qr")
    assert sq.size == 0 and np.linalg.norm(xq - xr) <= tol * np.linalg.norm(xr)
    xg, info = ts.gels(a, b)
    assert info == 0 and np.linalg.norm(xg - xr) <= tol * np.linalg.norm(xr)
    # underdetermined: minimum-norm solution
    xu, info = ts.gels(a.T.copy(), rand((6,), dtype, 2))
    assert xu.shape == (30,)
    assert np.allclose(xu, np.linalg.lstsq(a.T.astype(np.float64), rand((6,), dtype, 2).astype(np.float64),
                                           rcond=None)[0], atol=tol * 10)


def test_rank_deficient_lstsq():
    a = rand((10, 3))
    a = np.hstack([a, a[:, :1]])
    x, res, rank, s = ts.lstsq(a, np.ones(10))
    assert rank == 3 and res.size == 0
    assert np.allclose(x, np.linalg.lstsq(a, np.ones(10), rcond=None)[0])
    a[:, 3] = 0.0  # an exactly zero column: R(3, 3) = 0 exactly, gels reports info > 0
    with pytest.raises(trncore.InvalidArgument, match="trnsolver.lstsq"):
        ts.lstsq(a, np.ones(10), method="qr")


@pytest.mark.parametrize("method", ["eigh", "newton_schulz"])
def test_inv_sqrt(method):
    n = 20
    a = spd(n)
    x, rep = ts.inv_sqrt_spd(a, method=method, report=True)
    w, v = np.linalg.eigh(a)
    xr = (v / np.sqrt(w)) @ v.T
    # ‖X̂ − X‖/‖X‖ ≲ p(n)·u·κ₂(A)/2
    assert np.linalg.norm(x - xr) <= C * n * U[np.float64] * np.linalg.cond(a) * np.linalg.norm(xr)
    assert isinstance(rep, ts.InvSqrtReport) and rep.info == 0 and rep.converged and not rep.certified
    assert rep.residual == pytest.approx(np.linalg.norm(x @ a @ x - np.eye(n)) / np.sqrt(n), rel=0.5, abs=1e-14)
    xn, iters, residual = ts.inv_sqrt_spd_ns(a)
    assert iters >= 1 and residual < 1e-6
    assert np.linalg.norm(xn - xr) <= 1e-6 * np.linalg.norm(xr)


def test_no_copy_and_layouts():
    # Fortran-ordered and strided inputs give the same results as C-ordered ones; the input is never modified.
    a = spd(12)
    af = np.asfortranarray(a)
    before = af.copy()
    assert np.allclose(ts.cholesky(af), ts.cholesky(a))
    assert np.array_equal(af, before)
    big = rand((24, 24))
    view = big[::2, ::2]
    assert np.allclose(ts.svd(view, compute_uv=False), np.linalg.svd(view, compute_uv=False))


def test_set_backend():
    a = spd(8, np.float32)
    try:
        ts.set_backend("nki")
        assert ts.get_backend() == "sim"
        with pytest.raises(trncore.NotSupported):
            ts.cholesky(a.astype(np.float64))  # float64 on sim
        assert ts.cholesky(a).dtype == np.float32
        with pytest.raises(trncore.InvalidArgument, match="set_backend"):
            ts.set_backend("gpu")
    finally:
        ts.set_backend("auto")
    assert ts.get_backend() == "host" and ts.HAS_NKI is False


def test_threads_identical_dense():
    import threading
    mats = [spd(60, seed=k) for k in range(4)]
    seq = [ts.eigh(m)[0] for m in mats]
    out = [None] * 4

    def work(k):
        out[k] = ts.eigh(mats[k])[0]

    th = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    assert all(np.array_equal(out[k], seq[k]) for k in range(4))


def test_refcount_leak_dense():
    import sys
    import tracemalloc
    a = spd(4)
    ra = sys.getrefcount(a)
    for _ in range(100):
        ts.cholesky(a)
    tracemalloc.start()
    snap = tracemalloc.take_snapshot()
    for _ in range(10000):
        ts.cholesky(a)
        ts.svd(a)
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(snap, "filename"))
    tracemalloc.stop()
    assert sys.getrefcount(a) == ra and grown < 1 << 20
