"""Upstream-shaped operations implemented over the extension (spmv_symmetric, block_sparse_attention_tiled,
spsolve)."""

from __future__ import annotations

import numpy as np

from . import _trnsparse as _ext
from .formats import CSRMatrix, _error, as_csr


def spmv_symmetric(A, x, alpha=1.0, uplo="upper", **options):
    """alpha·S·x for the symmetric S whose `uplo` triangle (diagonal included) A stores: two host SpMVs,
    S·x = A·x + (A − diag A)ᵀ·x (trnsparse::spmv, no and trans). Differs from upstream: uplo is checked
    ('upper' or 'lower', and A must hold no entry of the other strict triangle — trncore.InvalidArgument),
    where upstream ignored it. Accuracy: |ŷ_i − y_i| ≤ γ_{m+4}·|α|·(|S||x|)_i, m the entries of row and column
    i. Keywords: threads, options=."""
    import trncore

    fn = "trnsparse.spmv_symmetric"
    if uplo not in ("upper", "lower"):
        raise _error(trncore.InvalidArgument, f"{fn}: uplo={uplo!r} is neither 'upper' nor 'lower': pass uplo='upper' or 'lower'")
    A = as_csr(A)
    _ext.validate(A)
    m, n = A.shape
    if m != n:
        raise _error(trncore.DimensionMismatch, f"{fn}: A is {m}x{n}, not square: a symmetric matrix is square")
    rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(np.asarray(A.row_ptrs, dtype=np.int64)))
    cols = np.asarray(A.col_indices, dtype=np.int64)
    wrong = cols < rows if uplo == "upper" else cols > rows
    if np.any(wrong):
        i = int(np.argmax(wrong))
        raise _error(trncore.InvalidArgument,
            f"{fn}: A stores entry ({rows[i]}, {cols[i]}) outside the {uplo} triangle: store one triangle only "
            "or call spmv on the full matrix")
    strict = rows != cols
    counts = np.bincount(rows[strict], minlength=m)
    S = CSRMatrix(A.values[strict], cols[strict], np.concatenate([[0], np.cumsum(counts)]).astype(np.int64), A.shape)
    y = _ext.spmv(A, x, alpha, **options)
    return _ext.spmv(S, x, alpha, y, 1.0, trans=True, **options)


def block_sparse_attention_tiled(Q, K, V, mask_bsr, scale=None, **kw):
    """Upstream name of block_sparse_attention (same call: mask_bsr a BSRMatrix or a BlockMask; scale None =
    1/√d). Forward only (upstream's autograd backward is not bound: NumPy has no autograd)."""
    return _ext.block_sparse_attention(Q, K, V, mask_bsr, scale, **kw)


def spsolve(A, b, method="lu", ordering="automatic"):
    """x with A x = b through SuiteSparse (trnsci only): method 'lu' (UMFPACK), 'cholesky' (CHOLMOD, SPD,
    lower triangle read) or 'qr' (SPQR least squares). Raises trncore.InvalidArgument when the factorization
    fails (singular / not SPD: check Lu(A).info) or for an unknown method."""
    import trncore

    cls = {"lu": _ext.Lu, "cholesky": _ext.Cholesky, "qr": _ext.Qr}.get(method)
    if cls is None:
        raise _error(trncore.InvalidArgument, f"trnsparse.spsolve: method={method!r} is unknown: use 'lu', 'cholesky' or 'qr'")
    return cls(A, ordering).solve(b)
