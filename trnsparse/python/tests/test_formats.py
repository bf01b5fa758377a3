"""trnsparse formats, conversions and Matrix Market against scipy.sparse / scipy.io on the same data.

Conversions move values without arithmetic (only summed duplicates round, once each, in storage order), so
every comparison here is exact (np.array_equal), except the duplicate sums, compared with scipy's own sums.
"""
import io

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import trncore
import trnsparse as ts


def rand_csr(m, n, density=0.2, seed=0, dtype=np.float64):
    A = sp.random(m, n, density=density, random_state=seed, format="csr", dtype=np.float64)
    return A.astype(dtype)


SIZES = [(0, 0), (1, 1), (0, 5), (5, 0), (7, 13), (127, 129), (131, 128)]  # 131 is prime; 127/128/129 tile edges


@pytest.mark.parametrize("m,n", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scipy_roundtrip_and_dense(m, n, dtype):
    A = rand_csr(m, n, 0.1, seed=m + n, dtype=dtype)
    C = ts.from_scipy(A)
    assert C.shape == (m, n) and C.values.dtype == dtype and C.col_indices.dtype == np.int64
    assert np.array_equal(ts.to_dense(C), A.toarray())
    B = C.to_scipy()
    assert (B != A).nnz == 0 and B.shape == A.shape
    assert np.array_equal(ts.from_dense(A.toarray()).to_dense(), A.toarray())


def test_no_copy_on_construction():
    v = np.arange(3, dtype=np.float64)
    c = np.array([0, 1, 2], dtype=np.int64)
    p = np.array([0, 1, 2, 3], dtype=np.int64)
    A = ts.CSRMatrix(v, c, p, (3, 3))
    assert np.shares_memory(A.values, v) and np.shares_memory(A.col_indices, c) and np.shares_memory(A.row_ptrs, p)
    assert A.nnz == 3 and A.density == pytest.approx(1 / 3)


def test_coo_duplicates_summed_like_scipy():
    rng = np.random.default_rng(1)
    r = rng.integers(0, 11, 200)
    c = rng.integers(0, 7, 200)
    v = rng.standard_normal(200)
    coo = ts.COOMatrix(v, r, c, (11, 7))
    ref = sp.coo_matrix((v, (r, c)), shape=(11, 7)).tocsr()
    ref.sum_duplicates()
    got = coo.to_csr()
    assert ts.is_canonical(got)
    assert np.array_equal(got.row_ptrs, ref.indptr) and np.array_equal(got.col_indices, ref.indices)
    # scipy sums duplicates in a different order: each sum of k terms differs by at most γ_k·Σ|v|.
    absref = sp.coo_matrix((np.abs(v), (r, c)), shape=(11, 7)).tocsr()
    absref.sum_duplicates()
    u = np.finfo(np.float64).eps / 2
    assert np.all(np.abs(got.values - ref.data) <= 2 * 200 * u * absref.data)
    kept = coo.to_csr(sum_duplicates=False)
    assert kept.nnz == 200 and not ts.is_canonical(kept)
    assert np.allclose(ts.sum_duplicates(kept).to_dense(), ref.toarray(), rtol=0, atol=1e-13)


def test_csc_and_coo_conversions_exact():
    A = rand_csr(13, 17, 0.3, seed=2)
    C = ts.from_scipy(A)
    csc = C.to_csc()
    ref = A.tocsc()
    assert np.array_equal(csc.col_ptrs, ref.indptr) and np.array_equal(csc.row_indices, ref.indices)
    assert np.array_equal(csc.values, ref.data)
    assert np.array_equal(csc.to_csr().to_dense(), A.toarray())
    coo = C.to_coo()
    assert np.array_equal(coo.to_dense(), A.toarray())
    assert np.array_equal(ts.to_csr(csc).to_dense(), A.toarray())


@pytest.mark.parametrize("shape,bs", [((0, 0), 4), ((1, 1), 128), ((7, 13), (2, 3)), ((129, 127), 128),
                                      ((131, 131), 16)])
def test_bsr_block_edges(shape, bs):
    A = rand_csr(*shape, 0.05, seed=3)
    B = ts.from_scipy(A).to_bsr(bs)
    R, Cb = (bs, bs) if isinstance(bs, int) else bs
    assert B.blocks.shape[1:] == (R, Cb)
    assert B.block_row_ptrs.shape == (-(-shape[0] // R) + 1,)
    assert np.array_equal(B.to_dense(), A.toarray())
    # CSR -> BSR -> CSR keeps the padded zeros; drop_zeros restores the pattern.
    assert np.array_equal(ts.drop_zeros(B.to_csr()).to_dense(), A.toarray())
    stats = ts.block_density(ts.from_scipy(A), bs)
    assert stats.stored_blocks == B.n_blocks
    assert "blocks" in repr(stats)


def test_bsr_from_dense_matches_scipy_bsr():
    rng = np.random.default_rng(4)
    D = np.zeros((16, 24))
    D[0:8, 8:16] = rng.standard_normal((8, 8))
    D[8:16, 0:8] = rng.standard_normal((8, 8))
    B = ts.BSRMatrix.from_dense(D, block_size=8)
    ref = sp.bsr_matrix(D, blocksize=(8, 8))
    ref.eliminate_zeros()
    assert B.n_blocks == 2 and np.array_equal(B.block_col_indices, [1, 0])
    assert np.array_equal(B.to_scipy().toarray(), D)
    back = ts.BSRMatrix.from_scipy(ref)
    assert np.array_equal(back.to_dense(), D) and back.block_size == 8
    assert B.density == pytest.approx(2 / 6)


def test_transpose_nnz_per_row_scale_add():
    A = rand_csr(11, 5, 0.4, seed=5)
    C = ts.from_scipy(A)
    assert np.array_equal(ts.sparse_transpose(C).to_dense(), A.T.toarray())
    assert np.array_equal(ts.nnz_per_row(C), np.diff(A.indptr))
    assert np.array_equal(ts.sparse_scale(C, 2.0).to_dense(), 2.0 * A.toarray())  # times 2: exact
    B = rand_csr(11, 5, 0.4, seed=6)
    got = ts.sparse_add(C, ts.from_scipy(B), 0.5, 2.0).to_dense()
    assert np.array_equal(got, 0.5 * A.toarray() + 2.0 * B.toarray())  # one rounding, as NumPy's
    assert np.array_equal(ts.eye_sparse(4).to_dense(), np.eye(4, dtype=np.float32))


def test_matrix_market_roundtrip_vs_scipy(tmp_path):
    A = rand_csr(31, 29, 0.1, seed=7)
    p = tmp_path / "a.mtx"
    ts.write_matrix_market(p, ts.from_scipy(A))
    ref = scipy.io.mmread(str(p))
    assert np.array_equal(ref.toarray(), A.toarray())  # max_digits10: bit-exact
    q = tmp_path / "b.mtx"
    scipy.io.mmwrite(str(q), A, symmetry="general")
    coo, header = ts.read_matrix_market(q, header=True)
    assert header["rows"] == 31 and header["cols"] == 29 and header["format"] == "coordinate"
    # scipy writes 16 significant digits (not bit-exact); both readers parse the same text to nearest.
    assert np.array_equal(coo.to_dense(), scipy.io.mmread(str(q)).toarray())
    # symmetric storage expands to the full matrix, like scipy
    S = (A[:29, :29] + A[:29, :29].T).tocsr()
    s = tmp_path / "s.mtx"
    ts.write_matrix_market(s, ts.from_scipy(S), symmetry="symmetric")
    assert np.array_equal(scipy.io.mmread(str(s)).toarray(), S.toarray())
    assert np.array_equal(ts.read_matrix_market(str(s)).to_dense(), S.toarray())
    # file objects and float32
    buf = io.StringIO()
    ts.write_matrix_market(buf, ts.from_scipy(A))
    back = ts.read_matrix_market(io.StringIO(buf.getvalue()), dtype=np.float32)
    assert back.values.dtype == np.float32 and np.array_equal(back.to_dense(), A.toarray().astype(np.float32))
    dense = np.arange(6.0).reshape(2, 3)
    d = tmp_path / "d.mtx"
    ts.write_matrix_market_array(d, dense)
    assert np.array_equal(scipy.io.mmread(str(d)), dense)


def test_matrix_market_errors(tmp_path):
    with pytest.raises(trncore.ParseError) as e:
        ts.read_matrix_market(io.StringIO("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n"))
    assert e.value.line == 3 and "read_matrix_market" in str(e.value)
    with pytest.raises(trncore.NotSupported):
        ts.read_matrix_market(io.StringIO("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n"))
    with pytest.raises(trncore.IoError):
        ts.read_matrix_market(tmp_path / "missing.mtx")
    A = ts.from_scipy(rand_csr(3, 3, 0.9, seed=8))
    with pytest.raises(trncore.InvalidArgument):
        ts.write_matrix_market(tmp_path / "x.mtx", A, symmetry="symmetric")  # not symmetric
    with pytest.raises(trncore.InvalidArgument, match="write_matrix_market"):
        ts.write_matrix_market(tmp_path / "x.mtx", A, symmetry="hermitian")
    with pytest.raises(trncore.InvalidArgument, match="read_matrix_market"):
        ts.read_matrix_market(3.5)
    with pytest.raises(trncore.InvalidArgument, match="read_matrix_market"):
        ts.read_matrix_market(tmp_path / "x.mtx", dtype=np.int32)


def good():
    return ts.CSRMatrix(np.array([1.0, 2.0, 3.0]), np.array([0, 2, 1]), np.array([0, 2, 3]), (2, 3))


@pytest.mark.parametrize("mutate,cls", [
    (lambda A: setattr(A, "col_indices", np.array([0, 3, 1])), trncore.InvalidArgument),   # out of range
    (lambda A: setattr(A, "col_indices", np.array([0, -1, 1])), trncore.InvalidArgument),  # negative
    (lambda A: setattr(A, "row_ptrs", np.array([0, 2])), trncore.InvalidArgument),          # wrong length
    (lambda A: setattr(A, "row_ptrs", np.array([0, 3, 2])), trncore.InvalidArgument),       # decreasing
    (lambda A: setattr(A, "row_ptrs", np.array([1, 2, 3])), trncore.InvalidArgument),       # not from 0
    (lambda A: setattr(A, "col_indices", np.array([0.0, 2.0, 1.0])), trncore.InvalidArgument),  # float indices
    (lambda A: setattr(A, "values", np.array([1j, 2, 3])), trncore.InvalidArgument),         # complex
    (lambda A: setattr(A, "values", np.array(["a", "b", "c"])), trncore.InvalidArgument),   # strings
    (lambda A: setattr(A, "values", np.ones(4)), trncore.InvalidArgument),                  # length
    (lambda A: setattr(A, "col_indices", np.zeros((3, 1), dtype=np.int64)), trncore.DimensionMismatch),  # 2-D
    (lambda A: setattr(A, "values", np.ones((3, 1))), trncore.DimensionMismatch),                  # 2-D values
    (lambda A: setattr(A, "shape", (-2, 3)), trncore.InvalidArgument),                             # negative size
])
@pytest.mark.parametrize("fn", [ts.to_dense, ts.validate, ts.to_coo, ts.to_csc, ts.to_bsr, ts.nnz_per_row,
                                ts.sparse_transpose, ts.sum_duplicates, ts.drop_zeros, ts.is_canonical,
                                ts.block_density, lambda A: ts.sparse_scale(A, 2.0),
                                lambda A: ts.sparse_add(A, A), lambda A: ts.spgemm(A, ts.sparse_transpose(good())),
                                lambda A: ts.write_matrix_market(io.StringIO(), A)])
def test_malformed_csr_raises(mutate, cls, fn):
    A = good()
    mutate(A)
    with pytest.raises(cls) as e:
        fn(A)
    assert "trnsparse" in str(e.value)


def test_unsorted_indices_canonical_check():
    A = good()
    A.col_indices = np.array([2, 0, 1])
    ts.validate(A)  # sorted is not required
    assert not ts.is_canonical(A)
    with pytest.raises(trncore.InvalidArgument, match="validate"):
        ts.validate(A, canonical=True)
    assert np.array_equal(ts.sum_duplicates(A).col_indices, [0, 2, 1])


def test_bad_format_objects():
    with pytest.raises(trncore.InvalidArgument, match="to_dense"):
        ts.to_dense(np.eye(3))
    with pytest.raises(trncore.InvalidArgument, match="from_scipy"):
        ts.from_scipy(np.eye(3))
    B = ts.from_scipy(rand_csr(8, 8, 0.5, seed=9)).to_bsr(4)
    B.blocks = B.blocks[:, :2, :]
    with pytest.raises(trncore.DimensionMismatch, match="to_dense"):
        ts.to_dense(B)
    with pytest.raises(trncore.InvalidArgument, match="block_size"):
        ts.to_bsr(good(), "big")
    with pytest.raises(trncore.InvalidArgument):
        ts.to_bsr(good(), 0)
    with pytest.raises(trncore.InvalidArgument):
        ts.from_dense(np.ones((2, 2), dtype=np.complex128))
    with pytest.raises(trncore.DimensionMismatch):
        ts.from_dense(np.ones(3))
    with pytest.raises(trncore.InvalidArgument):
        ts.CSRMatrix([1.0], [0], [0, 1], "big")


def test_scipy_is_optional():
    import subprocess
    import sys

    code = ("import sys; sys.modules['scipy'] = None\n"
            "import numpy as np, trnsparse as ts\n"
            "A = ts.eye_sparse(3, np.float64)\n"
            "assert (ts.spmv(A, np.arange(3.0)) == np.arange(3.0)).all()\n"
            "try:\n    A.to_scipy()\nexcept ImportError:\n    print('no scipy')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "no scipy"
