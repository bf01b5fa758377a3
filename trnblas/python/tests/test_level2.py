"""trnblas level 2 bindings against NumPy formulas (long-double oracles, bounds of docs/trnblas.md)."""
import numpy as np
import pytest
import scipy.linalg

import trncore
import trnblas
from blas_oracle import COMPLEX, DTYPES, REAL, assert_within, ld, rand

SHAPES = [(0, 0), (1, 1), (7, 5), (5, 7), (129, 128)]


def scalars(dtype):
    # Exactly representable in every dtype, so the oracle uses the routine's own alpha and beta.
    return (0.75 - 0.5j, -1.25 + 0.25j) if np.dtype(dtype).kind == "c" else (0.75, -1.25)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("trans", [False, True, "C"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_gemv(dtype, shape, trans, order):
    rng = np.random.default_rng(sum(shape))
    A = np.asarray(rand(shape, dtype, rng), order=order)
    opA = {False: ld(A), True: ld(A).T, "C": np.conj(ld(A)).T}[trans]
    x, y = rand(opA.shape[1], dtype, rng), rand(opA.shape[0], dtype, rng)
    alpha, beta = scalars(dtype)
    r = trnblas.gemv(alpha, A, x, beta, y, trans=trans)
    # gamma_{K+2} (|alpha||op(A)||x| + |beta||y|), K = len(x)
    mag = abs(alpha) * (np.abs(opA) @ np.abs(ld(x))) + abs(beta) * np.abs(ld(y))
    assert_within(r, ld(alpha) * (opA @ ld(x)) + ld(beta) * ld(y), mag, len(x) + 2, dtype, "gemv")
    # Upstream: beta is ignored without y.
    r0 = trnblas.gemv(alpha, A, x, beta, trans=trans)
    assert_within(r0, ld(alpha) * (opA @ ld(x)), abs(alpha) * (np.abs(opA) @ np.abs(ld(x))), len(x) + 2, dtype, "gemv0")


def test_gemv_in_place_and_views():
    A = np.arange(12.0).reshape(3, 4)
    x = np.ones(4)
    y = np.ones(3)
    r = trnblas.gemv(1.0, A, x, 2.0, y, out=y)
    assert r is y and np.array_equal(y, A @ x + 2)
    # A row slice and a column slice are views with a leading dimension: no copy needed, right values.
    big = np.arange(60.0).reshape(6, 10)
    assert np.array_equal(trnblas.gemv(1.0, big[1:4, 2:7], np.ones(5)), big[1:4, 2:7] @ np.ones(5))
    assert np.array_equal(trnblas.gemv(1.0, big.T[2:7, 1:4], np.ones(3)), big.T[2:7, 1:4] @ np.ones(3))
    # A fully strided matrix (neither axis unit stride) is copied, not misread.
    assert np.array_equal(trnblas.gemv(1.0, big[::2, ::3], np.ones(4)), big[::2, ::3] @ np.ones(4))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 7, 129])
@pytest.mark.parametrize("uplo", ["upper", "lower"])
def test_symv_hemv(dtype, n, uplo):
    rng = np.random.default_rng(n)
    A = rand((n, n), dtype, rng)
    x, y = rand(n, dtype, rng), rand(n, dtype, rng)
    alpha, beta = scalars(dtype)
    tri = np.triu if uplo == "upper" else np.tril
    herm = np.dtype(dtype).kind == "c"
    T = ld(tri(A))
    off = tri(ld(A), 1 if uplo == "upper" else -1)
    if herm:
        S = T + np.conj(off).T
        S[np.diag_indices(n)] = S.diagonal().real  # hemv takes the diagonal's imaginary parts as zero
        r = trnblas.hemv(alpha, A, x, beta, y, uplo=uplo)
    else:
        S = T + off.T
        r = trnblas.symv(alpha, A, x, beta, y, uplo=uplo)
    mag = abs(alpha) * (np.abs(S) @ np.abs(ld(x))) + abs(beta) * np.abs(ld(y))
    assert_within(r, ld(alpha) * (S @ ld(x)) + ld(beta) * ld(y), mag, n + 2, dtype, "symv")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 7, 128])
@pytest.mark.parametrize("uplo", ["upper", "lower"])
@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("diag", ["nonunit", "unit"])
def test_trmv_trsv(dtype, n, uplo, trans, diag):
    rng = np.random.default_rng(n + 3)
    A = rand((n, n), dtype, rng) + 4 * np.eye(n, dtype=dtype)  # well conditioned for trsv
    x = rand(n, dtype, rng)
    tri = ld(np.triu(A) if uplo == "upper" else np.tril(A))
    if diag == "unit":
        tri[np.diag_indices(n)] = 1
    op = tri.T if trans else tri
    r = trnblas.trmv(A, x, uplo=uplo, trans=trans, diag=diag)
    assert_within(r, op @ ld(x), np.abs(op) @ np.abs(ld(x)), max(n, 1), dtype, "trmv")  # gamma_n |op(A)||x|
    # trsv, checked by its backward bound: |b - op(A) x^| <= gamma_{n+1} |op(A)||x^| (Higham Thm 8.5)
    s = trnblas.trsv(A, x, uplo=uplo, trans=trans, diag=diag)
    assert_within(op @ ld(s), ld(x), np.abs(op) @ np.abs(ld(s)), n + 1, dtype, "trsv residual")
    # upstream trmv against scipy's BLAS
    if n and dtype == np.float64 and diag == "nonunit":
        ref = scipy.linalg.blas.dtrmv(np.asfortranarray(A), x, lower=uplo == "lower", trans=int(trans))
        assert np.allclose(r, ref, rtol=1e-13, atol=1e-13)
    xx = x.copy()
    assert trnblas.trsv(A, xx, uplo=uplo, trans=trans, diag=diag, out=xx) is xx


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (7, 5), (129, 2)])
def test_ger(dtype, shape):
    rng = np.random.default_rng(9)
    x, y = rand(shape[0], dtype, rng), rand(shape[1], dtype, rng)
    A = rand(shape, dtype, rng)
    alpha, _ = scalars(dtype)
    outer = np.outer(ld(x), ld(y))  # unconjugated: np.outer, upstream torch.outer
    mag = abs(alpha) * np.outer(np.abs(ld(x)), np.abs(ld(y))) + np.abs(ld(A))
    assert_within(trnblas.ger(alpha, x, y, A), ld(alpha) * outer + ld(A), mag, 3, dtype, "ger")  # gamma_3
    assert_within(trnblas.ger(alpha, x, y), ld(alpha) * outer, mag, 3, dtype, "ger no A")
    if np.dtype(dtype).kind == "c":
        assert_within(trnblas.geru(alpha, x, y, A), ld(alpha) * outer + ld(A), mag, 3, dtype, "geru")
        outc = np.outer(ld(x), np.conj(ld(y)))
        assert_within(trnblas.gerc(alpha, x, y, A), ld(alpha) * outc + ld(A), mag, 3, dtype, "gerc")
    F = A.copy(order="F")
    assert trnblas.ger(alpha, x, y, F, out=F) is F  # Fortran order in place
    assert_within(F, ld(alpha) * outer + ld(A), mag, 3, dtype, "ger F in place")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("uplo", ["upper", "lower"])
def test_syr_syr2_her_her2(dtype, uplo):
    rng = np.random.default_rng(11)
    n = 7
    x, y = rand(n, dtype, rng), rand(n, dtype, rng)
    A = rand((n, n), dtype, rng)
    herm = np.dtype(dtype).kind == "c"
    alpha = 0.75
    keep = np.triu if uplo == "upper" else np.tril
    if herm:
        A = A + A.conj().T
        one = trnblas.her(alpha, x, A, uplo=uplo)
        exact1 = alpha * np.outer(ld(x), np.conj(ld(x))) + ld(A)
        two = trnblas.her2(alpha, x, y, A, uplo=uplo)
        exact2 = alpha * np.outer(ld(x), np.conj(ld(y))) + alpha * np.outer(ld(y), np.conj(ld(x))) + ld(A)
    else:
        A = A + A.T
        one = trnblas.syr(alpha, x, A, uplo=uplo)
        exact1 = alpha * np.outer(ld(x), ld(x)) + ld(A)
        two = trnblas.syr2(alpha, x, y, A, uplo=uplo)
        exact2 = alpha * (np.outer(ld(x), ld(y)) + np.outer(ld(y), ld(x))) + ld(A)
    mag1 = alpha * np.outer(np.abs(ld(x)), np.abs(ld(x))) + np.abs(ld(A))
    mag2 = alpha * 2 * np.outer(np.abs(ld(x)), np.abs(ld(y))) + alpha * 2 * np.outer(np.abs(ld(y)), np.abs(ld(x))) + np.abs(ld(A))
    # New results hold the full matrix (the other triangle mirrored): compare everywhere.
    assert_within(one, exact1, mag1, 3, dtype, "syr/her")  # gamma_3
    assert_within(two, exact2, mag2, 4, dtype, "syr2/her2")  # gamma_4
    # out=: only the uplo triangle is written.
    Z = np.full((n, n), 7, dtype)
    (trnblas.her if herm else trnblas.syr)(alpha, x, uplo=uplo, out=Z)
    other = np.tril(np.ones((n, n), bool), -1) if uplo == "upper" else np.triu(np.ones((n, n), bool), 1)
    assert np.all(Z[other] == 7)


def test_level2_errors():
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.gemv"):
        trnblas.gemv(1.0, np.ones((3, 4)), np.ones(3))
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.gemv"):
        trnblas.gemv(1.0, np.ones((3, 4)), np.ones(4), 1.0, np.ones(4))
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.symv"):
        trnblas.symv(1.0, np.ones((3, 4)), np.ones(4))
    with pytest.raises(trncore.InvalidArgument, match="trnblas.symv.*hemv"):
        trnblas.symv(1.0, np.ones((2, 2), complex), np.ones(2))
    with pytest.raises(trncore.InvalidArgument, match="trnblas.trmv.*uplo"):
        trnblas.trmv(np.eye(2), np.ones(2), uplo="middle")
    with pytest.raises(trncore.InvalidArgument, match="trnblas.trmv.*diag"):
        trnblas.trmv(np.eye(2), np.ones(2), diag="maybe")
    with pytest.raises(trncore.InvalidArgument, match="trnblas.trsv.*trans"):
        trnblas.trsv(np.eye(2), np.ones(2), trans="X")
    with pytest.raises(trncore.InvalidArgument, match="trnblas.her.*real"):
        trnblas.her(1j, np.ones(2, complex))
    with pytest.raises(trncore.InvalidArgument, match="trnblas::gemv"):  # out overlapping A: the library's check
        A = np.ones((3, 3))
        trnblas.gemv(1.0, A, np.ones(3), out=A[0])
