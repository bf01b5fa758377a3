"""Port of NVIDIA's cuSOLVER syevd sample (symmetric eigendecomposition) to trnsolver's Python bindings.

The sample's 3×3 matrix A = [[3.5, 0.5, 0], [0.5, 3.5, 0], [0, 0, 2]] has eigenvalues {2, 3, 4}; we also
decompose a random symmetric 512×512 matrix. Each case runs on the host (LAPACK dsyevd, float64) and on
backend="sim" (the NeuronCore model, float32, blocked Householder tridiagonalization + QL with compensated
fp32 GEMMs). Checks against numpy.linalg.eigvalsh: max |λ̂ − λ| / ‖A‖₂ and ‖AV − VΛ‖_F/‖A‖_F, both within the
LAPACK bound p(n)·u (Users' Guide §4.7) taken as 10·n·u of the precision used; exit status 1 beyond it.
"""
import sys

import numpy as np

import trnsolver


def check(label, a, backend, dtype):
    n = a.shape[0]
    a = a.astype(dtype)
    kw = {"backend": "sim", "mode": "compensated"} if backend == "sim" else {}
    w, v, info = trnsolver.syevd(a, "V", "lower", **kw)
    ref = np.linalg.eigvalsh(a.astype(np.float64))
    a64 = a.astype(np.float64)
    eig_err = np.abs(w.astype(np.float64) - ref).max() / np.linalg.norm(a64, 2)
    res = np.linalg.norm(a64 @ v - v * w.astype(np.float64)) / np.linalg.norm(a64)
    bound = 10 * n * np.finfo(dtype).eps / 2
    ok = info == 0 and eig_err <= bound and res <= bound * np.sqrt(n)
    print(f"{label:>8} n={n:4d} {backend:4s} {np.dtype(dtype).name:7s}: info={info} max|dλ|/‖A‖₂={eig_err:.2e} "
          f"‖AV−VΛ‖/‖A‖={res:.2e} bound={bound:.1e} {'OK' if ok else 'FAILED'}")
    if n <= 3:
        print(f"          eigenvalues {w}  (expected {ref})")
    return ok


def main():
    sample = np.array([[3.5, 0.5, 0.0], [0.5, 3.5, 0.0], [0.0, 0.0, 2.0]])
    rng = np.random.default_rng(2024)
    r = rng.standard_normal((512, 512))
    big = (r + r.T) / 2
    ok = True
    for label, a in (("sample", sample), ("random", big)):
        ok &= check(label, a, "host", np.float64)
        ok &= check(label, a, "sim", np.float32)
    assert np.allclose(trnsolver.syevd(sample)[0], [2.0, 3.0, 4.0])
    print("syevd: all within bounds" if ok else "syevd: ERROR beyond the bound")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
