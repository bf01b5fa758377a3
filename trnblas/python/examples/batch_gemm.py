"""batchCUBLAS (NVIDIA CUDA samples) in Python on trnblas: batches of GEMMs, three ways.

The CUDA sample runs C_i = alpha*A_i*B_i + beta*C_i for a batch of square matrices in single, double,
complex and double-complex precision, once as independent GEMM calls (one per stream) and once through
cublas<t>gemmBatched, and checks every product against a reference computed on the host. Here:
  - "looped":  one trnblas.gemm per entry (the sample's streamed variant);
  - "batched": trnblas.gemm_batched, lists of matrices (cublas<t>gemmBatched's pointer arrays);
  - "strided": trnblas.batched_gemm on (batch, n, n) stacks (cublas<t>gemmStridedBatched).
Each result is compared with NumPy's long-double product of the same data. The pass criterion is the
host GEMM's documented componentwise bound (docs/trnblas.md):
  |C^ - C| <= gamma_{k+2} (|alpha||A||B| + |beta||C|),  gamma_n = n*u/(1 - n*u), 4u for complex data,
plus the long-double oracle's own gamma_{k+4}(2^-64). Exit status 1 if any element exceeds it.
"""
import sys

import numpy as np

import trnblas

N, BATCH = 128, 10


def gamma(n, u):
    return n * u / (1 - n * u)


def main():
    rng = np.random.default_rng(2024)
    ok = True
    print(f"batchCUBLAS port: {BATCH} GEMMs of {N}x{N}x{N} per precision ({trnblas.build_info()})")
    for dtype in (np.float32, np.float64, np.complex64, np.complex128):
        cplx = np.dtype(dtype).kind == "c"
        wide = np.clongdouble if cplx else np.longdouble

        def rand(shape):
            x = rng.uniform(-1, 1, shape)
            if cplx:
                x = x + 1j * rng.uniform(-1, 1, shape)
            return x.astype(dtype)

        A, B, C = rand((BATCH, N, N)), rand((BATCH, N, N)), rand((BATCH, N, N))
        alpha, beta = (dtype(0.5 + 0.25j), dtype(-0.75 + 0.5j)) if cplx else (dtype(0.5), dtype(-0.75))
        # Reference and magnitude in long double (64-bit significand).
        Al, Bl, Cl = A.astype(wide), B.astype(wide), C.astype(wide)
        ref = wide(alpha) * np.matmul(Al, Bl) + wide(beta) * Cl
        mag = abs(alpha) * np.matmul(np.abs(Al), np.abs(Bl)) + abs(beta) * np.abs(Cl)
        u = np.finfo(dtype).eps / 2 * (4 if cplx else 1)
        bound = (gamma(N + 2, u) + gamma(N + 4, 2.0**-64)) * mag

        results = {
            "looped": np.stack([trnblas.gemm(alpha, A[i], B[i], beta, C[i]) for i in range(BATCH)]),
            "batched": np.stack(trnblas.gemm_batched(alpha, list(A), list(B), beta, list(C))),
            "strided": trnblas.batched_gemm(alpha, A, B, beta, C),
        }
        for how, R in results.items():
            err = np.abs(R.astype(wide) - ref)
            rel = float(np.max(np.linalg.norm((R.astype(wide) - ref).reshape(BATCH, -1), axis=1) /
                               np.linalg.norm(ref.reshape(BATCH, -1), axis=1)))
            ratio = float(np.max(err / bound))
            passed = ratio <= 1.0
            ok &= passed
            print(f"  {np.dtype(dtype).name:>10} {how:>8}: max relative error {rel:.3e} (normwise, worst entry), "
                  f"max componentwise error / bound {ratio:.3f} -> {'PASSED' if passed else 'FAILED'}")
    print("batchCUBLAS port:", "all products within the bound" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
