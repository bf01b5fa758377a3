"""Krylov solvers over LinearOperator / dense / scipy.sparse / callables, against scipy.sparse.linalg.

Stopping test: ‖b − A x‖₂ ≤ max(rtol·‖b‖₂, atol) on the TRUE residual, so every converged result is checked
by recomputing the residual here; solutions are compared with scipy's within κ·rtol (error ≤ κ·residual).
"""
import signal
import sys
import threading
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spl

import trncore
import trnsolver as ts


def poisson(n):
    return sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1], format="csr")


def spd(n, seed=0):
    a = np.random.default_rng(seed).standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


def relres(a, x, b):
    return np.linalg.norm(b - a @ x) / np.linalg.norm(b)


@pytest.mark.parametrize("form", ["dense", "f32", "operator", "sparse", "scipy_op", "callable"])
def test_cg_forms(form):
    n = 64
    a = spd(n)
    b = np.random.default_rng(1).standard_normal(n)
    A = {"dense": a, "f32": a.astype(np.float32), "operator": ts.LinearOperator(a), "sparse": sp.csr_matrix(a),
         "scipy_op": spl.aslinearoperator(a), "callable": ts.LinearOperator(lambda v: a @ v, n)}[form]
    bb = b.astype(np.float32) if form == "f32" else b
    x, it, rr = ts.cg(A, bb, tol=1e-6 if form == "f32" else 1e-10, maxiter=500)
    assert x.dtype == (np.float32 if form == "f32" else np.float64)
    assert rr <= (1e-6 if form == "f32" else 1e-10) and it > 0
    assert relres(a, x.astype(np.float64), b) <= (2e-6 if form == "f32" else 1.01e-10)
    xs, info = spl.cg(a, b, tol=1e-12, atol=0.0)
    assert np.linalg.norm(x - xs) <= np.linalg.cond(a) * (rr + 1e-12) * np.linalg.norm(xs) * 2


@pytest.mark.parametrize("solver", ["gmres", "bicgstab"])
def test_nonsymmetric(solver):
    n = 50
    rng = np.random.default_rng(2)
    a = spd(n) + 5 * rng.standard_normal((n, n))
    b = rng.standard_normal(n)
    x, res = getattr(ts, solver)(a, b, tol=1e-10, report=True)
    assert isinstance(res, ts.KrylovResult) and res.converged and res.reason == "converged"
    assert relres(a, x, b) <= 1e-10 * 1.01
    assert res.relative_residual == pytest.approx(relres(a, x, b), rel=1e-6)
    assert len(res.residual_history) == res.iterations + 1
    assert np.allclose(x, np.linalg.solve(a, b), rtol=0, atol=np.linalg.cond(a) * 1e-10 * np.linalg.norm(x))


def test_gmres_restart_and_options():
    a = poisson(100)
    b = np.ones(100)
    x, res = ts.gmres(a, b, tol=1e-8, restart=10, maxiter=5000, report=True, orthogonalization="cgs2")
    assert res.converged and res.restarts > 0
    opts = ts.KrylovOptions(rtol=1e-8, restart=10, max_iterations=5000)
    x2, res2 = ts.gmres(a, b, tol=1e-8, restart=10, maxiter=5000, report=True, options=opts)
    assert np.array_equal(x, ts.gmres(a, b, tol=1e-8, restart=10, maxiter=5000, orthogonalization="cgs2")[0])
    assert res2.converged


def test_upstream_iteration_limits():
    a = poisson(200)
    b = np.ones(200)
    # gmres: maxiter counts restart cycles (upstream), max_iterations inner steps (C++)
    x, res = ts.gmres(a, b, tol=1e-14, maxiter=2, restart=5, report=True)
    assert res.iterations == 10 and not res.converged and res.reason == "max_iterations"
    x, res = ts.gmres(a, b, tol=1e-14, max_iterations=7, restart=5, report=True)
    assert res.iterations == 7
    x, it, rr = ts.cg(a, b, max_iterations=3)
    assert it == 3
    # options= keeps its own rtol (no upstream default over it); keywords beside it override
    b = np.random.default_rng(7).standard_normal(200)
    _, res = ts.cg(a, b, options=ts.KrylovOptions(rtol=1e-2), report=True)
    assert res.converged and res.relative_residual > 1e-6
    _, res = ts.cg(a, b, options=ts.KrylovOptions(rtol=1e-2), rtol=1e-10, report=True)
    assert res.relative_residual <= 1e-10


def test_operator_uses_array_without_copy():
    a = spd(10)
    op = ts.LinearOperator(a)
    x = np.ones(10)
    y0 = op(x)
    assert np.allclose(y0, a @ x)
    a[0, 0] += 1.0  # the operator refers to the caller's memory (no copy for float64 C/F-ordered arrays)
    assert op(x)[0] == pytest.approx(y0[0] + 1.0)
    f = np.asfortranarray(spd(10, 1))
    opf = ts.LinearOperator(f)
    f[3, 2] = 100.0
    assert opf(x)[3] == pytest.approx((f @ x)[3])
    assert op.shape == (10, 10) and op.dtype == np.float64 and op.size == 10
    assert ts.LinearOperatorF32(a.astype(np.float32)).dtype == np.float32
    assert "LinearOperator" in repr(op)


def test_minres_indefinite():
    n = 40
    rng = np.random.default_rng(3)
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    a = (q * np.linspace(-3, 5, n)) @ q.T
    b = rng.standard_normal(n)
    x, res = ts.minres(a, b, tol=1e-10, report=True)
    assert res.converged and relres(a, x, b) <= 1.01e-10


def test_chebyshev_richardson_lanczos_power():
    a = spd(30)
    b = np.ones(30)
    bounds = ts.lanczos_bounds(a, 30)
    w = np.linalg.eigvalsh(a)
    # the Ritz interval widened by the Ritz residuals contains the spectrum
    assert bounds.lambda_min <= w[0] * (1 + 1e-12) and bounds.lambda_max >= w[-1] * (1 - 1e-12)
    x, res = ts.chebyshev(a, b, bounds, tol=1e-10, report=True)
    assert res.converged and relres(a, x, b) <= 1.01e-10
    lo, hi = bounds
    x, res = ts.richardson(a, b, 2.0 / (lo + hi), tol=1e-8, report=True)
    assert res.converged and relres(a, x, b) <= 1.01e-8
    (lam, v), res = ts.power_iteration(a, rtol=1e-12, max_iterations=10000, report=True)
    # |λ − λ_true| ≤ ‖Av − λv‖²/gap (Parlett Thm 11.7.1)
    gap = w[-1] - w[-2]
    r = np.linalg.norm(a @ v - lam * v)
    assert abs(lam - w[-1]) <= r * r / gap + 1e-12 * w[-1]


def test_preconditioners():
    a = poisson(80).toarray() + np.diag(np.linspace(0, 50, 80))
    b = np.ones(80)
    _, it0, _ = ts.cg(a, b, tol=1e-10)
    for m in (ts.jacobi_preconditioner(a), ts.block_jacobi_preconditioner(a, 8), ts.ssor_preconditioner(a, 1.2)):
        assert isinstance(m, ts.LinearOperator)
        z = m(np.ones(80))
        assert z.shape == (80,)
        x, it, rr = ts.cg(a, b, tol=1e-10, M=m)
        assert rr <= 1e-10 and relres(a, x, b) <= 1.01e-10 and it <= it0
    jac = ts.jacobi_preconditioner(a)
    assert np.allclose(jac(b), b / np.diag(a))
    # a Python callable preconditioner (upstream style)
    x, it, rr = ts.cg(a, b, tol=1e-10, M=lambda r: r / np.diag(a))
    assert rr <= 1e-10
    assert ts.jacobi_preconditioner(a.astype(np.float32)).dtype == np.float32


def test_bf16_models():
    n = 32
    a = spd(n) / n
    b = np.ones(n)
    x, res = ts.cg_bf16(a, b, tol=1e-2, report=True, rounding="stochastic", seed=3)
    assert len(res.true_residual_history) == res.iterations + 1
    assert relres(a, x, b) == pytest.approx(res.relative_residual, rel=1e-6)
    x2, _ = ts.cg_bf16(a, b, tol=1e-2, report=True, rounding="stochastic", seed=3, backend="sim")
    assert np.array_equal(x, x2)  # bitwise reproducible
    x, res = ts.richardson_bf16(a, b, 0.5, tol=1e-2, maxiter=200, report=True)
    assert res.iterations > 0


def test_arnoldi():
    a = spd(20)
    v, h = ts.arnoldi(a, np.ones(20), 6)
    assert v.shape == (20, 7) and h.shape == (7, 6)
    assert np.linalg.norm(a @ v[:, :6] - v @ h) <= 1e-12 * np.linalg.norm(a)
    assert np.linalg.norm(v.T @ v - np.eye(7)) <= 1e-12 * 20


def test_monitor_sees_iterations_and_stops():
    a = poisson(200)
    b = np.ones(200)
    seen = []

    def monitor(p):
        seen.append((p.iteration, p.residual, p.routine))
        return p.iteration >= 5

    x, res = ts.cg(a, b, tol=1e-12, monitor=monitor, report=True)
    its = [s[0] for s in seen]
    assert its == sorted(its) and its[0] == 1 and its[-1] == 5
    assert res.stopped_by_monitor and res.reason == "stopped_by_monitor" and res.iterations == 5
    assert "cg" in seen[0][2]


@pytest.mark.parametrize("solver", ["cg", "gmres"])
def test_ctrl_c(solver):
    a = poisson(2000)  # κ ≈ 1.6e6: thousands of iterations
    b = np.ones(2000)
    calls = []

    def monitor(p):
        calls.append(p.iteration)
        if p.iteration == 3:
            signal.raise_signal(signal.SIGINT)
        return False

    with pytest.raises(KeyboardInterrupt):
        getattr(ts, solver)(a, b, tol=1e-14, maxiter=100000, monitor=monitor)
    assert 3 <= calls[-1] <= 4  # stopped at the next iteration


def test_callable_exception_propagates():
    def bad(v):
        raise ZeroDivisionError("boom")

    with pytest.raises(ZeroDivisionError, match="boom"):
        ts.cg(ts.LinearOperator(bad, 5), np.ones(5))
    with pytest.raises(trncore.DimensionMismatch, match="trnsolver.LinearOperator"):
        ts.cg(ts.LinearOperator(lambda v: np.ones(3), 5), np.ones(5))
    with pytest.raises(trncore.DimensionMismatch, match="trnsolver.cg"):
        ts.cg(lambda v: np.ones(3), np.ones(5))


def test_threads_identical():
    a = spd(300)
    bs = [np.random.default_rng(k).standard_normal(300) for k in range(4)]
    seq = [ts.cg(a, b, tol=1e-10)[0] for b in bs]
    op = ts.LinearOperator(lambda v: a @ v, 300)
    seq_py = [ts.gmres(op, b, tol=1e-10)[0] for b in bs]
    out, out_py = [None] * 4, [None] * 4

    def work(k):
        out[k] = ts.cg(a, bs[k], tol=1e-10)[0]
        out_py[k] = ts.gmres(op, bs[k], tol=1e-10)[0]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        assert np.array_equal(out[k], seq[k]) and np.array_equal(out_py[k], seq_py[k])


def test_refcount_and_leak():
    a = spd(8)
    b = np.ones(8)
    op = ts.LinearOperator(lambda v: a @ v, 8)
    ra, rb, rop = sys.getrefcount(a), sys.getrefcount(b), sys.getrefcount(op)
    for _ in range(200):  # warm up caches
        ts.cg(a, b)
    tracemalloc.start()
    snap = tracemalloc.take_snapshot()
    for _ in range(10000):
        ts.cg(a, b, tol=1e-8)
    for _ in range(2000):
        ts.cg(op, b, tol=1e-8)
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(snap, "filename"))
    tracemalloc.stop()
    assert sys.getrefcount(a) == ra and sys.getrefcount(b) == rb and sys.getrefcount(op) == rop
    assert grown < 1 << 20


@pytest.mark.parametrize("solver", ["cg", "gmres", "bicgstab", "minres"])
def test_sizes_0_1(solver):
    x, it, rr = getattr(ts, solver)(np.array([[4.0]]), np.array([2.0]))
    assert x == pytest.approx([0.5], rel=1e-15) and rr <= 1e-15
    x, it, rr = getattr(ts, solver)(np.zeros((0, 0)), np.zeros(0))
    assert x.shape == (0,) and it == 0
