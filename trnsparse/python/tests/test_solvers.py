"""trnsparse iterative (trnsolver's Krylov stack on the sparse operator) and direct (SuiteSparse) solvers
against scipy.sparse.linalg (spsolve, cg, eigsh) and NumPy on the same data.

Error bounds used: for SPD A, ‖x − x*‖₂ ≤ ‖b − Ax‖₂/λ_min (λ_min from numpy.linalg.eigvalsh); for a symmetric A
and unit v, |λ − λ_true| ≤ ‖Av − λv‖₂ (Bauer–Fike); Richardson at ω = 2/(λmin+λmax): r_k = (I − ωA)^k r_0 so
‖r_k‖ ≤ ((κ−1)/(κ+1))^k ‖r_0‖; Chebyshev on the exact interval: ‖r_k‖ ≤ ‖r_0‖/T_k(σ); direct solvers:
normwise backward error ≤ 2γ_{3n+1} (docs/trnsparse.md, as the C++ tests).
"""
import threading
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import trncore
import trnsolver
import trnsparse as ts

POISSON = Path(__file__).resolve().parents[2] / "share" / "poisson2d_32.mtx"


@pytest.fixture(scope="module")
def poisson():
    A = ts.read_matrix_market(POISSON).to_csr()
    S = A.to_scipy()
    lam = np.linalg.eigvalsh(S.toarray())
    return A, S, lam[0], lam[-1]


def test_cg_against_spsolve_and_scipy_cg(poisson):
    A, S, lmin, _ = poisson
    b = np.random.default_rng(1).standard_normal(S.shape[0])
    x, iters, rel = ts.cg(A, b, rtol=1e-10)
    r = b - S @ x
    assert rel == pytest.approx(np.linalg.norm(r) / np.linalg.norm(b), rel=1e-6) and rel <= 1e-10
    x_ref = spla.spsolve(S.tocsc(), b)
    assert np.linalg.norm(x - x_ref) <= np.linalg.norm(r) / lmin + 1e-12 * np.linalg.norm(x_ref)
    x_sc, info = spla.cg(S, b, tol=1e-10, maxiter=10 * S.shape[0], atol=0.0)  # Debian scipy 1.10: tol
    assert info == 0 and np.linalg.norm(x - x_sc) <= 2e-10 * np.linalg.norm(b) / lmin
    # report=True: trnsolver's KrylovResult (trnsparse registers none of trnsolver's types)
    x2, res = ts.cg(A, b, rtol=1e-10, report=True)
    assert isinstance(res, trnsolver.KrylovResult) and res.converged and res.reason == "converged"
    assert res.iterations == iters and len(res.residual_history) == iters + 1 and np.array_equal(x, x2)
    # BSR operator: same method, the product summed per block
    xb, _, relb = ts.cg(A.to_bsr(64), b, rtol=1e-10)
    assert relb <= 1e-10 and np.linalg.norm(xb - x_ref) <= 2e-10 * np.linalg.norm(b) / lmin
    # float32
    A32 = ts.read_matrix_market(POISSON, dtype=np.float32).to_csr()
    x32, _, rel32 = ts.cg(A32, b.astype(np.float32), rtol=1e-5)
    assert x32.dtype == np.float32 and rel32 <= 1e-5
    assert ts.cg(A, b.astype(np.float32))[0].dtype == np.float64  # float64 A with float32 b: NumPy promotion


def test_preconditioners_agree(poisson):
    A, S, _, _ = poisson
    b = np.ones(S.shape[0])
    _, it_plain, _ = ts.cg(A, b, rtol=1e-10)
    xj, it_j, _ = ts.cg(A, b, M="jacobi", rtol=1e-10)
    M = ts.jacobi_preconditioner(A)
    assert isinstance(M, trnsolver.LinearOperator) and M.size == S.shape[0]
    assert np.array_equal(M(b), b / S.diagonal())
    xo, it_o, _ = ts.cg(A, b, M=M, rtol=1e-10)
    xc, it_c, _ = ts.cg(A, b, M=lambda r: r / S.diagonal(), rtol=1e-10)
    xd, it_d, _ = ts.cg(A, b, M=np.diag(1 / S.diagonal()), rtol=1e-10)
    xl, it_l, _ = ts.cg(A, b, M=trnsolver.LinearOperator(np.diag(1 / S.diagonal())), rtol=1e-10)
    assert np.array_equal(xj, xo) and it_j == it_o == it_c == it_d == it_l
    assert np.allclose(xl, xj, rtol=0, atol=1e-12)
    assert isinstance(ts.jacobi_preconditioner(ts.read_matrix_market(POISSON, dtype=np.float32).to_csr()),
                      trnsolver.LinearOperatorF32)
    assert np.allclose(xc, xj, rtol=0, atol=1e-12) and np.allclose(xd, xj, rtol=0, atol=1e-12)
    assert np.array_equal(ts.jacobi_preconditioner_bsr(A)(b), b / S.diagonal())
    assert np.array_equal(ts.bsr_diagonal(A.to_bsr(128)), S.diagonal())
    with pytest.raises(trncore.InvalidArgument, match="jacobi_preconditioner"):
        ts.jacobi_preconditioner(sp.csr_matrix(np.array([[1.0, 1.0], [1.0, 0.0]])))


def test_monitor_and_stop(poisson):
    A, S, _, _ = poisson
    b = np.ones(S.shape[0])
    seen = []

    def monitor(p):
        seen.append(p.iteration)
        return p.iteration >= 3

    x, res = ts.cg(A, b, rtol=1e-12, monitor=monitor, report=True)
    assert seen == sorted(seen) and seen[-1] == 3 and seen[0] < seen[-1]
    assert res.stopped_by_monitor and res.reason == "stopped_by_monitor" and not res.converged

    def boom(p):
        raise ValueError("stop here")

    with pytest.raises(ValueError, match="stop here"):
        ts.cg(A, b, monitor=boom)


def test_upstream_cg_bsr():
    rng = np.random.default_rng(2)
    n = 128
    M = rng.standard_normal((n, n))
    D = M @ M.T + n * np.eye(n)
    A = ts.BSRMatrix.from_dense(D, block_size=128)
    b = rng.standard_normal(n)
    x, iters, rel = ts.cg_bsr(A, b, tol=1e-8, max_iter=2 * n)
    x_sc, info = spla.cg(D, b, tol=1e-8, maxiter=2 * n, atol=0.0)
    assert info == 0 and rel < 1e-8 and np.allclose(x, x_sc, atol=1e-6)
    xz, itz, relz = ts.cg_bsr(A, b, max_iter=0)  # no iterations: x0 (zeros) and its residual
    assert itz == 0 and relz == 1.0 and np.all(xz == 0)
    xk, itk, relk = ts.chebyshev_bsr(A, b, 1.0, 2.0, K=0, x0=np.ones(n))
    assert itk == 0 and np.all(xk == 1) and relk == pytest.approx(np.linalg.norm(b - D @ xk) / np.linalg.norm(b))
    x0, it0, rel0 = ts.cg_bsr(A, np.zeros(n))
    assert it0 == 0 and rel0 == 0.0 and np.all(x0 == 0)
    xi, iti, reli = ts.cg_bsr(ts.BSRMatrix.from_dense(np.eye(n), 128), b, tol=1e-8)
    assert iti <= 1 and np.allclose(xi, b)


def test_power_iteration_vs_eigsh(poisson):
    A, S, _, lmax = poisson
    (lam, v), res = ts.power_iteration(A, rtol=1e-6, max_iterations=5000, report=True)
    lam_ref = spla.eigsh(S, k=1, which="LA")[0][0]
    assert abs(np.linalg.norm(v) - 1) < 1e-12
    assert abs(lam - lam_ref) <= res.relative_residual * abs(lam) + 1e-12 * lam_ref  # Bauer–Fike
    assert lam_ref == pytest.approx(lmax, rel=1e-12)
    lam2, v2, iters = ts.power_iteration_bsr(A.to_bsr(128), max_iter=5000, tol=1e-6)
    assert iters > 0 and abs(lam2 - lam_ref) <= 1e-5 * lam_ref
    d = np.linspace(0.5, 10.0, 128)
    lam3, v3, it3 = ts.power_iteration_bsr(ts.BSRMatrix.from_dense(np.diag(d), 128), max_iter=500, tol=1e-10)
    (lam4, v4), r4 = ts.power_iteration(sp.diags(d).tocsr(), max_iterations=500,
                                        rtol=1e-10, report=True)
    assert lam3 == lam4 and it3 == r4.iterations  # the upstream wrapper is the same call
    assert abs(lam4 - 10.0) <= r4.relative_residual * abs(lam4) * (1 + 1e-12)  # Bauer–Fike


def test_lanczos_chebyshev_richardson(poisson):
    A, S, lmin, lmax = poisson
    bounds = ts.lanczos_bounds(A, 80)
    assert isinstance(bounds, trnsolver.SpectrumBounds)
    lo, hi = bounds
    assert lo <= lmin and hi >= lmax and hi - lo <= 1.05 * (lmax - lmin)
    b = np.random.default_rng(3).standard_normal(S.shape[0])
    K = 40
    x, k, rel = ts.chebyshev_bsr(A, b, lmin, lmax, K=K)
    sigma = (lmax + lmin) / (lmax - lmin)
    assert k == K and rel <= 1.0 / np.cosh(K * np.arccosh(sigma)) * (1 + 1e-6)
    # the recurrence of chebyshev_coeffs reproduces the C++ iterate
    alpha, beta = ts.chebyshev_coeffs(lmin, lmax, K)
    xr = np.zeros_like(b)
    d = np.zeros_like(b)
    for j in range(K):
        r = b - S @ xr
        d = alpha[j] * r + beta[j] * d
        xr = xr + d
    assert np.linalg.norm(xr - x) <= 1e-10 * np.linalg.norm(x)
    x2, _, rel2 = ts.chebyshev(A, b, lmin, lmax, rtol=1e-8)
    assert rel2 <= 1e-8
    omega = 2 / (lmin + lmax)
    rho = (lmax / lmin - 1) / (lmax / lmin + 1)
    xr2, kk, relr = ts.richardson_bsr(A, b, omega, K=50)
    assert kk == 50 and relr <= rho ** 50 * (1 + 1e-6)
    _, _, relr3 = ts.richardson(A, b, omega, rtol=1e-3)
    assert relr3 <= 1e-3
    with pytest.raises(trncore.InvalidArgument, match="chebyshev_coeffs"):
        ts.chebyshev_coeffs(2.0, 1.0, 5)


def test_direct_solvers_vs_spsolve(poisson):
    A, S, _, _ = poisson
    n = S.shape[0]
    rng = np.random.default_rng(4)
    B = rng.standard_normal((n, 3))
    u = np.finfo(np.float64).eps / 2
    bound = 2 * (3 * n + 1) * u / (1 - (3 * n + 1) * u)
    normA = spla.norm(S, np.inf)

    def backward(X, Bm):
        return np.max(np.abs(Bm - S @ X)) / (normA * np.max(np.abs(X)) + np.max(np.abs(Bm)))

    ch = ts.Cholesky(A)
    assert ch.info == 0 and ch.size == n and ch.factor_nonzeros >= S.nnz // 2
    X = ch.solve(B)
    assert X.shape == (n, 3) and backward(X, B) <= bound
    assert np.allclose(X, spla.spsolve(S.tocsc(), B), rtol=0, atol=1e-10)
    lu = ts.Lu(A, "amd")
    x = lu.solve(B[:, 0])
    assert x.shape == (n,) and backward(x, B[:, 0]) <= bound and 0 < lu.rcond_estimate <= 1
    N = sp.random(50, 50, density=0.2, random_state=5, format="csr") + 10 * sp.eye(50)
    xt = ts.Lu(N).solve(B[:50, 0], transpose=True)
    assert np.allclose(xt, spla.spsolve(N.T.tocsc(), B[:50, 0]), rtol=0, atol=1e-12)
    T = sp.random(60, 20, density=0.3, random_state=6, format="csr") + sp.eye(60, 20)
    qr = ts.Qr(T)
    assert qr.rank == 20 and qr.info == 0 and (qr.rows, qr.cols) == (60, 20)
    xq = qr.solve(B[:60, 0])
    assert np.allclose(xq, np.linalg.lstsq(T.toarray(), B[:60, 0], rcond=None)[0], rtol=0, atol=1e-10)
    assert np.allclose(ts.spsolve(N, B[:50, 0]), spla.spsolve(N.tocsc(), B[:50, 0]), rtol=0, atol=1e-12)
    # numerical failure is a result: info > 0, solve raises
    ind = sp.csr_matrix(np.array([[1.0, 2.0], [2.0, 1.0]]))
    c = ts.Cholesky(ind)
    assert c.info > 0
    with pytest.raises(trncore.InvalidArgument, match="info"):
        c.solve(np.ones(2))
    sing = ts.Lu(sp.csr_matrix(np.array([[1.0, 2.0], [2.0, 4.0]])))
    assert sing.info > 0
    ch.refactor(ts.sparse_scale(A, 2.0))
    assert np.allclose(ch.solve(B), X / 2, rtol=0, atol=1e-12)


SMALL = sp.csr_matrix(np.array([[4.0, 1.0], [1.0, 3.0]]))

BAD = [
    ("cg", lambda: ts.cg(SMALL, np.ones(3)), trncore.DimensionMismatch),  # trnsolver::cg checks b
    ("trnsparse.cg", lambda: ts.cg(SMALL, np.ones(2, dtype=complex)), trncore.InvalidArgument),
    ("trnsparse.cg", lambda: ts.cg(SMALL, np.ones(2), x0=np.ones(5)), trncore.DimensionMismatch),
    ("trnsparse.cg", lambda: ts.cg(SMALL, np.ones(2), M="ilu"), trncore.InvalidArgument),
    ("trnsparse.cg", lambda: ts.cg(SMALL, np.ones(2), M=np.ones((3, 3))), trncore.DimensionMismatch),
    ("cg", lambda: ts.cg(SMALL, np.ones(2), backend="sim"), trncore.NotSupported),
    ("cg", lambda: ts.cg(SMALL, np.ones(2), rtol=-1.0), trncore.InvalidArgument),
    ("cg", lambda: ts.cg(sp.csr_matrix(np.ones((2, 3))), np.ones(2)), trncore.DimensionMismatch),
    ("trnsparse.cg", lambda: ts.cg(SMALL, np.ones(2), M=lambda r: np.ones(7)), trncore.DimensionMismatch),
    ("chebyshev", lambda: ts.chebyshev(SMALL, np.ones(2), 2.0, 1.0), trncore.InvalidArgument),
    ("richardson", lambda: ts.richardson(SMALL, np.ones(2), 0.1, max_iterations=-1), trncore.InvalidArgument),
    ("power_iteration", lambda: ts.power_iteration(SMALL, np.zeros(2)), trncore.InvalidArgument),
    ("lanczos_bounds", lambda: ts.lanczos_bounds(SMALL, 0), trncore.InvalidArgument),
    ("trnsparse.lanczos_bounds", lambda: ts.lanczos_bounds(SMALL, 5, "ilu"), trncore.InvalidArgument),
    ("diagonal", lambda: ts.diagonal(np.eye(2)), trncore.InvalidArgument),
    ("trnsparse.Cholesky", lambda: ts.Cholesky(SMALL, "metis"), trncore.InvalidArgument),
    ("Cholesky", lambda: ts.Cholesky(sp.csr_matrix(np.ones((2, 3)))), trncore.Error),
    ("trnsparse.Lu.solve", lambda: ts.Lu(SMALL).solve(np.ones(3)), trncore.DimensionMismatch),
    ("trnsparse.Qr.solve", lambda: ts.Qr(SMALL).solve(np.ones((2, 2, 2))), trncore.DimensionMismatch),
    ("Qr", lambda: ts.Qr(sp.csr_matrix(np.ones((2, 3)))), trncore.InvalidArgument),
    ("spsolve", lambda: ts.spsolve(SMALL, np.ones(2), method="magic"), trncore.InvalidArgument),
    ("cg_bsr", lambda: ts.cg_bsr(SMALL, np.ones(2), tol="x"), trncore.InvalidArgument),
    ("cg_bsr", lambda: ts.cg_bsr(SMALL, np.array(["a", "b"]), max_iter=0), trncore.InvalidArgument),
    ("chebyshev_bsr", lambda: ts.chebyshev_bsr(SMALL, np.ones(2), 1.0, 5.0, K="x"), trncore.InvalidArgument),
    ("richardson_bsr", lambda: ts.richardson_bsr(SMALL, np.ones(3), 0.1, K=0), trncore.DimensionMismatch),
    ("power_iteration_bsr", lambda: ts.power_iteration_bsr(SMALL, tol=None), trncore.InvalidArgument),
    ("chebyshev_coeffs", lambda: ts.chebyshev_coeffs(1.0, 2.0, "x"), trncore.InvalidArgument),
    ("screen_quartets", lambda: ts.screen_quartets(np.ones((2, 2)), -1.0), trncore.InvalidArgument),
    ("density_screen", lambda: ts.density_screen(np.ones((2, 2)), "P"), trncore.InvalidArgument),
    ("sparsity_stats", lambda: ts.sparsity_stats("Q"), trncore.InvalidArgument),
    ("bsr_spmm", lambda: ts.bsr_spmm(np.eye(2), np.ones((2, 2))), trncore.InvalidArgument),
    ("to_bsr", lambda: ts.to_bsr(SMALL, np.ones(3)), trncore.InvalidArgument),
]


@pytest.mark.parametrize("name,call,cls", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_raises(name, call, cls):
    with pytest.raises(cls) as e:
        call()
    assert name in str(e.value)
    assert e.value.function and e.value.problem  # set for glue and library errors alike


@pytest.mark.parametrize("call", [
    lambda: ts.cg(SMALL, np.ones(2), colour=1),
    lambda: ts.chebyshev(SMALL, np.ones(2), 1.0, 5.0, colour=1),
    lambda: ts.richardson(SMALL, np.ones(2), 0.1, colour=1),
    lambda: ts.power_iteration(SMALL, colour=1),
    lambda: ts.lanczos_bounds(SMALL, colour=1),
    lambda: ts.cg_bsr(SMALL, np.ones(2), colour=1),
])
def test_unknown_keyword(call):
    with pytest.raises(TypeError, match="colour"):
        call()


def test_options_object_and_threads_bitwise(poisson):
    A, S, _, _ = poisson
    b = np.ones(S.shape[0])
    x1, it1, _ = ts.cg(A, b, options=trnsolver.KrylovOptions(rtol=1e-9, threads=1))
    x2, it2, _ = ts.cg(A, b, rtol=1e-9, threads=2)
    assert it1 == it2 and np.array_equal(x1, x2)
    out = [None, None]

    def work(i):
        out[i] = ts.cg(A, b, rtol=1e-9)[0]

    th = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    assert np.array_equal(out[0], x1) and np.array_equal(out[1], x1)


def test_ctrl_c_stops_a_long_solve(poisson):
    import os
    import signal
    import time

    A, S, _, _ = poisson
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # rtol = 0 and no stagnation test: Richardson sits at its rounding floor for 10^8 iterations
        # (many minutes) unless interrupted
        ts.richardson(A, np.ones(S.shape[0]), 0.1, rtol=0.0, max_iterations=10 ** 8, stagnation_window=0)
    timer.join()
    assert time.perf_counter() - t0 < 10
