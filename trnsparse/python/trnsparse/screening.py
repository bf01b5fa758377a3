"""Integral screening, upstream-shaped (trnsparse v0.6 ``screening``) plus the C++ rigorous screens.

Q_ij = √(ij|ij) bounds |(ij|kl)| ≤ Q_ij·Q_kl (Schwarz; Häser & Ahlrichs 1989).
"""

from __future__ import annotations

import math

import numpy as np

from . import _trnsparse as _ext
from .formats import (BSRMatrix, COOMatrix, CSCMatrix, CSRMatrix, _dense, _error, _is_scipy_sparse, _scalar, as_csr,
                      from_dense)


def schwarz_bounds(diagonal_integrals):
    """Q = √(ij|ij) of the (n, n) diagonal integrals (trnsparse::schwarz_bounds), float64 (n, n).
    Differs from upstream (√|x|): a negative entry beyond rounding (< −1e-14·max) or a non-finite one raises
    trncore.InvalidArgument; rounding noise below that is clamped to 0."""
    return _ext._schwarz_bounds(diagonal_integrals)


def screen_quartets(Q, threshold=1e-10):
    """Boolean (n, n) mask of significant pairs, Q_ij > √threshold (upstream semantics, NumPy).
    Raises trncore.InvalidArgument for a negative or NaN threshold or a non-numeric Q."""
    return _dense(Q, "trnsparse.screen_quartets", "Q") > math.sqrt(_threshold(threshold, "trnsparse.screen_quartets"))


def _threshold(t, fn):
    import trncore

    t = _scalar(t, float, fn, "threshold")
    if not t >= 0:
        raise _error(trncore.InvalidArgument, f"{fn}: threshold={t} is negative or NaN: pass a threshold >= 0")
    return t


def density_screen(Q, P, threshold=1e-10):
    """Boolean (n, n) mask Q_ij·max_kl |P_kl·Q_kl| > threshold (upstream semantics, NumPy). For the exact
    density-weighted quartet count see density_weighted_screening."""
    fn = "trnsparse.density_screen"
    Q = _dense(Q, fn, "Q")
    P = _dense(P, fn, "P")
    threshold = _threshold(threshold, fn)
    if Q.shape != P.shape:
        import trncore

        raise _error(trncore.DimensionMismatch,
            f"trnsparse.density_screen: Q has shape {Q.shape} but P has shape {P.shape}: pass P over the same basis")
    pq = np.abs(P) * Q
    return Q * (pq.max() if pq.size else 0.0) > threshold


def sparsity_stats(Q, threshold=1e-10):
    """Statistics of a screen or of a matrix.

    Q a dense (n, n) Schwarz-bound array (upstream): dict with n_shells, total_pairs = n², significant_pairs
    (Q > √threshold), pair_sparsity, total_quartets = n⁴, significant_quartets_upper = significant_pairs²,
    quartet_sparsity_lower — upstream's keys and values — plus trnsci's exact rigorous count from
    quartet_screening: significant_quartets (Q_ij·Q_kl > threshold) and quartet_sparsity.
    Q a sparse matrix (CSRMatrix, BSRMatrix, COO, CSC or scipy.sparse): trnsparse::sparsity_stats → a
    SparsityStats (shape, nonzeros, density, empty rows, row min/max/mean, bandwidth); threshold unused.
    """
    if isinstance(Q, (CSRMatrix, BSRMatrix, COOMatrix, CSCMatrix)) or _is_scipy_sparse(Q):
        return _ext._matrix_sparsity_stats(as_csr(Q))
    Qa = _dense(Q, "trnsparse.sparsity_stats", "Q")
    threshold = _threshold(threshold, "trnsparse.sparsity_stats")
    exact = _ext.quartet_screening(Qa, threshold)
    n = Qa.shape[0]
    sig = int(screen_quartets(Qa, threshold).sum())
    pairs = n * n
    quartets = pairs * pairs
    return {
        "n_shells": n,
        "total_pairs": pairs,
        "significant_pairs": sig,
        "pair_sparsity": 1.0 - sig / pairs if pairs else 0.0,
        "total_quartets": quartets,
        "significant_quartets_upper": sig * sig,
        "quartet_sparsity_lower": 1.0 - sig * sig / quartets if quartets else 0.0,
        "significant_quartets": int(exact.kept_quartets),
        "quartet_sparsity": 1.0 - exact.kept_fraction if quartets else 0.0,
    }


def screened_spmm(A, diag_integrals, B, threshold, *, tau=None, report=False, **options):
    """C = A_screened · B (trnsparse::screened_spmm on the host CSR product).

    Upstream shape screened_spmm(A, diag_integrals, B, threshold): A (M, K) dense or sparse; with
    diag_integrals (1-D, M = K) the entries with Q_i·Q_j ≤ √threshold (Q = √|diag|) are zeroed first, exactly
    as upstream. trnsci then skips every remaining a_ij whose largest contribution |a_ij|·‖B(j,:)‖∞ ≤ tau —
    rigorous: each C_ik differs from the product of the (pair-masked) A by at most that row's sum of skipped
    contributions. tau defaults to 0 with diag_integrals and to threshold with diag_integrals=None (the C++
    screen alone). report=True returns (C, ScreenedProductReport(kept_entries, dropped_entries,
    max_row_dropped_bound)); the pair mask's drops are not in it (they are upstream's heuristic, not bounded).
    Keywords: threads, options=. Raises trncore.DimensionMismatch for shapes, InvalidArgument for tau < 0/NaN.
    """
    import trncore

    fn = "trnsparse.screened_spmm"
    threshold = _threshold(threshold, fn)
    if isinstance(A, (CSRMatrix, BSRMatrix, COOMatrix, CSCMatrix)) or _is_scipy_sparse(A):
        csr = as_csr(A)
    else:
        csr = from_dense(A)
    if diag_integrals is not None:
        d = _dense(diag_integrals, fn, "diag_integrals")
        m, k = csr.shape
        if d.ndim != 1 or d.shape[0] != m or m != k:
            raise _error(trncore.DimensionMismatch,
                f"{fn}: diag_integrals has shape {d.shape} and A has shape {csr.shape}: "
                "pass square A with one diagonal integral per row (upstream's contract)")
        q = np.sqrt(np.abs(d.astype(np.float64)))
        rows = np.repeat(np.arange(m), np.diff(np.asarray(csr.row_ptrs, dtype=np.int64)))
        cols = np.asarray(csr.col_indices, dtype=np.int64)
        keep = q[rows] * q[cols] > math.sqrt(threshold)
        counts = np.bincount(rows[keep], minlength=m)
        csr = CSRMatrix(csr.values[keep], cols[keep], np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
                        csr.shape)
        t = 0.0 if tau is None else tau
    else:
        t = threshold if tau is None else tau
    return _ext._screened_spmm(csr, B, _scalar(t, float, fn, "tau"), report=report, **options)
