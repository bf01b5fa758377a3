"""trnsolver: dense, certified mixed-precision, iterative and randomized linear algebra (docs/python.md).

The upstream (trnsci/trnsolver v0.9) API on NumPy arrays instead of torch tensors, plus trnsci's certified
solve with reports, Krylov solvers over any LinearOperator, randomized NLA, HPL-MxP and the NeuronCore model
(backend="sim"). The shared types trnsparse relies on are registered here: KrylovResult, KrylovOptions,
SolveReport, InvSqrtReport, HplMxpResult, SpectrumBounds, LinearOperator, LinearOperatorF32.
"""

import functools as _functools

import numpy as _np

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from . import _trnsolver
from ._trnsolver import (HplMxpResult, InvSqrtReport, JacobiResult, KrylovOptions, KrylovResult,
                         LinearOperator, LinearOperatorF32, SolveReport, SpectrumBounds, version)

__version__ = version()

#: Upstream's flag for the NKI kernels; trnsci has no NKI (the NeuronCore is modelled by backend="sim").
HAS_NKI = False

_backend = "host"

# Routines with a sim form: set_backend's default applies to these (the Krylov solvers run on the host only).
_SIM_CAPABLE = ["cholesky", "potrf", "potrs", "lu", "getrf", "getrs", "lange", "gecon", "sytrf", "sytrs", "qr",
                "geqrf", "svd", "pinv", "eigh", "syevd", "eigh_generalized", "eigh_jacobi", "schur", "_lstsq",
                "gels", "inv_sqrt_spd", "inv_sqrt_spd_ns", "solve", "hpl_mxp", "rsvd", "rsvd_adaptive", "nystrom",
                "eigh_randomized", "hutchinson", "hutch_plus_plus", "diagonal_estimate", "lstsq_sketched",
                "sketch_right", "sketch_left", "_rayleigh_ritz_sketched"]
_HOST_ONLY = ["orgqr", "cg", "gmres", "bicgstab", "minres", "chebyshev", "richardson", "cg_bf16",
              "richardson_bf16", "power_iteration", "lanczos_bounds", "arnoldi", "jacobi_preconditioner",
              "block_jacobi_preconditioner", "ssor_preconditioner", "sketch_matrix"]


def set_backend(backend):
    """Set the default backend of the routines that have a sim form (upstream set_backend).

    "host", "auto" and "pytorch" select the host (LAPACK/OpenBLAS); "sim" and "nki" select the NeuronCore model
    (trnsci has no NKI: HAS_NKI is False, and "nki" maps to backend="sim", float32 data). An explicit backend= or
    options= keyword still wins. The Krylov solvers, preconditioners and orgqr always run on the host.
    Raises trncore.InvalidArgument for another name.
    """
    global _backend
    names = {"host": "host", "auto": "host", "pytorch": "host", "sim": "sim", "nki": "sim"}
    if backend not in names:
        raise trncore.InvalidArgument(
            "trnsolver.set_backend: backend=%r: use 'host', 'auto', 'pytorch', 'sim' or 'nki'" % (backend,))
    _backend = names[backend]


def get_backend():
    """The default backend set by set_backend: "host" or "sim"."""
    return _backend


def _with_default_backend(f):
    @_functools.wraps(f)
    def wrapper(*args, **kwargs):
        if _backend != "host" and "backend" not in kwargs and "options" not in kwargs:
            kwargs["backend"] = _backend
        return f(*args, **kwargs)
    return wrapper


for _name in _SIM_CAPABLE:
    globals()[_name] = _with_default_backend(getattr(_trnsolver, _name))
for _name in _HOST_ONLY:
    globals()[_name] = getattr(_trnsolver, _name)


def lstsq(A, B, rcond=None, *, method="svd", **kwargs):
    """Least-squares solution of A X = B as numpy.linalg.lstsq: (x, residuals, rank, s).

    Thin Python over trnsolver::lstsq (bound as _lstsq): method "svd" (gelsd, any rank, minimum-norm, rcond: singular
    values ≤ rcond·s_max dropped; None = max(m, n)·ε) or "qr" (gels, full rank; s is then empty). residuals are the
    squared column norms of B − A x when rank == n < m (computed here in NumPy, in the data's precision), else
    empty, as NumPy. Not in upstream. Keywords as the dense routines (backend, mode, threads). Raises
    trncore.InvalidArgument (rank deficient with method="qr", non-finite data), DimensionMismatch (shapes).
    Accuracy: backward stable (gelsd/gels: relative backward error c·m·n·u, Higham Thm 20.3).
    """
    x, rank, s = globals()["_lstsq"](A, B, rcond, method, **kwargs)
    a = _np.asarray(A)
    m, n = a.shape
    if rank == n and m > n:
        r = _np.asarray(B, dtype=x.dtype) - a.astype(x.dtype) @ x
        residuals = _np.atleast_1d(_np.sum(r * r, axis=0))
    else:
        residuals = _np.empty((0,), dtype=x.dtype)
    return x, residuals, rank, s


def rayleigh_ritz_sketched(A, basis, sketch_rows, rank_tolerance=1e-12, *, report=False, **kwargs):
    """Ritz pairs of the square A on range(basis) by sketched Rayleigh–Ritz (trnsolver::rayleigh_ritz_sketched,
    Nakatsukasa & Tropp 2024 §6): returns (w, X, residuals) with w complex (descending modulus, conjugate pairs
    adjacent), X n×rank complex with unit columns (converted here from LAPACK geev's paired real columns) and
    residuals[j] = ‖A x_j − w_j x_j‖₂. report=True returns ((w, X, residuals), {rank, matvecs, info}). Not in upstream.

    A: a dense float32/float64 matrix, scipy.sparse matrix or scipy.sparse.linalg.LinearOperator; basis n×d (any
    conditioning); sketch_rows ≥ d. Keywords: sketch ("sparse_sign" default), seed, stream, backend, mode,
    threads. Accuracy: the sketched residual is within (1+ε)/(1−ε) of the best over range(basis) when the sketch
    embeds range([V, AV]) with distortion ε (NT24 Prop. 6.1); the residuals certify each pair a posteriori.
    Raises trncore.InvalidArgument (sketch_rows < d, rank_tolerance ∉ [0, 1), non-finite data),
    DimensionMismatch (non-square A, basis rows ≠ n).
    """
    values, imag, vectors, residuals, info = globals()["_rayleigh_ritz_sketched"](
        A, basis, sketch_rows, rank_tolerance, **kwargs)
    ctype = _np.complex64 if vectors.dtype == _np.float32 else _np.complex128
    w = (values + 1j * imag).astype(ctype)
    X = vectors.astype(ctype)
    j = 0
    while j < w.size:
        if imag[j] != 0 and j + 1 < w.size:
            re, im = vectors[:, j].copy(), vectors[:, j + 1].copy()
            X[:, j] = re + 1j * im
            X[:, j + 1] = re - 1j * im
            j += 2
        else:
            j += 1
    return ((w, X, residuals), info) if report else (w, X, residuals)


def solve_spd(A, B, iterative_refinement=False, **kwargs):
    """X = A⁻¹B for symmetric positive definite A by Cholesky (upstream solve_spd(A, B, iterative_refinement=False)).

    Thin Python over potrf + potrs (trnsolver::potrf/potrs). iterative_refinement=True adds up to two steps of
    fixed-precision refinement X += potrs(B − A X) with the residual computed in the data's precision (as
    upstream; for a certified solution of a general system use trnsolver.solve(..., report=True)). Raises
    trncore.InvalidArgument when A is not positive definite. Accuracy: (A + ΔA)x̂ = b, |ΔA| ≤ γ_{3n+1}|R̂ᵀ||R̂|
    (Higham Thm 10.4). Keywords: backend, mode, threads.
    """
    potrf, potrs = globals()["potrf"], globals()["potrs"]  # the set_backend-aware wrappers defined above
    factor, info = potrf(A, "lower", **kwargs)
    if info > 0:
        raise trncore.InvalidArgument(
            "trnsolver.solve_spd: the leading minor of order %d of A is not positive definite: pass an SPD matrix "
            "(trnsolver.solve handles general A)" % info)
    X = potrs(factor, B, "lower", **kwargs)
    if iterative_refinement:
        a = _np.asarray(A, dtype=X.dtype)
        b = _np.asarray(B, dtype=X.dtype)
        for _ in range(2):
            X = X + potrs(factor, b - a @ X, "lower", **kwargs)
    return X


def inv_spd(A, **kwargs):
    """A⁻¹ of a symmetric positive definite A (upstream inv_spd): thin Python over potrf + potrs with B = I.

    Raises trncore.InvalidArgument when A is not positive definite. Accuracy: each column as potrs's bound,
    ‖X̂ − A⁻¹‖/‖A⁻¹‖ ≲ c·n·u·κ₂(A). Keywords: backend, mode, threads.
    """
    a = _np.asarray(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise trncore.DimensionMismatch(
            "trnsolver.inv_spd: A has shape %s, not square: pass a square SPD matrix" % (a.shape,))
    dtype = _np.float32 if a.dtype == _np.float32 else _np.float64
    return solve_spd(a, _np.eye(a.shape[0], dtype=dtype), **kwargs)


__all__ = ["HAS_NKI", "HplMxpResult", "InvSqrtReport", "JacobiResult", "KrylovOptions", "KrylovResult",
           "LinearOperator", "LinearOperatorF32", "SolveReport", "SpectrumBounds", "get_backend", "inv_spd",
           "lstsq", "rayleigh_ritz_sketched", "set_backend", "solve_spd", "version", "__version__"]
__all__ += [n for n in _SIM_CAPABLE + _HOST_ONLY if not n.startswith("_")]
del _name
