"""trntensor: einsum with contraction plans, tensor decompositions, DF-MP2 and sharded einsum (docs/python.md).

NumPy arrays in and out (float32/float64), options as keywords (backend="sim", mode="ozaki",
target_forward_error=1e-12, threads=...), report=True for a trncore.AccuracyReport, errors as trncore's
exceptions. Upstream trnsci/trntensor v0.4's names are kept; to_xla/from_xla are not provided (there is no
XLA device here: arrays are host memory) and HAS_NKI is False (the Trainium path is the modelled
backend="sim", not NKI kernels).
"""

import trncore  # noqa: F401  (registers reports, options and exceptions first)

from ._trntensor import (ContractionPlan, CpDecomposition, PlanStep, ShardedTensor, TensorTrain,
                         TuckerDecomposition, ao_to_mo_transform, clear_plan_cache, cp_als, cp_reconstruct,
                         df_mp2_energy, einsum, estimate_flops, get_backend, mp2_energy, multi_einsum,
                         parse_subscripts, plan_cache_info, plan_contraction, set_backend, sharded_einsum,
                         tt_reconstruct, tt_svd, tucker_hooi, tucker_hosvd, tucker_reconstruct, version)
from ._upstream import cp_decompose, tt_decompose, tucker_decompose

#: Upstream's flag for the NKI (Trainium hardware) dispatch: never available here.
HAS_NKI = False

__version__ = version()

__all__ = [
    # upstream v0.4 (without to_xla / from_xla)
    "einsum", "multi_einsum", "ContractionPlan", "plan_contraction", "estimate_flops", "clear_plan_cache",
    "plan_cache_info", "cp_decompose", "cp_reconstruct", "tucker_decompose", "tucker_reconstruct",
    "tt_decompose", "tt_reconstruct", "HAS_NKI", "set_backend", "get_backend", "mp2_energy",
    "ao_to_mo_transform",
    # the C++ API's own
    "PlanStep", "parse_subscripts", "cp_als", "CpDecomposition", "tucker_hosvd", "tucker_hooi",
    "TuckerDecomposition", "tt_svd", "TensorTrain", "df_mp2_energy", "ShardedTensor", "sharded_einsum",
    "version",
]
