"""Upstream-shaped iterative methods (trnsparse v0.6 ``iterative``) over the C++ solvers.

cg_bsr, chebyshev_bsr, richardson_bsr and power_iteration_bsr keep upstream's signatures and return tuples,
but run trnsolver's solvers on the sparse operator (trnsparse::cg, ...) instead of a Python loop: the
arithmetic, stopping test (true residual ‖b − Ax‖/‖b‖) and iterates are the C++ ones. They take any CSR-like
matrix as well as BSRMatrix. trnsci's forms are trnsparse.cg / chebyshev / richardson / power_iteration, which
take the KrylovOptions keywords and return trnsolver.KrylovResult with report=True (as trnsolver does).
"""

from __future__ import annotations

import numpy as np

from . import _trnsparse as _ext
from .formats import _dense, _error, _scalar, as_sparse


def bsr_diagonal(A):
    """The main diagonal of A (upstream name; trnsparse::diagonal, any CSR-like or BSR matrix)."""
    return _ext.diagonal(A)


def jacobi_preconditioner_bsr(A):
    """Jacobi preconditioner of A as a callable r -> r / diag(A) (upstream name): jacobi_preconditioner(A), a
    trnsolver.LinearOperator, applied in C++ when passed as M. Differs from upstream: a zero or non-finite
    diagonal entry raises trncore.InvalidArgument naming its index (upstream: ValueError for |d| < 1e-15)."""
    return _ext.jacobi_preconditioner(A)


def cg_bsr(A, b, x0=None, tol=1e-6, max_iter=1000, M=None, **kw):
    """Conjugate gradients, upstream shape: returns (x, iters, rel_res), rel_res = ‖b − Ax‖/‖b‖ of x.

    Runs trnsparse.cg with rtol=tol, max_iterations=max_iter (max_iter=0 returns x0 untouched). Upstream
    tested the updated residual; here convergence is confirmed on the true residual. M: None, 'jacobi', a
    callable, a trnsolver.LinearOperator (jacobi_preconditioner_bsr(A)) or a dense M⁻¹. Further keywords (threads, monitor, atol, ...) pass
    through to trnsparse.cg.
    """
    max_iter = _scalar(max_iter, int, "trnsparse.cg_bsr", "max_iter")
    if max_iter <= 0:
        return _no_iterations(A, b, x0, "trnsparse.cg_bsr")
    return _ext.cg(A, b, x0, M, rtol=_scalar(tol, float, "trnsparse.cg_bsr", "tol"), max_iterations=max_iter, **kw)


def chebyshev_coeffs(lam_min, lam_max, K):
    """Step coefficients of the Chebyshev iteration on [lam_min, lam_max] (Saad, Alg. 12.1):

    x_{k+1} = x_k + d_k,  d_k = alpha[k]·r_k + beta[k]·d_{k−1},  r_k = b − A x_k,
    with θ = (λmax+λmin)/2, δ = (λmax−λmin)/2, σ = θ/δ, ρ_0 = 1/σ, ρ_k = 1/(2σ − ρ_{k−1}):
    alpha[0] = 1/θ, beta[0] = 0, alpha[k] = 2ρ_k/δ, beta[k] = ρ_k·ρ_{k−1}.
    Returns (alpha, beta), float64 arrays of length K. Raises trncore.InvalidArgument unless
    0 < lam_min < lam_max (finite) and K ≥ 0.
    """
    import trncore

    fn = "trnsparse.chebyshev_coeffs"
    lo, hi, K = _scalar(lam_min, float, fn, "lam_min"), _scalar(lam_max, float, fn, "lam_max"), _scalar(K, int, fn, "K")
    if not (np.isfinite(lo) and np.isfinite(hi) and 0 < lo < hi) or K < 0:
        raise _error(trncore.InvalidArgument,
            f"trnsparse.chebyshev_coeffs: need 0 < lam_min < lam_max finite and K >= 0, got "
            f"lam_min={lo}, lam_max={hi}, K={K}: pass bounds of an SPD spectrum (lanczos_bounds)")
    theta, delta = (hi + lo) / 2, (hi - lo) / 2
    sigma = theta / delta
    alpha, beta = np.zeros(K), np.zeros(K)
    rho = 1.0 / sigma
    for k in range(K):
        if k == 0:
            alpha[0] = 1.0 / theta
        else:
            rho_new = 1.0 / (2 * sigma - rho)
            alpha[k] = 2 * rho_new / delta
            beta[k] = rho_new * rho
            rho = rho_new
    return alpha, beta


def _no_iterations(A, b, x0, fn):
    """(x0 or zeros, 0, ‖b − A x‖/‖b‖) for a zero iteration budget, with the arguments checked."""
    import trncore

    b = np.asarray(b)
    if b.ndim != 1 or b.dtype.kind not in "fiub":
        raise _error(trncore.InvalidArgument, f"{fn}: b (dtype {b.dtype}, shape {b.shape}) is not a 1-D real array: "
                     "pass one value per row of A")
    A = as_sparse(A)
    shape = getattr(A, "shape", None)
    if shape is not None and tuple(shape) != (b.shape[0], b.shape[0]):
        raise _error(trncore.DimensionMismatch, f"{fn}: A has shape {tuple(shape)} but b has {b.shape[0]} entries: "
                     "pass a square A with one entry of b per row")
    dtype = np.result_type(getattr(A, "dtype", np.float64), b.dtype, np.float32)
    x = np.zeros(b.shape[0], dtype=dtype) if x0 is None else _dense(x0, fn, "x0").astype(dtype)
    r = b - _ext.spmv(A, x)  # checks A and the sizes
    nb = np.linalg.norm(b)
    return x, 0, 0.0 if nb == 0 else float(np.linalg.norm(r) / nb)


def chebyshev_bsr(A, b, lam_min, lam_max, K=50, x0=None, **kw):
    """Chebyshev iteration, upstream shape: exactly K steps (fewer only if the residual reaches 0 exactly);
    returns (x, K_done, rel_res). trnsparse.chebyshev with rtol=0, atol=0, max_iterations=K,
    stagnation_window=0. When [lam_min, lam_max] holds the spectrum, ‖r_K‖ ≤ ‖r_0‖/T_K(σ)."""
    K = _scalar(K, int, "trnsparse.chebyshev_bsr", "K")
    if K <= 0:
        return _no_iterations(A, b, x0, "trnsparse.chebyshev_bsr")
    kw.setdefault("rtol", 0.0)
    kw.setdefault("stagnation_window", 0)
    return _ext.chebyshev(A, b, lam_min, lam_max, x0, None, max_iterations=K, **kw)


def richardson_bsr(A, b, omega, K=100, x0=None, **kw):
    """Richardson iteration x ← x + ω(b − Ax), upstream shape: K steps, returns (x, K_done, rel_res)
    (trnsparse.richardson with rtol=0, max_iterations=K, stagnation_window=0)."""
    K = _scalar(K, int, "trnsparse.richardson_bsr", "K")
    if K <= 0:
        return _no_iterations(A, b, x0, "trnsparse.richardson_bsr")
    kw.setdefault("rtol", 0.0)
    kw.setdefault("stagnation_window", 0)
    return _ext.richardson(A, b, omega, x0, None, max_iterations=K, **kw)


def power_iteration_bsr(A, v0=None, max_iter=100, tol=1e-9, **kw):
    """Dominant eigenpair, upstream shape: returns (lam, v, iters). trnsparse.power_iteration with
    rtol=tol, max_iterations=max_iter. Differs from upstream: converged when ‖Av − λv‖ ≤ tol·|λ| (upstream:
    |λ_k − λ_{k−1}| < tol), and v0=None draws a standard normal start from seed= (default 0) instead of
    torch's global generator."""
    fn = "trnsparse.power_iteration_bsr"
    tol, max_iter = _scalar(tol, float, fn, "tol"), _scalar(max_iter, int, fn, "max_iter")
    (lam, v), r = _ext.power_iteration(A, v0, rtol=tol, max_iterations=max(max_iter, 1), report=True,
                                       **kw)
    return float(lam), v, int(r.iterations)
