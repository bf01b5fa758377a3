"""trnsparse operations, screening and attention against scipy.sparse / NumPy on the same data.

Tolerances are the C++ bounds. SpMV/SpMM (host, docs/trnsparse.md): elementwise
|ŷ_i − y_i| ≤ γ_{m_i+3}·(|α|·(|A||x|)_i + |β||y_i|), γ_n = n·u/(1 − n·u), m_i the stored entries of row i,
checked against a long-double reference (its own error, ~2^-64 relative, is covered by the 1.01 factor).
"""
import sys
import threading
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

import trncore
import trnsparse as ts


def gamma(n, dtype):
    u = np.finfo(dtype).eps / 2
    return n * u / (1 - n * u)


def rand_csr(m, n, density=0.2, seed=0, dtype=np.float64):
    A = sp.random(m, n, density=density, random_state=seed, format="csr", dtype=np.float64)
    return A.astype(dtype)


def spmv_bound(A, x, alpha, beta, y0, dtype):
    m = np.diff(A.indptr)
    absx = np.abs(x.astype(np.float64))
    mag = abs(alpha) * (abs(A.astype(np.float64)) @ absx) + abs(beta) * np.abs(y0.astype(np.float64))
    return 1.01 * gamma(m + 3, dtype) * mag


SIZES = [(0, 0), (1, 1), (3, 0), (0, 4), (7, 13), (131, 127), (128, 129)]


@pytest.mark.parametrize("m,n", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_spmv_against_scipy_with_bound(m, n, dtype):
    rng = np.random.default_rng(m * 1000 + n)
    A = rand_csr(m, n, 0.15, seed=m + n, dtype=dtype)
    if m > 2:  # an empty row and an empty column
        A = A.tolil()
        A[1, :] = 0
        if n > 2:
            A[:, 2] = 0
        A = A.tocsr()
        A.eliminate_zeros()
    x = rng.standard_normal(n).astype(dtype)
    y0 = rng.standard_normal(m).astype(dtype)
    alpha, beta = 1.5, -0.5
    ref = alpha * (A.astype(np.longdouble) @ x.astype(np.longdouble)) + beta * y0.astype(np.longdouble)
    y = y0.copy()
    out = ts.spmv(ts.from_scipy(A), x, alpha, y, beta)
    assert out is y and (m == 0 or np.shares_memory(out, y)) and out.dtype == dtype  # in place, returned
    assert np.all(np.abs(y.astype(np.longdouble) - ref) <= spmv_bound(A, x, alpha, beta, y0, dtype))
    new = ts.spmv(A, x)  # scipy input accepted; new array; beta ignored
    assert np.all(np.abs(new - A.astype(np.longdouble) @ x) <= spmv_bound(A, x, 1, 0, np.zeros(m), dtype))
    if m > 2:
        assert y[1] == dtype(beta) * y0[1]  # empty row: alpha·0 + beta·y exactly


def test_spmv_trans_bsr_and_threads_bitwise():
    A = rand_csr(300, 200, 0.05, seed=1)
    rng = np.random.default_rng(1)
    x = rng.standard_normal(300)
    yt = ts.spmv(A, x, trans=True)
    assert np.all(np.abs(yt - A.T.astype(np.longdouble) @ x) <= spmv_bound(A.T.tocsr(), x, 1, 0, np.zeros(200), np.float64))
    z = rng.standard_normal(200)
    a1 = ts.spmv(A, z, threads=1)
    a2 = ts.spmv(A, z, threads=2)
    assert np.array_equal(a1, a2)  # each row summed by one thread in storage order
    B = ts.from_scipy(A).to_bsr(16)
    yb = ts.spmv(B, z)
    assert np.allclose(yb, A @ z, rtol=0, atol=1e-13)


def test_spmm_csr_and_bsr_host():
    A = rand_csr(37, 29, 0.2, seed=2)
    rng = np.random.default_rng(2)
    B = rng.standard_normal((29, 5))
    C0 = rng.standard_normal((37, 5))
    C = C0.copy()
    out = ts.spmm(ts.from_scipy(A), B, 2.0, C, 0.5)
    assert out is C and np.shares_memory(out, C)
    ref = 2.0 * (A.astype(np.longdouble) @ B) + 0.5 * C0
    mag = 2.0 * (abs(A) @ np.abs(B)) + 0.5 * np.abs(C0)
    bound = 1.01 * gamma(np.diff(A.indptr) + 3, np.float64)[:, None] * mag
    assert np.all(np.abs(C - ref) <= bound)
    Ct = ts.spmm(A, rng.standard_normal((37, 3)), trans=True)
    assert Ct.shape == (29, 3)
    # BSR on the host: componentwise ((1+ε)^{k+1} − 1)(|α||A||B|), reported.
    Ab = ts.from_scipy(A).to_bsr(8)
    Cb, rep = ts.spmm(Ab, B, report=True)
    assert rep.certified and rep.met and rep.cost is None
    assert np.all(np.abs(Cb - A.astype(np.longdouble) @ B) <= rep.a_priori_bound * (abs(A) @ np.abs(B)) * 1.01)
    # Fortran-ordered in-place output is refused, not copied behind the caller's back
    with pytest.raises(trncore.InvalidArgument, match="C-ordered"):
        ts.spmm(A, B, C=np.asfortranarray(np.zeros((37, 5))), beta=1.0)


@pytest.mark.parametrize("mode", ["bf16", "fp32", "ozaki"])
def test_bsr_spmm_sim_within_reported_bound(mode):
    rng = np.random.default_rng(3)
    D = np.zeros((200, 257), dtype=np.float32)
    D[:128, 128:256] = rng.standard_normal((128, 128))
    D[128:, :128] = rng.standard_normal((72, 128))
    D[5, 256] = 1.5  # an entry in the ragged last block column
    A = ts.BSRMatrix.from_dense(D, block_size=128)
    B = rng.standard_normal((257, 9)).astype(np.float32)
    C, rep = ts.bsr_spmm(A, B, backend="sim", mode=mode, report=True)
    assert rep.certified and rep.cost is not None
    ref = D.astype(np.longdouble) @ B.astype(np.longdouble)
    assert np.all(np.abs(C - ref) <= rep.a_priori_bound * (np.abs(D) @ np.abs(B)).astype(np.longdouble))
    with pytest.raises(trncore.TargetNotMet):
        ts.bsr_spmm(A, B, backend="sim", mode="bf16", target_forward_error=1e-12)
    _, rep2 = ts.bsr_spmm(A, B, backend="sim", mode="bf16", target_forward_error=1e-12, report=True)
    assert rep2.certified and not rep2.met and rep2.target == 1e-12


def test_sim_csr_not_supported():
    A = rand_csr(4, 4, 0.5, seed=4)
    with pytest.raises(trncore.NotSupported, match="spmv"):
        ts.spmv(A, np.ones(4), backend="sim")
    with pytest.raises(trncore.NotSupported):
        ts.spmm(A, np.ones((4, 2)), report=True)


def test_spmv_symmetric_and_spgemm():
    S = rand_csr(40, 40, 0.1, seed=5)
    S = (S + S.T).tocsr()
    upper = sp.triu(S).tocsr()
    x = np.random.default_rng(5).standard_normal(40)
    got = ts.spmv_symmetric(upper, x, 2.0)
    assert np.allclose(got, 2.0 * (S @ x), rtol=0, atol=40 * 1e-15 * np.max(abs(S) @ np.abs(x)))
    assert np.allclose(ts.spmv_symmetric(sp.tril(S).tocsr(), x, uplo="lower"), S @ x, rtol=0, atol=1e-13)
    with pytest.raises(trncore.InvalidArgument, match="spmv_symmetric"):
        ts.spmv_symmetric(S, x)  # both triangles stored
    with pytest.raises(trncore.InvalidArgument, match="uplo"):
        ts.spmv_symmetric(upper, x, uplo="both")
    A, B = rand_csr(20, 30, 0.2, seed=6), rand_csr(30, 10, 0.2, seed=7)
    C = ts.spgemm(A, B)
    assert ts.is_canonical(C)
    ref = A @ B
    assert np.allclose(C.to_dense(), ref.toarray(), rtol=0, atol=30 * 2.3e-16 * (abs(A) @ abs(B)).toarray().max())
    with pytest.raises(trncore.DimensionMismatch):
        ts.spgemm(A, A)


def test_screening_against_bruteforce():
    rng = np.random.default_rng(8)
    n = 7
    G = rng.standard_normal((n * n, 3)) * np.exp(-rng.uniform(0, 12, (n * n, 1)))
    diag = (G * G).sum(1).reshape(n, n)  # (ij|ij) of a PSD pair-Gram matrix
    Q = ts.schwarz_bounds(diag)
    assert np.allclose(Q, np.sqrt(diag), rtol=1e-15, atol=0)
    tau = 1e-6
    qf = Q.ravel()
    prod = np.outer(qf, qf)
    st = ts.quartet_screening(Q, tau)
    assert st.kept_quartets == int((prod > tau).sum()) and st.quartets == n ** 4
    sig = ts.significant_pairs(Q, tau)
    assert sig.nnz == int((qf * qf.max() > tau).sum())
    D = rng.standard_normal((n, n))
    dw = ts.density_weighted_screening(Q, D, tau)
    assert dw.kept_quartets == int((prod * np.abs(D.ravel())[None, :] > tau).sum())
    stats = ts.sparsity_stats(Q, 1e-10)
    mask = Q > 1e-5
    assert stats["n_shells"] == n and stats["significant_pairs"] == int(mask.sum())
    assert stats["significant_quartets_upper"] == int(mask.sum()) ** 2
    assert stats["significant_quartets"] == int((prod > 1e-10).sum())
    assert np.array_equal(ts.screen_quartets(Q, 1e-10), mask)
    pq = np.abs(D) * Q
    assert np.array_equal(ts.density_screen(Q, D, 1e-10), Q * pq.max() > 1e-10)
    ms = ts.sparsity_stats(rand_csr(10, 12, 0.3, seed=9))
    assert ms.rows == 10 and ms.cols == 12
    with pytest.raises(trncore.InvalidArgument, match="schwarz_bounds"):
        ts.schwarz_bounds(-np.ones((2, 2)))
    with pytest.raises(trncore.DimensionMismatch):
        ts.schwarz_bounds(np.ones((2, 3)))
    with pytest.raises(trncore.InvalidArgument, match="quartet_screening"):
        ts.quartet_screening(Q, -1.0)


def test_screened_spmm():
    rng = np.random.default_rng(10)
    A = rand_csr(30, 30, 0.3, seed=10)
    A.data *= np.exp(-rng.uniform(0, 20, A.nnz))
    B = rng.standard_normal((30, 4))
    full = A.astype(np.longdouble) @ B
    C, rep = ts.screened_spmm(A, None, B, 1e-6, report=True)
    assert rep.kept_entries + rep.dropped_entries == A.nnz and rep.dropped_entries > 0
    # rigorous: |C − full| ≤ dropped bound + spmm rounding (γ_{m+3}|A||B|)
    slack = gamma(30 + 3, np.float64) * (abs(A) @ np.abs(B))
    assert np.all(np.abs(C - full) <= rep.max_row_dropped_bound + slack)
    # upstream semantics with diag_integrals: pair mask Q_i Q_j > sqrt(threshold), then the exact product
    d = rng.uniform(0, 1, 30) * np.exp(-rng.uniform(0, 20, 30))
    q = np.sqrt(d)
    dense = A.toarray()
    ref = (dense * (np.outer(q, q) > np.sqrt(1e-8))) @ B
    got = ts.screened_spmm(dense, d, B, 1e-8)
    assert np.allclose(got, ref, rtol=0, atol=30 * 2.3e-16 * (np.abs(dense) @ np.abs(B)).max())
    with pytest.raises(trncore.DimensionMismatch, match="screened_spmm"):
        ts.screened_spmm(dense, d[:5], B, 1e-8)
    with pytest.raises(trncore.InvalidArgument):
        ts.screened_spmm(A, None, B, -1.0)


def dense_attention(Q, K, V, block_mask, block, scale):
    L = Q.shape[0]
    allowed = np.repeat(np.repeat(block_mask, block, 0), block, 1)[:L, :L]
    S = scale * (Q.astype(np.longdouble) @ K.T.astype(np.longdouble))
    S[~allowed] = -np.inf
    out = np.zeros((L, V.shape[1]), dtype=np.longdouble)
    rows = allowed.any(1)
    Sm = S[rows] - S[rows].max(1, keepdims=True)
    P = np.exp(Sm)
    P /= P.sum(1, keepdims=True)
    out[rows] = P @ V.astype(np.longdouble)
    return out, np.where(rows[:, None], np.abs(P) @ np.abs(V) if rows.any() else 0, 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_block_sparse_attention(dtype):
    rng = np.random.default_rng(11)
    L, d, dv, block = 300, 16, 8, 64  # ragged last block
    Q, K, V = (rng.standard_normal((L, k)).astype(dtype) for k in (d, d, dv))
    mask = ts.mask_union(ts.local_window_mask(L, block, 1, causal=True), ts.global_tokens_mask(L, block, [0]))
    O, rep = ts.block_sparse_attention(Q, K, V, mask, report=True)
    assert rep.certified and O.dtype == dtype
    bm = mask.pattern.to_dense() != 0
    ref, _ = dense_attention(Q, K, V, bm, block, 1 / np.sqrt(d))
    P_abs_V = np.abs(ref)  # not a bound; the bound is relative to Σ p|v|: compute it
    allowed = np.repeat(np.repeat(bm, block, 0), block, 1)[:L, :L]
    S = (Q.astype(np.float64) @ K.T.astype(np.float64)) / np.sqrt(d)
    S[~allowed] = -np.inf
    P = np.exp(S - S.max(1, keepdims=True))
    P /= P.sum(1, keepdims=True)
    mag = P @ np.abs(V.astype(np.float64))
    assert np.all(np.abs(O - ref) <= rep.a_priori_bound * mag * 1.001)
    del P_abs_V
    # upstream spelling with a BSRMatrix mask
    O2 = ts.block_sparse_attention_tiled(Q, K, V, mask.to_bsr())
    assert np.array_equal(O, O2)
    # an empty block row gives zeros
    empty = ts.BSRMatrix(np.ones((1, block, block), dtype=np.float32), np.array([0]), np.array([0, 1, 1, 1, 1, 1]),
                         (L, L), block)
    Oe = ts.block_sparse_attention(Q, K, V, empty)
    assert np.all(Oe[block:] == 0)
    with pytest.raises(trncore.DimensionMismatch, match="block_sparse_attention"):
        ts.block_sparse_attention(Q[:10], K, V, mask)
    with pytest.raises(trncore.InvalidArgument):
        ts.block_sparse_attention(Q, K, V, np.ones((5, 5)))
    with pytest.raises(trncore.InvalidArgument):
        ts.local_window_mask(L, 0, 1)


# ---- bad input for every operation: the trncore exception naming the function, never a crash ----
# The first field is what the message must name: the Python function for glue checks, the C++ function
# (trnsparse::add, trnsparse::scale, trncore::parse_math_mode) for the library's own, whose names are kept.

A3 = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 3, 0], [4, 0, 5]]))

BAD_CALLS = [
    ("spmv", lambda: ts.spmv(A3, np.ones(4)), trncore.DimensionMismatch),
    ("spmv", lambda: ts.spmv(A3, np.ones((3, 1))), trncore.DimensionMismatch),
    ("spmv", lambda: ts.spmv(A3, np.ones(3, dtype=complex)), trncore.InvalidArgument),
    ("spmv", lambda: ts.spmv(A3, np.array(["a", "b", "c"])), trncore.InvalidArgument),
    ("spmv", lambda: ts.spmv(A3, np.ones(3), y=np.ones(3, dtype=np.float32), beta=1.0), trncore.InvalidArgument),
    ("spmv", lambda: ts.spmv(A3, np.ones(3), y=np.ones(4), beta=1.0), trncore.DimensionMismatch),
    ("spmv", lambda: ts.spmv(A3, np.ones(3), mode="bf16"), trncore.NotSupported),
    ("spmv", lambda: ts.spmv(A3, np.ones(3), threads=-1), trncore.InvalidArgument),
    ("spmv", lambda: ts.spmv(np.eye(3), np.ones(3)), trncore.InvalidArgument),
    ("spmv", lambda: (lambda v: ts.spmv(A3, v, y=v))(np.ones(3)), trncore.InvalidArgument),  # y aliases x
    ("spmm", lambda: (lambda m: ts.spmm(A3, m, C=m))(np.ones((3, 3))), trncore.InvalidArgument),  # C aliases B
    ("spmm", lambda: ts.spmm(A3, np.ones((4, 2))), trncore.DimensionMismatch),
    ("spmm", lambda: ts.spmm(A3, np.ones(3)), trncore.DimensionMismatch),
    ("spmm", lambda: ts.spmm(A3, np.ones((3, 2)), C=np.ones((3, 3)), beta=1.0), trncore.DimensionMismatch),
    ("spmm", lambda: ts.spmm(ts.from_scipy(A3).to_bsr(2), np.ones((3, 2)), trans=True), trncore.NotSupported),
    ("bsr_spmm", lambda: ts.bsr_spmm(A3, np.ones((2, 2))), trncore.DimensionMismatch),
    ("math mode", lambda: ts.bsr_spmm(A3, np.ones((3, 2)), backend="sim", mode="nonsense"), trncore.ParseError),
    ("add", lambda: ts.sparse_add(A3, sp.eye(4, format="csr")), trncore.DimensionMismatch),
    ("scale", lambda: ts.sparse_scale(ts.CSRMatrix([1.0], [5], [0, 1], (1, 2)), 2.0), trncore.InvalidArgument),
    ("sparse_transpose", lambda: ts.sparse_transpose("A"), trncore.InvalidArgument),
    ("nnz_per_row", lambda: ts.nnz_per_row(ts.CSRMatrix([1.0], [0], [0, 2], (1, 1))), trncore.InvalidArgument),
    ("spgemm", lambda: ts.spgemm(A3, np.eye(3)), trncore.InvalidArgument),
    ("screened_spmm", lambda: ts.screened_spmm(A3, None, np.ones((2, 2)), 0.1), trncore.DimensionMismatch),
    ("quartet_screening", lambda: ts.quartet_screening(np.ones(3), 0.1), trncore.DimensionMismatch),
    ("significant_pairs", lambda: ts.significant_pairs(np.full((2, 2), np.nan), 0.1), trncore.InvalidArgument),
    ("density_weighted_screening", lambda: ts.density_weighted_screening(np.ones((2, 2)), np.ones((3, 3)), 0.1),
     trncore.DimensionMismatch),
    ("block_sparse_attention", lambda: ts.block_sparse_attention(np.ones((4, 2)), np.ones((4, 3)), np.ones((4, 2)),
                                                                   ts.local_window_mask(4, 2, 1)),
     trncore.DimensionMismatch),
    ("dilated_mask", lambda: ts.dilated_mask(8, 2, 1, 0), trncore.InvalidArgument),
    ("global_tokens_mask", lambda: ts.global_tokens_mask(8, 2, [9]), trncore.InvalidArgument),
    ("mask_union", lambda: ts.mask_union(ts.local_window_mask(8, 2, 1), ts.local_window_mask(8, 4, 1)),
     trncore.DimensionMismatch),
]


@pytest.mark.parametrize("name,call,cls", BAD_CALLS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD_CALLS)])
def test_bad_input_raises(name, call, cls):
    with pytest.raises(cls) as e:
        call()
    assert name in str(e.value)
    assert e.value.function and e.value.problem  # set for glue and library errors alike


@pytest.mark.parametrize("call", [
    lambda: ts.spmv(A3, np.ones(3), colour=1),
    lambda: ts.spmm(A3, np.ones((3, 1)), colour=1),
    lambda: ts.bsr_spmm(A3, np.ones((3, 1)), colour=1),
    lambda: ts.spgemm(A3, A3, colour=1),
    lambda: ts.screened_spmm(A3, None, np.ones((3, 1)), 0.1, colour=1),
    lambda: ts.block_sparse_attention(np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 2)), ts.local_window_mask(4, 2, 1),
                                      colour=1),
])
def test_unknown_keyword_is_type_error(call):
    with pytest.raises(TypeError, match="colour"):
        call()


def test_bad_option_string():
    with pytest.raises(trncore.ParseError):
        ts.spmv(A3, np.ones(3), backend="gpu")


def test_refcount_and_leak():
    A = ts.from_scipy(A3)
    x = np.ones(3)
    y = np.zeros(3)
    refs = [sys.getrefcount(o) for o in (A, A.values, A.col_indices, A.row_ptrs, x, y)]
    for _ in range(100):
        ts.spmv(A, x, y=y)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(10000):
        ts.spmv(A, x, 1.0, y, 0.0)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 1 << 20
    assert refs == [sys.getrefcount(o) for o in (A, A.values, A.col_indices, A.row_ptrs, x, y)]


def test_two_threads_match_sequential():
    rng = np.random.default_rng(12)
    r, c = rng.integers(0, 20000, 200000), rng.integers(0, 20000, 200000)
    A = ts.COOMatrix(rng.standard_normal(200000), r, c, (20000, 20000)).to_csr()
    xs = [np.random.default_rng(s).standard_normal(20000) for s in (1, 2)]
    seq = [ts.spmv(A, x) for x in xs]
    out = [None, None]

    def work(i):
        for _ in range(5):
            out[i] = ts.spmv(A, xs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(o, s) for o, s in zip(out, seq))


def test_nnz_zero_and_one_by_one():
    Z = ts.CSRMatrix(np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(6, dtype=np.int64), (5, 4))
    y = np.arange(5.0)
    assert np.array_equal(ts.spmv(Z, np.ones(4), 2.0, y, 0.5), 0.5 * np.arange(5.0))
    assert np.array_equal(ts.spmm(Z, np.ones((4, 3))), np.zeros((5, 3)))
    assert ts.to_bsr(Z, 2).n_blocks == 0 and ts.nnz_per_row(Z).sum() == 0
    assert np.array_equal(ts.bsr_spmm(Z, np.ones((4, 3))), np.zeros((5, 3)))
    one = ts.CSRMatrix([3.0], [0], [0, 1], (1, 1))
    assert ts.spmv(one, np.array([2.0]))[0] == 6.0
    x, iters, rel = ts.cg(one, np.array([6.0]))
    assert x[0] == 2.0 and rel == 0.0
    assert ts.Lu(one).solve(np.array([6.0]))[0] == 2.0
