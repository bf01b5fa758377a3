"""trnblas gemm (host and sim, modes, reports), batched GEMM and level 3 against NumPy/SciPy."""
import numpy as np
import pytest
import scipy.linalg

import trncore
import trnblas
from blas_oracle import COMPLEX, DTYPES, REAL, assert_within, gamma, ld, rand, unit

OPS = {False: lambda X: X, True: lambda X: X.T, "C": lambda X: np.conj(X).T}


def scalars(dtype):
    return (0.75 - 0.5j, -1.25 + 0.25j) if np.dtype(dtype).kind == "c" else (0.75, -1.25)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mnk", [(0, 0, 0), (1, 1, 1), (7, 5, 3), (3, 4, 0), (129, 128, 127)])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), ("C", "C")])
@pytest.mark.parametrize("order", ["C", "F"])
def test_gemm_host(dtype, mnk, ta, tb, order):
    m, n, k = mnk
    rng = np.random.default_rng(m + n + k)
    A = np.asarray(rand((m, k) if ta is False else (k, m), dtype, rng), order=order)
    B = np.asarray(rand((k, n) if tb is False else (n, k), dtype, rng), order="F" if order == "C" else "C")
    C = rand((m, n), dtype, rng)
    alpha, beta = scalars(dtype)
    opA, opB = OPS[ta](ld(A)), OPS[tb](ld(B))
    r = trnblas.gemm(alpha, A, B, beta, C, transA=ta, transB=tb)
    assert r.dtype == dtype and r.shape == (m, n) and r.flags.c_contiguous
    assert not np.shares_memory(r, C)
    # Host bound (docs/trnblas.md): |C^ - C| <= gamma_{k+2}(|alpha||op(A)||op(B)| + |beta||C|) componentwise.
    mag = abs(alpha) * (np.abs(opA) @ np.abs(opB)) + abs(beta) * np.abs(ld(C))
    assert_within(r, ld(alpha) * (opA @ opB) + ld(beta) * ld(C), mag, k + 2, dtype, "gemm")


def test_gemm_matches_numpy_and_upstream_defaults():
    rng = np.random.default_rng(1)
    A, B = rng.standard_normal((7, 5)), rng.standard_normal((5, 3))
    assert np.allclose(trnblas.gemm(1.0, A, B), A @ B, rtol=1e-14, atol=1e-14)
    assert np.array_equal(trnblas.gemm(1.0, A.T.copy(), B, transA=np.bool_(True)), trnblas.gemm(1.0, A, B))
    # beta without C is ignored (upstream adds beta*C only when C is given)
    assert np.array_equal(trnblas.gemm(1.0, A, B, 5.0), trnblas.gemm(1.0, A, B))
    # scipy's BLAS on the same data, transposes included
    assert np.allclose(trnblas.gemm(2.0, A, B.T.copy(), transB=True), scipy.linalg.blas.dgemm(2.0, A, B), rtol=1e-14)


def test_gemm_in_place_no_copy():
    rng = np.random.default_rng(2)
    A, B = rng.standard_normal((6, 4)), rng.standard_normal((4, 5))
    for order in "CF":
        C = np.asarray(rng.standard_normal((6, 5)), order=order)
        C0 = C.copy()
        r = trnblas.gemm(1.0, A, B, 2.0, C, out=C)
        assert r is C and np.shares_memory(r, C)
        assert np.allclose(C, A @ B + 2 * C0, rtol=1e-14, atol=1e-13)
    # out= into a block of a bigger matrix (a view with a leading dimension)
    big = np.zeros((10, 10))
    trnblas.gemm(1.0, A, B, out=big[2:8, 3:8])
    assert np.allclose(big[2:8, 3:8], A @ B, rtol=1e-14, atol=1e-14) and not big[:2].any() and not big[:, :3].any()
    # out overlapping an input is the library's InvalidArgument
    with pytest.raises(trncore.InvalidArgument, match="trnblas::gemm"):
        S = np.ones((4, 4))
        trnblas.gemm(1.0, S, S, out=S)


def test_gemm_report_host():
    rng = np.random.default_rng(3)
    for dtype in DTYPES:
        A, B = rand((5, 9), dtype, rng), rand((9, 4), dtype, rng)
        r, rep = trnblas.gemm(1.0, A, B, report=True)
        assert isinstance(rep, trncore.AccuracyReport)
        assert rep.certified and rep.met and rep.target is None and rep.uncertified_reason == ""
        # the host report's a_priori_bound is gamma_{k+2} (4u for complex), componentwise relative to |A||B|
        assert rep.a_priori_bound == pytest.approx(gamma(11, unit(dtype)), rel=1e-12)
        assert_within(r, ld(A) @ ld(B), np.abs(ld(A)) @ np.abs(ld(B)), 11, dtype, "report run")
    # a target the host bound cannot meet: met = False with report, TargetNotMet without
    A, B = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    _, rep = trnblas.gemm(1.0, A, B, report=True, target_forward_error=1e-30)
    assert rep.certified and not rep.met and rep.target == 1e-30
    with pytest.raises(trncore.TargetNotMet, match="trnblas::gemm"):
        trnblas.gemm(1.0, A, B, target_forward_error=1e-30)
    # non-finite input: uncertified, with the reason
    A[0, 0] = np.nan
    _, rep = trnblas.gemm(1.0, A, B, report=True)
    assert not rep.certified and not rep.met and "NaN" in rep.uncertified_reason


def test_gemm_sim_ozaki_against_fp64():
    rng = np.random.default_rng(4)
    A, B = rng.standard_normal((7, 13)), rng.standard_normal((13, 5))
    r, rep = trnblas.gemm(1.0, A, B, backend="sim", mode="ozaki", report=True)
    assert rep.certified and rep.met and rep.cost is not None
    assert rep.a_priori_bound <= 2.0**-50
    exact, mag = ld(A) @ ld(B), np.abs(ld(A)) @ np.abs(ld(B))
    # the report's bound is componentwise relative to |A||B| (plus the long-double oracle's own rounding)
    err = np.abs(ld(r) - exact)
    assert np.all(err <= rep.a_priori_bound * mag + gamma(17, 2.0**-64) * mag)
    # and the result agrees with NumPy's fp64 product to fp64 accuracy
    assert np.allclose(r, A @ B, rtol=1e-14, atol=1e-14)


def test_gemm_sim_modes_and_target():
    rng = np.random.default_rng(5)
    A, B = rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)
    exact, mag = ld(A) @ ld(B), np.abs(ld(A)) @ np.abs(ld(B))
    for mode in ["bf16", "fp32", "compensated"]:
        r, rep = trnblas.gemm(1.0, A, B, backend="sim", mode=mode, report=True)
        assert rep.certified, (mode, rep.uncertified_reason)
        assert np.all(np.abs(ld(r) - exact) <= rep.a_priori_bound * mag), mode
    r_bf16, rep_bf16 = trnblas.gemm(1.0, A, B, backend="sim", mode="bf16", report=True)
    assert rep_bf16.a_priori_bound > 2.0**-10  # bf16 inputs: 8 significant bits
    # automatic mode picks a mode whose certified bound meets the target
    r, rep = trnblas.gemm(1.0, A, B, backend="sim", target_forward_error=1e-6, report=True)
    assert rep.met and rep.a_priori_bound <= 1e-6 and rep.trajectory
    o = trncore.Options(backend="sim", mode="bf16")
    assert np.array_equal(trnblas.gemm(1.0, A, B, options=o), r_bf16)
    with pytest.raises(trncore.NotSupported):
        trnblas.gemm(1.0, np.ones((2, 2), complex), np.ones((2, 2)), backend="sim")


@pytest.mark.parametrize("dtype", DTYPES)
def test_batched_gemm(dtype):
    rng = np.random.default_rng(6)
    b, m, n, k = 5, 7, 3, 4
    A, B, C = rand((b, m, k), dtype, rng), rand((b, k, n), dtype, rng), rand((b, m, n), dtype, rng)
    alpha, beta = scalars(dtype)
    r = trnblas.batched_gemm(alpha, A, B, beta, C)
    assert r.shape == (b, m, n) and r.dtype == dtype
    exact = ld(alpha) * np.matmul(ld(A), ld(B)) + ld(beta) * ld(C)
    mag = abs(alpha) * np.matmul(np.abs(ld(A)), np.abs(ld(B))) + abs(beta) * np.abs(ld(C))
    assert_within(r, exact, mag, k + 2, dtype, "batched")  # per entry gemm's gamma_{k+2}
    # transposed stacks (entries in the other order: transposed views, no copy) and a shared 2-D B
    At = np.ascontiguousarray(np.swapaxes(A, 1, 2))
    r2 = trnblas.batched_gemm(alpha, At, B[0], transA=True)
    exact2 = ld(alpha) * np.matmul(ld(A), ld(B[0]))
    assert_within(r2, exact2, abs(alpha) * np.matmul(np.abs(ld(A)), np.abs(ld(B[0]))), k + 2, dtype, "batched T")
    out = np.zeros((b, m, n), dtype)
    assert trnblas.batched_gemm(alpha, A, B, out=out) is out
    assert trnblas.gemm_strided_batched is trnblas.batched_gemm
    # empty batch
    assert trnblas.batched_gemm(1.0, np.zeros((0, 2, 3), dtype), np.zeros((0, 3, 4), dtype)).shape == (0, 2, 4)


def test_gemm_batched_lists():
    rng = np.random.default_rng(7)
    As = [rng.standard_normal((4, 3)) for _ in range(3)]
    Bs = [np.asfortranarray(rng.standard_normal((3, 2))) for _ in range(3)]
    Cs = [rng.standard_normal((4, 2)) for _ in range(3)]
    res = trnblas.gemm_batched(2.0, As, Bs, 0.5, Cs)
    assert isinstance(res, list) and len(res) == 3
    for a, b_, c, r in zip(As, Bs, Cs, res):
        assert np.allclose(r, 2 * a @ b_ + 0.5 * c, rtol=1e-14, atol=1e-14)
    outs = [np.zeros((4, 2)) for _ in range(3)]
    got = trnblas.gemm_batched(1.0, As, Bs, out=outs)
    assert all(g is o for g, o in zip(got, outs))
    assert trnblas.gemm_batched(1.0, [], []) == []
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.gemm_batched"):
        trnblas.gemm_batched(1.0, As, Bs[:2])
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.gemm_batched"):
        trnblas.gemm_batched(1.0, [np.ones((2, 2)), np.ones((3, 3))], [np.ones((2, 2)), np.ones((3, 3))])


def sym_full(A, uplo, herm=False):
    A = ld(A)
    tri = np.triu(A) if uplo == "upper" else np.tril(A)
    off = np.triu(A, 1) if uplo == "upper" else np.tril(A, -1)
    S = tri + (np.conj(off).T if herm else off.T)
    if herm:
        S[np.diag_indices(len(S))] = S.diagonal().real
    return S


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("uplo", ["upper", "lower"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_symm_hemm(dtype, side, uplo, order):
    rng = np.random.default_rng(8)
    m, n = 7, 5
    K = m if side == "left" else n
    A = np.asarray(rand((K, K), dtype, rng), order=order)
    B, C = rand((m, n), dtype, rng), rand((m, n), dtype, rng)
    alpha, beta = scalars(dtype)
    for herm in ([False, True] if np.dtype(dtype).kind == "c" else [False]):
        S = sym_full(A, uplo, herm)
        f = trnblas.hemm if herm else trnblas.symm
        r = f(alpha, A, B, beta, C, side=side, uplo=uplo)
        prod = S @ ld(B) if side == "left" else ld(B) @ S
        mag = abs(alpha) * (np.abs(S) @ np.abs(ld(B)) if side == "left" else np.abs(ld(B)) @ np.abs(S)) + abs(beta) * np.abs(ld(C))
        assert_within(r, ld(alpha) * prod + ld(beta) * ld(C), mag, K + 2, dtype, f.__name__)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("uplo", ["upper", "lower"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_syrk_syr2k(dtype, trans, uplo, order):
    rng = np.random.default_rng(9)
    n, k = 6, 129
    shape = (k, n) if trans else (n, k)
    A = np.asarray(rand(shape, dtype, rng), order=order)
    B = rand(shape, dtype, rng)
    C = rand((n, n), dtype, rng)
    C = C + C.T
    alpha, beta = 0.75, -1.25
    opA, opB = (ld(A).T, ld(B).T) if trans else (ld(A), ld(B))
    full_C = sym_full(C, uplo)
    r = trnblas.syrk(alpha, A, beta, C, trans=trans, uplo=uplo)
    # full symmetric result (upstream symmetrises); gamma_{k+2}(|alpha||op(A)||op(A)|^T + |beta||C|)
    mag = alpha * np.abs(opA) @ np.abs(opA).T + abs(beta) * np.abs(full_C)
    assert_within(r, alpha * opA @ opA.T + beta * full_C, mag, k + 2, dtype, "syrk")
    r2 = trnblas.syr2k(alpha, A, B, beta, C, trans=trans, uplo=uplo)
    mag2 = alpha * (np.abs(opA) @ np.abs(opB).T + np.abs(opB) @ np.abs(opA).T) + abs(beta) * np.abs(full_C)
    assert_within(r2, alpha * (opA @ opB.T + opB @ opA.T) + beta * full_C, mag2, 2 * k + 2, dtype, "syr2k")
    if np.dtype(dtype).kind == "c":
        H = C + np.conj(C).T
        full_H = sym_full(H, uplo, herm=True)
        opAh, opBh = (np.conj(ld(A)).T, np.conj(ld(B)).T) if trans else (ld(A), ld(B))
        rh = trnblas.herk(alpha, A, beta, H, trans=trans, uplo=uplo)
        magh = alpha * np.abs(opAh) @ np.abs(opAh).T + abs(beta) * np.abs(full_H)
        assert_within(rh, alpha * opAh @ np.conj(opAh).T + beta * full_H, magh, k + 2, dtype, "herk")
        al = 0.75 - 0.5j
        rh2 = trnblas.her2k(al, A, B, beta, H, trans=trans, uplo=uplo)
        exact = ld(al) * opAh @ np.conj(opBh).T + np.conj(ld(al)) * opBh @ np.conj(opAh).T + beta * full_H
        magh2 = abs(al) * (np.abs(opAh) @ np.abs(opBh).T + np.abs(opBh) @ np.abs(opAh).T) + abs(beta) * np.abs(full_H)
        assert_within(rh2, exact, magh2, 2 * k + 2, dtype, "her2k")


def test_syrk_out_writes_one_triangle():
    A = np.arange(6.0).reshape(3, 2)
    out = np.full((3, 3), -1.0)
    assert trnblas.syrk(1.0, A, out=out, uplo="lower") is out
    assert np.array_equal(np.tril(out), np.tril(A @ A.T)) and np.all(out[np.triu_indices(3, 1)] == -1)
    assert np.allclose(trnblas.syrk(1.0, A), A @ A.T)  # new result: the full symmetric matrix (upstream)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("uplo", ["upper", "lower"])
@pytest.mark.parametrize("trans", [False, True, "C"])
@pytest.mark.parametrize("diag", ["nonunit", "unit"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_trmm_trsm(dtype, side, uplo, trans, diag, order):
    rng = np.random.default_rng(10)
    m, n = 7, 128
    K = m if side == "left" else n
    A = np.asarray(rand((K, K), dtype, rng) + 4 * np.eye(K, dtype=dtype), order=order)
    B = rand((m, n), dtype, rng)
    alpha = scalars(dtype)[0]
    tri = ld(np.triu(A) if uplo == "upper" else np.tril(A))
    if diag == "unit":
        tri[np.diag_indices(K)] = 1
    op = OPS[trans](tri)
    r = trnblas.trmm(alpha, A, B, side=side, uplo=uplo, trans=trans, diag=diag)
    prod = op @ ld(B) if side == "left" else ld(B) @ op
    mag = abs(alpha) * (np.abs(op) @ np.abs(ld(B)) if side == "left" else np.abs(ld(B)) @ np.abs(op))
    assert_within(r, ld(alpha) * prod, mag, K + 1, dtype, "trmm")  # gamma_{K+1}|alpha||op(A)||B|
    X = trnblas.trsm(alpha, A, B, side=side, uplo=uplo, trans=trans, diag=diag)
    # residual bound: |alpha B - op(A) X^| <= gamma_{K+1}|op(A)||X^| + u|alpha||B|
    res = op @ ld(X) if side == "left" else ld(X) @ op
    magx = np.abs(op) @ np.abs(ld(X)) if side == "left" else np.abs(ld(X)) @ np.abs(op)
    err = np.abs(ld(alpha) * ld(B) - res)
    bound = gamma(K + 1, unit(dtype)) * magx + unit(dtype) * abs(alpha) * np.abs(ld(B)) + gamma(K + 4, 2.0**-64) * magx
    assert np.all(err <= bound)


def test_trsm_scipy_and_in_place():
    rng = np.random.default_rng(11)
    A = np.triu(rng.standard_normal((5, 5))) + 5 * np.eye(5)
    B = rng.standard_normal((5, 3))
    X = trnblas.trsm(2.0, A, B)
    assert np.allclose(X, scipy.linalg.solve_triangular(A, 2 * B), rtol=1e-13)
    assert np.allclose(trnblas.trmm(1.0, A, B, trans=True), scipy.linalg.blas.dtrmm(1.0, A, B, trans_a=1), rtol=1e-14)
    Bf = np.asfortranarray(B)
    assert trnblas.trsm(2.0, A, Bf, out=Bf) is Bf and np.allclose(Bf, X, rtol=1e-14)


def test_batched_broadcast_c_and_array_sequences():
    rng = np.random.default_rng(12)
    A, B, C = rng.standard_normal((3, 4, 5)), rng.standard_normal((3, 5, 2)), rng.standard_normal((4, 2))
    # a 2-D C is added to every entry (NumPy broadcasting), as upstream's beta * C
    assert np.allclose(trnblas.batched_gemm(1.0, A, B, 2.0, C), A @ B + 2 * C, rtol=1e-14, atol=1e-14)
    # a 3-D array is a sequence of matrices for the pointer-array form
    res = trnblas.gemm_batched(1.0, A, B)
    assert np.allclose(np.stack(res), A @ B, rtol=1e-14, atol=1e-14)
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.batched_gemm"):
        trnblas.batched_gemm(1.0, A, B[:2])
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.batched_gemm"):
        trnblas.batched_gemm(1.0, A[0], B[0])
    with pytest.raises(trncore.NotSupported, match="trnblas::gemm_strided_batched"):
        trnblas.batched_gemm(1.0, A, B, backend="sim")
