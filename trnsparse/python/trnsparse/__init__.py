"""trnsparse: sparse formats, SpMV/SpMM (host and the sim TensorEngine model), iterative and direct solvers,
Matrix Market, integral screening and block-sparse attention, over NumPy arrays (docs/python.md).

Upstream (trnsci/trnsparse v0.6, torch) names and signatures are kept where a function exists in both;
formats are NumPy dataclasses. The Krylov solvers return trnsolver.KrylovResult (trnsolver is imported first).
"""

import trncore  # noqa: F401  (registers reports, options and exceptions first)
import trnsolver  # noqa: F401  (registers KrylovResult, which the solvers return)

from ._trnsparse import (BlockDensity, BlockMask, Cholesky, Lu, Qr, ScreenedProductReport, ScreeningStats,
                         SparsityStats, block_density, block_sparse_attention, bsr_spmm, cg, chebyshev,
                         density_weighted_screening, diagonal, dilated_mask, drop_zeros, global_tokens_mask,
                         is_canonical, jacobi_preconditioner, lanczos_bounds, local_window_mask, mask_union,
                         nnz_per_row, power_iteration, quartet_screening, read_matrix_market, richardson,
                         significant_pairs, sparse_add, sparse_scale, sparse_transpose, spgemm, spmm, spmv,
                         sum_duplicates, to_bsr, to_coo, to_csc, to_csr, to_dense, validate, version,
                         write_matrix_market, write_matrix_market_array)
from .formats import BSRMatrix, COOMatrix, CSCMatrix, CSRMatrix, eye_sparse, from_dense, from_scipy
from .iterative import (bsr_diagonal, cg_bsr, chebyshev_bsr, chebyshev_coeffs,
                        jacobi_preconditioner_bsr, power_iteration_bsr, richardson_bsr)
from .ops import block_sparse_attention_tiled, spmv_symmetric, spsolve
from .screening import density_screen, schwarz_bounds, screen_quartets, screened_spmm, sparsity_stats

__version__ = version()

__all__ = [
    # formats
    "CSRMatrix", "COOMatrix", "CSCMatrix", "BSRMatrix", "from_dense", "from_scipy", "eye_sparse", "to_csr", "to_coo",
    "to_csc", "to_bsr", "to_dense", "validate", "is_canonical", "sum_duplicates", "drop_zeros", "block_density",
    "BlockDensity",
    # operations
    "spmv", "spmm", "spmv_symmetric", "sparse_add", "sparse_scale", "sparse_transpose", "nnz_per_row", "spgemm",
    "bsr_spmm", "screened_spmm", "block_sparse_attention_tiled", "block_sparse_attention",
    # iterative
    "cg", "chebyshev", "richardson", "power_iteration", "lanczos_bounds", "diagonal", "jacobi_preconditioner",
    "cg_bsr", "jacobi_preconditioner_bsr", "bsr_diagonal", "chebyshev_coeffs",
    "chebyshev_bsr", "richardson_bsr", "power_iteration_bsr",
    # direct
    "Cholesky", "Lu", "Qr", "spsolve",
    # Matrix Market
    "read_matrix_market", "write_matrix_market", "write_matrix_market_array",
    # screening
    "schwarz_bounds", "screen_quartets", "density_screen", "sparsity_stats", "quartet_screening",
    "significant_pairs", "density_weighted_screening", "ScreeningStats", "ScreenedProductReport", "SparsityStats",
    # attention
    "BlockMask", "local_window_mask", "dilated_mask", "global_tokens_mask", "mask_union",
    "version",
]
