"""Port of NVIDIA's CUDA sample conjugateGradient (cuSPARSE + cuBLAS) to trnsparse.

The sample builds a random symmetric tridiagonal matrix in CSR (diagonal rand + 10, off-diagonals rand in
[0, 1), so it is diagonally dominant and SPD), sets b = 1 and runs CG in single precision to a relative
residual of 1e-5. Here the CSR arrays are built the same way with NumPy, CG is trnsparse.cg (trnsolver's CG on
trnsparse's host SpMV) and the answer is checked against scipy.sparse.linalg.spsolve in double:

  * the float64 residual ‖b − A x‖/‖b‖ must meet tol up to the float32 rounding of the residual CG measured
    (γ_4·‖|A||x| + |b|‖/‖b‖, u = 2^-24);
  * the error must satisfy ‖x − x*‖ ≤ ‖b − A x‖₂ / λ_min with λ_min ≥ min_i(a_ii − Σ_{j≠i}|a_ij|) (Gershgorin),
    plus the double-precision solve's own error (1e-12·‖x*‖).

Exits with status 1 if either check fails.
"""

import sys
import time

import numpy as np
import scipy.sparse.linalg as spla

import trnsparse

N = 1 << 18  # the sample uses 1,048,576; 2^18 keeps the scipy reference well under a second
TOL = 1e-5
MAX_ITER = 10000


def gen_tridiag(n, rng):
    """CSR arrays of the sample's genTridiag: row i holds (i-1, i, i+1); a_ii = r + 10, a_{i,i+1} = a_{i+1,i} = r."""
    diag = (rng.random(n) + 10.0).astype(np.float32)
    off = rng.random(n - 1).astype(np.float32)
    counts = np.full(n, 3, dtype=np.int64)
    counts[0] = counts[-1] = 2
    row_ptrs = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    nnz = int(row_ptrs[-1])
    cols = np.empty(nnz, dtype=np.int64)
    vals = np.empty(nnz, dtype=np.float32)
    rows = np.arange(n)
    start = row_ptrs[:-1]
    has_left = rows > 0
    # left neighbour (i-1) first, then the diagonal, then the right neighbour (i+1): sorted columns.
    pos_diag = start + has_left
    cols[start[has_left]] = rows[has_left] - 1
    vals[start[has_left]] = off[rows[has_left] - 1]
    cols[pos_diag] = rows
    vals[pos_diag] = diag
    has_right = rows < n - 1
    cols[pos_diag[has_right] + 1] = rows[has_right] + 1
    vals[pos_diag[has_right] + 1] = off[rows[has_right]]
    return trnsparse.CSRMatrix(vals, cols, row_ptrs, (n, n)), diag, off


def main():
    rng = np.random.default_rng(2024)
    A, diag, off = gen_tridiag(N, rng)
    b = np.ones(N, dtype=np.float32)
    print(f"conjugateGradient (trnsparse): N = {N}, nnz = {A.nnz}, float32 CSR")

    t0 = time.perf_counter()
    x, result = trnsparse.cg(A, b, rtol=TOL, max_iterations=MAX_ITER, report=True)
    t_cg = time.perf_counter() - t0
    print(f"  iterations = {result.iterations}, reason = {result.reason}, "
          f"residual (float32, as CG measured) = {result.relative_residual:.3e}, {t_cg * 1e3:.1f} ms")

    A64 = A.to_scipy().astype(np.float64)
    b64 = b.astype(np.float64)
    x64 = x.astype(np.float64)
    r64 = b64 - A64 @ x64
    rel64 = np.linalg.norm(r64) / np.linalg.norm(b64)
    t0 = time.perf_counter()
    x_ref = spla.spsolve(A64.tocsc(), b64)
    t_ref = time.perf_counter() - t0
    err = np.linalg.norm(x64 - x_ref) / np.linalg.norm(x_ref)
    print(f"  residual ||b - A x|| / ||b|| (float64)     = {rel64:.3e}  (tol {TOL:g})")
    print(f"  error ||x - x_spsolve|| / ||x_spsolve||     = {err:.3e}  (spsolve: {t_ref * 1e3:.1f} ms)")

    u = 2.0 ** -24
    gamma4 = 4 * u / (1 - 4 * u)
    abs_ax = abs(A64) @ np.abs(x64)
    resid_slack = gamma4 * np.linalg.norm(abs_ax + np.abs(b64)) / np.linalg.norm(b64)
    left = np.concatenate([[0.0], off.astype(np.float64)])
    right = np.concatenate([off.astype(np.float64), [0.0]])
    lam_min = float(np.min(diag.astype(np.float64) - left - right))  # Gershgorin lower bound, > 0
    err_bound = (np.linalg.norm(r64) / lam_min) / np.linalg.norm(x_ref) + 1e-12
    print(f"  bounds: residual <= {TOL + resid_slack:.3e}, error <= ||r||/lambda_min = {err_bound:.3e} "
          f"(lambda_min >= {lam_min:.3f})")

    ok = result.converged and rel64 <= TOL + resid_slack and err <= err_bound
    print("  Test Summary:", "PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
