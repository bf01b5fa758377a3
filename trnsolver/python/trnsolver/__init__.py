"""trnsolver: dense, certified mixed-precision, iterative and randomized linear algebra (docs/python.md).

Upstream-shaped (trnsci/trnsolver v0.9) API on NumPy arrays, plus trnsci's certified solve, reports and the
NeuronCore model (backend="sim"). Shared types registered here (trnsparse relies on them): KrylovResult,
KrylovOptions, SolveReport, InvSqrtReport, HplMxpResult, SpectrumBounds, LinearOperator, LinearOperatorF32.
"""

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from ._trnsolver import (HplMxpResult, InvSqrtReport, KrylovOptions, KrylovResult, LinearOperator,
                         LinearOperatorF32, SolveReport, SpectrumBounds, arnoldi, bicgstab,
                         block_jacobi_preconditioner, cg, cg_bf16, chebyshev, gmres, hpl_mxp,
                         jacobi_preconditioner, lanczos_bounds, minres, power_iteration, richardson,
                         richardson_bf16, solve, ssor_preconditioner, version)

__version__ = version()

__all__ = ["HplMxpResult", "InvSqrtReport", "KrylovOptions", "KrylovResult", "LinearOperator",
           "LinearOperatorF32", "SolveReport", "SpectrumBounds", "arnoldi", "bicgstab",
           "block_jacobi_preconditioner", "cg", "cg_bf16", "chebyshev", "gmres", "hpl_mxp",
           "jacobi_preconditioner", "lanczos_bounds", "minres", "power_iteration", "richardson",
           "richardson_bf16", "solve", "ssor_preconditioner", "version", "__version__"]
