"""trnblas: BLAS levels 1-3, batched GEMM, the sim backend's math modes and DF-MP2 on NumPy arrays.

The upstream trnsci/trnblas Python API (torch tensors) with NumPy arrays, over the C++ library
(host: OpenBLAS; backend="sim": the modelled NeuronCore TensorEngine with mode="bf16"/"compensated"/
"ozaki"/...). Options are keyword arguments; report=True returns (result, trncore.AccuracyReport) where
the C++ routine certifies a bound (gemm, df_mp2_energy). Errors are trncore's exception classes.
Scalars (alpha, beta) are rounded to the data's dtype, as in BLAS; a complex scalar makes the call complex.
See docs/python.md.
"""

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from ._trnblas import (Mp2Energy, asum, axpy, batched_gemm, build_info, copy, df_fit_cholesky, df_mp2_energy, dot,
                       dotc, dotu, gemm, gemm_batched, gemm_strided_batched, gemv, ger, gerc, geru, hemm, hemv, her,
                       her2, her2k, herk, iamax, nrm2, rot, rotg, scal, swap, symm, symv, syr, syr2, syr2k, syrk, trmm,
                       trmv, trsm, trsv, version)
from ._dfmp2 import batched_pair_energy

__version__ = version()

__all__ = [
    # Level 1
    "axpy", "dot", "dotu", "dotc", "nrm2", "scal", "asum", "iamax", "copy", "swap", "rot", "rotg",
    # Level 2
    "gemv", "symv", "hemv", "trmv", "trsv", "ger", "geru", "gerc", "syr", "syr2", "her", "her2",
    # Level 3 and batched
    "gemm", "batched_gemm", "gemm_strided_batched", "gemm_batched", "symm", "hemm", "syrk", "herk", "syr2k",
    "her2k", "trmm", "trsm",
    # DF-MP2
    "Mp2Energy", "df_mp2_energy", "df_fit_cholesky", "batched_pair_energy",
    "build_info", "version",
]
