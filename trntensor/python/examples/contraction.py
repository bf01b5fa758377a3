"""NVIDIA's cuTENSOR contraction sample, with trntensor: C[m,u,n,v] = α·A[m,h,k,n]·B[u,k,v,h] + β·C.

The sample contracts float32 tensors with extents m = n = u = 96, v = h = k = 64 and α = 1.1; here every
extent is halved (m = n = u = 48, v = h = k = 32: 7.2 GFLOP, about a second with the reference) and β = 0.5
so the accumulation into C runs too. The contraction is planned once (the plan's text shows its steps:
one GEMM of (m·n) × (h·k) by (h·k) × (u·v), then the output permutation), run on the host, and checked
against numpy.einsum in float64 (exact products of the float32 data, so its own error is negligible).

The error printed is componentwise, relative to the bound's scale |α|·einsum(|A|, |B|) + |β|·|C₀|; trntensor
certifies it is at most the report's a_priori_bound (γ_{K+2} in float32 for K = h·k = 1024, composed with
the finish step), and this script exits with status 1 if it is not. A scaled-down copy then runs on the
sim backend (the modelled NeuronCore TensorEngine) in bf16 and in ozaki mode, each against its own bound.
"""
import sys

import numpy as np

import trntensor

EXPR = "mhkn,ukvh->munv"
ALPHA, BETA = 1.1, 0.5


def run(extent, seed, **options):
    rng = np.random.default_rng(seed)
    a = rng.random([extent[c] for c in "mhkn"], dtype=np.float32)
    b = rng.random([extent[c] for c in "ukvh"], dtype=np.float32)
    c0 = rng.random([extent[c] for c in "munv"], dtype=np.float32)
    plan = trntensor.plan_contraction(EXPR, a, b, **options)
    c = c0.copy()
    _, report = plan.execute(a, b, alpha=ALPHA, beta=BETA, out=c, report=True)
    a64, b64, c64 = a.astype(np.float64), b.astype(np.float64), c0.astype(np.float64)
    ref = ALPHA * np.einsum(EXPR, a64, b64, optimize=True) + BETA * c64
    scale = abs(ALPHA) * np.einsum(EXPR, np.abs(a64), np.abs(b64), optimize=True) + abs(BETA) * np.abs(c64)
    err = float(np.max(np.abs(c - ref) / scale))
    normwise = float(np.max(np.abs(c - ref)) / np.max(np.abs(ref)))
    return plan, report, err, normwise


def main():
    failed = False
    extent = {"m": 48, "n": 48, "u": 48, "v": 32, "h": 32, "k": 32}
    plan, report, err, normwise = run(extent, 1)
    print(plan)
    print(f"host float32: max componentwise relative error {err:.3e} (bound {report.a_priori_bound:.3e}, "
          f"certified {report.certified}); normwise {normwise:.3e}")
    failed |= not (report.certified and err <= report.a_priori_bound)

    small = {"m": 12, "n": 12, "u": 12, "v": 8, "h": 8, "k": 8}
    for mode in ("bf16", "ozaki"):
        _, report, err, normwise = run(small, 2, backend="sim", mode=mode)
        print(f"sim {mode:5s} (extents /8): max componentwise relative error {err:.3e} "
              f"(bound {report.a_priori_bound:.3e}, certified {report.certified}); normwise {normwise:.3e}")
        failed |= not (report.certified and err <= report.a_priori_bound)
    if failed:
        print("FAILED: an error exceeds its certified bound")
        return 1
    print("OK: every error within its certified bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
