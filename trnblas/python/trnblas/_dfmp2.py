"""Upstream-named DF-MP2 convenience over trnblas.df_mp2_energy."""

import numpy as np

from ._trnblas import df_mp2_energy


def batched_pair_energy(B, eps_occ, eps_vir, **options):
    """The DF-MP2 correlation energy over all nocc^2 orbital pairs, as a 0-D float64 array.

    Upstream's nki_batched_pair_energy(B, eps_occ, eps_vir) (B: (nocc, nvir, naux)), here a thin wrapper:
    ``df_mp2_energy(B, eps_occ, eps_vir, **options).correlation``. Keywords, accuracy and errors are
    df_mp2_energy's (backend="sim", mode="ozaki", target_forward_error in hartree, ...); report=True
    returns (energy, trncore.AccuracyReport). Upstream returns a 0-D torch tensor; this returns a 0-D
    NumPy array.
    """
    result = df_mp2_energy(B, eps_occ, eps_vir, **options)
    if isinstance(result, tuple):
        energy, report = result
        return np.asarray(energy.correlation, dtype=np.float64), report
    return np.asarray(result.correlation, dtype=np.float64)
