"""The C++ basic-interface plan names (trnfft::plan_dft, plan_dft_r2c, plan_dft_c2r) over trnfft.Plan."""

import numpy as np

from ._trnfft import Plan


def plan_dft(shape, direction="forward", dtype=np.complex128, **options):
    """trnfft::plan_dft: a c2c Plan of a C-ordered complex array of `shape` over all its axes.

    Same as ``Plan(shape, dtype, 'c2c', direction, **options)``; see help(trnfft.Plan).
    """
    return Plan(shape, dtype, "c2c", direction, **options)


def plan_dft_r2c(shape, dtype=np.float64, **options):
    """trnfft::plan_dft_r2c: an r2c Plan of a real array of `shape` (output: last axis n//2 + 1).

    Same as ``Plan(shape, dtype, 'r2c', **options)``; see help(trnfft.Plan).
    """
    return Plan(shape, dtype, "r2c", **options)


def plan_dft_c2r(shape, dtype=np.float64, **options):
    """trnfft::plan_dft_c2r: a c2r Plan whose real output has `shape` (input: last axis n//2 + 1).

    Same as ``Plan(shape, dtype, 'c2r', **options)``; see help(trnfft.Plan).
    """
    return Plan(shape, dtype, "c2r", **options)
