"""Upstream trntensor's decomposition signatures (trnsci/trntensor v0.4) over the C++ decompositions.

Thin wrappers: the work, the options parsing and the errors are the extension's (cp_als, tucker_hosvd,
tucker_hooi, tt_svd). Tensors here are NumPy arrays; results are float64.
"""

import trncore

from . import _trntensor


def cp_decompose(tensor, rank, max_iter=100, tol=1e-6, nonneg=False, factors=None, *, report=False, **options):
    """CP decomposition by ALS (upstream's signature): returns (factors, weights).

    factors: one (I_n, rank) array per mode with unit-norm columns; weights: (rank,). Runs cp_als(tensor,
    rank=rank, max_iterations=max_iter, tolerance=tol, nonnegative=nonneg, **options) on the host in float64.

    Differences from upstream: tol is the change of the fit (1 - relative error) between sweeps, not the
    relative error itself (cp_als's criterion; a tensor that cannot be fitted stops instead of running
    max_iter sweeps); nonneg uses hierarchical ALS (upstream: multiplicative updates) and still returns
    weights; warm-start factors are not supported (trncore.NotSupported). Further keywords: line_search,
    seed (initial factors), threads, monitor=callable(progress) -> bool (True stops). report=True returns
    ((factors, weights), CpDecomposition) with fit, iterations, converged, stopped_by_monitor.

    Accuracy: a local optimum; exactly rank-R data with this rank ≥ R reaches fit → 1.
    Raises trncore.InvalidArgument (rank < 1, ndim < 2, a zero extent, non-finite data, negative tol),
    trncore.NotSupported (backend='sim', factors=...).
    """
    if factors is not None:
        raise trncore.NotSupported(
            "trntensor.cp_decompose: warm-start factors are not supported: "
            "omit factors= (cp_als starts from seeded random factors; pass seed= to vary them)")
    d = _trntensor.cp_als(tensor, rank=rank, max_iterations=max_iter, tolerance=tol, nonnegative=nonneg,
                          **options)
    result = (d.factors, d.weights)
    return (result, d) if report else result


def tucker_decompose(tensor, ranks, *, method="hosvd", report=False, **options):
    """Tucker decomposition (upstream's signature): returns (core, factors).

    core has shape ranks; factors[n] is (I_n, ranks[n]) with orthonormal columns. method='hosvd' (upstream's
    algorithm, the default: tucker_hosvd) or 'hooi' (tucker_hooi: higher-order orthogonal iteration from the
    HOSVD, error never above it; keywords max_iterations, tolerance, monitor). report=True returns
    ((core, factors), TuckerDecomposition) with relative_error and iterations.

    Accuracy (HOSVD): ‖X − X̂‖_F ≤ √(Σ_n Σ_{i>R_n} σ_i(X_(n))²).
    Raises trncore.InvalidArgument for len(ranks) ≠ ndim, a rank outside [1, I_n], non-finite data or an
    unknown method; trncore.NotSupported for backend='sim'.
    """
    if method == "hosvd":
        d = _trntensor.tucker_hosvd(tensor, ranks, **options)
    elif method == "hooi":
        d = _trntensor.tucker_hooi(tensor, ranks, **options)
    else:
        raise trncore.InvalidArgument(
            f"trntensor.tucker_decompose: method={method!r} is not a Tucker algorithm: use 'hosvd' or 'hooi'")
    result = (d.core, d.factors)
    return (result, d) if report else result


def tt_decompose(tensor, max_rank=None, *, epsilon=0.0, report=False, **options):
    """Tensor-train decomposition by TT-SVD (upstream's signature): returns the list of cores.

    Core k has shape (r_{k-1}, I_k, r_k), r at both ends 1. max_rank caps every bond (None: no cap;
    upstream required it); epsilon (an addition, default 0: exact up to rounding) truncates each unfolding
    so that ‖X − TT‖_F ≤ epsilon·‖X‖_F when max_rank does not bind. report=True returns (cores, TensorTrain)
    whose error_bound is the certified relative error in every case (tt_svd).
    Raises trncore.InvalidArgument for epsilon < 0, max_rank < 1, a 0-d tensor, non-finite data;
    trncore.NotSupported for backend='sim'. Upstream refused 1-D tensors; here a 1-D tensor is one core.
    """
    d = _trntensor.tt_svd(tensor, epsilon, max_rank, **options)
    return (d.cores, d) if report else d.cores
