"""Sparse formats as NumPy dataclasses: CSRMatrix, COOMatrix, CSCMatrix, BSRMatrix (docs/python.md, trnsparse).

Field names and constructor order follow the upstream trnsparse (torch) dataclasses; here every field is a
NumPy array (values float32/float64, indices int64 — the C++ index type the extension uses) and nothing is
copied on construction (np.asarray). The structure is checked by every routine that reads the matrix
(trnsparse::validate: lengths, indptr monotone from 0 to nnz, indices in range) and by ``validate(A)``;
construction itself does not check, so a malformed matrix raises trncore.InvalidArgument where it is used.

scipy is optional: ``from_scipy``/``to_scipy`` import it when called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

import numpy as np


def _error(cls, message):
    """A trncore exception raised from Python glue, with function/problem/hint set like the C++ ones
    (message "function: problem: hint")."""
    head, _, rest = message.partition(": ")
    problem, _, hint = rest.rpartition(": ")
    if not problem:
        e = cls(message)
        e.function, e.problem, e.hint = head, rest, ""
        return e
    return cls.make(head, problem, hint)


def _shape(shape):
    try:
        m, n = (int(s) for s in shape)
    except (TypeError, ValueError):
        import trncore

        raise _error(trncore.InvalidArgument, f"trnsparse.CSRMatrix: shape must be a pair of integers, got {shape!r}: pass (rows, cols)")
    return (m, n)


def _scalar(x, kind, fn, name):
    """float(x) or int(x), or trncore.InvalidArgument naming the function and argument."""
    try:
        return kind(x)
    except (TypeError, ValueError):
        import trncore

        raise _error(trncore.InvalidArgument,
                     f"{fn}: {name}={x!r} is not a{'n integer' if kind is int else ' number'}: pass a {kind.__name__}")


def _dense(x, fn, name):
    """np.asarray(x, float64) of a real array-like, or trncore.InvalidArgument."""
    try:
        a = np.asarray(x)
        if a.dtype.kind not in "fiub":
            raise TypeError
        return a.astype(np.float64, copy=False)
    except (TypeError, ValueError):
        import trncore

        raise _error(trncore.InvalidArgument, f"{fn}: {name} is not a real numeric array: pass a float array")


def _density(nnz, shape):
    total = shape[0] * shape[1]
    return nnz / total if total else 0.0


@dataclass(repr=False)
class CSRMatrix:
    """Compressed sparse row matrix (trnsparse::Csr).

    values: (nnz,) stored values; col_indices: (nnz,) column of each; row_ptrs: (rows+1,) offsets, row i is
    values[row_ptrs[i]:row_ptrs[i+1]]; shape: (rows, cols). Duplicates mean a sum, like scipy.
    Aliases data/indices/indptr give scipy's names for the same arrays.
    """

    values: np.ndarray
    col_indices: np.ndarray
    row_ptrs: np.ndarray
    shape: Tuple[int, int]

    def __post_init__(self):
        self.values = np.asarray(self.values)
        self.col_indices = np.asarray(self.col_indices)
        self.row_ptrs = np.asarray(self.row_ptrs)
        self.shape = _shape(self.shape)

    data = property(lambda self: self.values)
    indices = property(lambda self: self.col_indices)
    indptr = property(lambda self: self.row_ptrs)

    @property
    def nnz(self) -> int:
        return int(self.values.shape[0]) if self.values.ndim else 0

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def density(self) -> float:
        return _density(self.nnz, self.shape)

    @classmethod
    def from_scipy(cls, A):
        """CSRMatrix of any scipy.sparse matrix/array (converted with .tocsr(); duplicates kept)."""
        return from_scipy(A)

    @classmethod
    def from_dense(cls, A, threshold: float = 0.0):
        """CSRMatrix keeping entries with |a_ij| > threshold (trnsparse::csr_from_dense)."""
        return from_dense(A, threshold)

    def to_scipy(self):
        """scipy.sparse.csr_matrix sharing nothing with self (scipy may downcast indices to int32)."""
        import scipy.sparse as sp

        return sp.csr_matrix((self.values.copy(), self.col_indices.copy(), self.row_ptrs.copy()), shape=self.shape)

    def to_dense(self) -> np.ndarray:
        from ._trnsparse import to_dense

        return to_dense(self)

    def to_coo(self) -> "COOMatrix":
        from ._trnsparse import to_coo

        return to_coo(self)

    def to_csc(self) -> "CSCMatrix":
        from ._trnsparse import to_csc

        return to_csc(self)

    def to_csr(self) -> "CSRMatrix":
        return self

    def to_bsr(self, block_size=128) -> "BSRMatrix":
        from ._trnsparse import to_bsr

        return to_bsr(self, block_size)

    def transpose(self) -> "CSRMatrix":
        from ._trnsparse import sparse_transpose

        return sparse_transpose(self)

    T = property(transpose)

    def __matmul__(self, other):
        from ._trnsparse import spmm, spmv

        other = np.asarray(other)
        return spmv(self, other) if other.ndim == 1 else spmm(self, other)

    def __repr__(self) -> str:
        return f"CSRMatrix(shape={self.shape}, nnz={self.nnz}, density={self.density:.4f}, dtype={self.values.dtype})"


@dataclass(repr=False)
class COOMatrix:
    """Coordinate (triplet) matrix (trnsparse::Coo): values, row_indices, col_indices (each (nnz,)), shape.

    Entries may come in any order; duplicates mean a sum (Matrix Market, scipy).
    """

    values: np.ndarray
    row_indices: np.ndarray
    col_indices: np.ndarray
    shape: Tuple[int, int]

    def __post_init__(self):
        self.values = np.asarray(self.values)
        self.row_indices = np.asarray(self.row_indices)
        self.col_indices = np.asarray(self.col_indices)
        self.shape = _shape(self.shape)

    data = property(lambda self: self.values)
    row = property(lambda self: self.row_indices)
    col = property(lambda self: self.col_indices)

    @property
    def nnz(self) -> int:
        return int(self.values.shape[0]) if self.values.ndim else 0

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def density(self) -> float:
        return _density(self.nnz, self.shape)

    def to_csr(self, sum_duplicates: bool = True) -> CSRMatrix:
        """CSR by a stable counting sort (trnsparse::to_csr); duplicates summed unless sum_duplicates=False."""
        from ._trnsparse import to_csr

        return to_csr(self, sum_duplicates=sum_duplicates)

    def to_csc(self) -> "CSCMatrix":
        from ._trnsparse import to_csc

        return to_csc(self)

    def to_dense(self) -> np.ndarray:
        return self.to_csr().to_dense()

    def to_scipy(self):
        import scipy.sparse as sp

        return sp.coo_matrix((self.values.copy(), (self.row_indices.copy(), self.col_indices.copy())),
                             shape=self.shape)

    def __repr__(self) -> str:
        return f"COOMatrix(shape={self.shape}, nnz={self.nnz}, density={self.density:.4f}, dtype={self.values.dtype})"


@dataclass(repr=False)
class CSCMatrix:
    """Compressed sparse column matrix (trnsparse::Csc): values, row_indices (nnz,), col_ptrs (cols+1,), shape.

    trnsci only (upstream has no CSC): the storage of scipy.sparse.csc_matrix, converted to CSR for compute.
    """

    values: np.ndarray
    row_indices: np.ndarray
    col_ptrs: np.ndarray
    shape: Tuple[int, int]

    def __post_init__(self):
        self.values = np.asarray(self.values)
        self.row_indices = np.asarray(self.row_indices)
        self.col_ptrs = np.asarray(self.col_ptrs)
        self.shape = _shape(self.shape)

    data = property(lambda self: self.values)
    indices = property(lambda self: self.row_indices)
    indptr = property(lambda self: self.col_ptrs)

    @property
    def nnz(self) -> int:
        return int(self.values.shape[0]) if self.values.ndim else 0

    @property
    def dtype(self):
        return self.values.dtype

    def to_csr(self) -> CSRMatrix:
        from ._trnsparse import to_csr

        return to_csr(self)

    def to_coo(self) -> COOMatrix:
        from ._trnsparse import to_coo

        return to_coo(self)

    def to_dense(self) -> np.ndarray:
        return self.to_csr().to_dense()

    def to_scipy(self):
        import scipy.sparse as sp

        return sp.csc_matrix((self.values.copy(), self.row_indices.copy(), self.col_ptrs.copy()), shape=self.shape)

    def __repr__(self) -> str:
        return f"CSCMatrix(shape={self.shape}, nnz={self.nnz}, dtype={self.values.dtype})"


@dataclass(repr=False)
class BSRMatrix:
    """Block sparse row matrix (trnsparse::Bsr), upstream field order:

    blocks: (n_blocks, R, C) dense blocks; block_col_indices: (n_blocks,); block_row_ptrs:
    (ceil(rows/R)+1,); shape: (rows, cols) of the matrix; block_size: R (int, square blocks, default 128 =
    one TensorEngine tile) or (R, C). Differs from upstream: rows and cols need not be multiples of the
    block size — the last block row/column may stick out, its out-of-range part stored as zeros and ignored
    (upstream pads the same way in from_dense but documents multiples).
    """

    blocks: np.ndarray
    block_col_indices: np.ndarray
    block_row_ptrs: np.ndarray
    shape: Tuple[int, int]
    block_size: object = 128

    def __post_init__(self):
        self.blocks = np.asarray(self.blocks)
        self.block_col_indices = np.asarray(self.block_col_indices)
        self.block_row_ptrs = np.asarray(self.block_row_ptrs)
        self.shape = _shape(self.shape)
        if not isinstance(self.block_size, (int, np.integer)):
            try:
                r, c = (int(b) for b in self.block_size)
            except (TypeError, ValueError):
                import trncore

                raise _error(trncore.InvalidArgument,
                    f"trnsparse.BSRMatrix: block_size={self.block_size!r} is neither an int nor a pair: pass R or (R, C)")
            self.block_size = r if r == c else (r, c)  # square blocks are spelled as one int, as upstream
        else:
            self.block_size = int(self.block_size)

    @property
    def blocksize(self) -> Tuple[int, int]:
        """(R, C), scipy's name."""
        b = self.block_size
        return (b, b) if isinstance(b, int) else tuple(b)

    @property
    def n_blocks(self) -> int:
        return int(self.blocks.shape[0]) if self.blocks.ndim else 0

    @property
    def nnz(self) -> int:
        """Stored values: n_blocks·R·C (zeros inside stored blocks count), as upstream."""
        r, c = self.blocksize
        return self.n_blocks * r * c

    @property
    def dtype(self):
        return self.blocks.dtype

    @property
    def density(self) -> float:
        """Block density: stored blocks / ceil(rows/R)·ceil(cols/C) (0 for an empty grid)."""
        r, c = self.blocksize
        total = -(-self.shape[0] // r) * -(-self.shape[1] // c)
        return self.n_blocks / total if total else 0.0

    @classmethod
    def from_dense(cls, A, block_size=128, threshold: float = 0.0) -> "BSRMatrix":
        """BSR of a dense matrix: a block is stored when it holds an entry with |a| > threshold."""
        return from_dense(A, threshold).to_bsr(block_size)

    @classmethod
    def from_csr(cls, csr, block_size=128, threshold: float = 0.0) -> "BSRMatrix":
        """BSR of a CSR matrix (trnsparse::to_bsr, no dense intermediate; threshold drops small entries first)."""
        csr = as_csr(csr)
        if threshold > 0:
            keep = np.abs(csr.values) > threshold
            rows = np.repeat(np.arange(csr.shape[0]), np.diff(csr.row_ptrs))
            counts = np.bincount(rows[keep], minlength=csr.shape[0])
            csr = CSRMatrix(csr.values[keep], csr.col_indices[keep],
                            np.concatenate([[0], np.cumsum(counts)]).astype(np.int64), csr.shape)
        return csr.to_bsr(block_size)

    @classmethod
    def from_scipy(cls, A, block_size=None) -> "BSRMatrix":
        """BSRMatrix of a scipy.sparse matrix (its own blocksize for bsr_matrix, else block_size or 128)."""
        if block_size is None and _is_scipy_sparse(A) and getattr(A, "format", None) == "bsr":
            b = A.copy()
            b.sum_duplicates()
            return cls(np.array(b.data), np.asarray(b.indices, dtype=np.int64), np.asarray(b.indptr, dtype=np.int64),
                       b.shape, tuple(b.blocksize))
        return from_scipy(A).to_bsr(128 if block_size is None else block_size)

    def to_csr(self) -> CSRMatrix:
        """CSR with every in-range entry of every stored block, zeros included (trnsparse::to_csr)."""
        from ._trnsparse import to_csr

        return to_csr(self)

    def to_dense(self) -> np.ndarray:
        from ._trnsparse import to_dense

        return to_dense(self)

    def to_scipy(self):
        """scipy.sparse.bsr_matrix when the shape is a multiple of the block size, else csr_matrix."""
        import scipy.sparse as sp

        r, c = self.blocksize
        if self.shape[0] % r == 0 and self.shape[1] % c == 0:
            return sp.bsr_matrix((self.blocks.copy(), self.block_col_indices.copy(), self.block_row_ptrs.copy()),
                                 shape=self.shape)
        return self.to_csr().to_scipy()

    def __matmul__(self, other):
        from ._trnsparse import bsr_spmm, spmv

        other = np.asarray(other)
        return spmv(self, other) if other.ndim == 1 else bsr_spmm(self, other)

    def __repr__(self) -> str:
        return (f"BSRMatrix(shape={self.shape}, block_size={self.block_size}, n_blocks={self.n_blocks}, "
                f"block_density={self.density:.4f}, dtype={self.blocks.dtype})")


def _is_scipy_sparse(A) -> bool:
    mod = type(A).__module__ or ""
    return mod.startswith("scipy.sparse")


def from_scipy(A) -> CSRMatrix:
    """CSRMatrix of any scipy.sparse matrix or array (its .tocsr(); values keep their dtype — upstream
    converted to float32; indices become int64). scipy is imported only here."""
    if not _is_scipy_sparse(A):
        import trncore

        raise _error(trncore.InvalidArgument,
            f"trnsparse.from_scipy: A is a {type(A).__name__}, not a scipy.sparse matrix: "
            "pass a scipy.sparse matrix or array")
    c = A.tocsr()
    values = np.asarray(c.data)
    if values.dtype.kind in "iub":
        values = values.astype(np.float64)
    return CSRMatrix(values, np.asarray(c.indices, dtype=np.int64), np.asarray(c.indptr, dtype=np.int64), c.shape)


def from_dense(A, threshold: float = 0.0) -> CSRMatrix:
    """CSR of a dense 2-D array keeping |a_ij| > threshold (trnsparse::csr_from_dense; NaN kept)."""
    from ._trnsparse import _csr_from_dense

    return _csr_from_dense(A, _scalar(threshold, float, "trnsparse.from_dense", "threshold"))


def eye_sparse(n: int, dtype=np.float32) -> CSRMatrix:
    """The n×n identity as CSR (upstream default dtype float32). Raises trncore.InvalidArgument unless n is a
    non-negative integer."""
    import operator

    import trncore

    try:
        n = operator.index(n)
    except TypeError:
        raise _error(trncore.InvalidArgument, f"trnsparse.eye_sparse: n = {n!r} is not an integer: pass an int >= 0") from None
    if n < 0:
        raise _error(trncore.InvalidArgument, f"trnsparse.eye_sparse: n = {n} is negative: pass an int >= 0")
    return CSRMatrix(np.ones(n, dtype=dtype), np.arange(n, dtype=np.int64), np.arange(n + 1, dtype=np.int64), (n, n))


def as_csr(A) -> CSRMatrix:
    """A as CSRMatrix: itself, scipy.sparse via from_scipy, COO/CSC/BSR via to_csr. Anything else is returned
    unchanged (the routine then reports what is missing)."""
    if isinstance(A, CSRMatrix):
        return A
    if isinstance(A, (COOMatrix, CSCMatrix, BSRMatrix)):
        return A.to_csr()
    if _is_scipy_sparse(A):
        return from_scipy(A)
    return A


def as_sparse(A):
    """A as CSRMatrix or BSRMatrix (BSR kept for the routines with a BSR form)."""
    if isinstance(A, BSRMatrix):
        return A
    return as_csr(A)
