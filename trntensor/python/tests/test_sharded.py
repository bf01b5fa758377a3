"""ShardedTensor and sharded_einsum (single process, shards on the thread pool) against numpy.einsum.

Tolerances (docs/trntensor.md, "Sharded tensors"): output-parallel splits of a batch label are bitwise the
unsharded einsum on the host; reduce-parallel over S shards: einsum's bound over K/S terms (γ_{K/S+2})
plus γ_{S−1} for adding the partials, componentwise relative to einsum(|A|, |B|).
"""
import numpy as np
import pytest

import trncore
import trntensor as tt

rng = np.random.default_rng(11)


def gamma(n, u=2.0**-53):
    return n * u / (1 - n * u)


def test_shards_and_gather():
    x = rng.standard_normal((10, 4))
    s = tt.ShardedTensor(x, 0, 3)
    assert (s.axis, s.shards, s.shape, s.dtype) == (0, 3, (10, 4), np.float64)
    extents = [s.shard(i).shape[0] for i in range(3)]
    assert extents == [4, 3, 3] and [s.offset(i) for i in range(3)] == [0, 4, 7]
    for i in range(3):
        assert np.array_equal(s.shard(i), x[s.offset(i):s.offset(i) + extents[i]])
    assert np.array_equal(s.gather(), x)
    assert "shards=3" in repr(s)
    f = tt.ShardedTensor(x.astype(np.float32)[:, ::2], 1, 2)  # a strided float32 view
    assert f.dtype == np.float32 and np.array_equal(f.gather(), x.astype(np.float32)[:, ::2])


def test_output_parallel_is_bitwise_the_einsum():
    a, b = rng.standard_normal((6, 5, 7)), rng.standard_normal((6, 7, 3))
    s = tt.ShardedTensor(a, 0, 4)  # split the batch label
    got = tt.sharded_einsum("bij,bjk->bik", s, 0, b)
    assert np.array_equal(got, tt.einsum("bij,bjk->bik", a, b))
    for threads in (1, 2):
        assert np.array_equal(tt.sharded_einsum("bij,bjk->bik", s, 0, b, threads=threads), got)
    # the sharded operand in second position
    sb = tt.ShardedTensor(b, 0, 3)
    assert np.array_equal(tt.sharded_einsum("bij,bjk->bik", sb, 1, a), got)


def test_reduce_parallel_within_bound():
    a, b = rng.standard_normal((9, 64)), rng.standard_normal((64, 5))
    shards = 4
    s = tt.ShardedTensor(b, 0, shards)  # split the summed label k
    got = tt.sharded_einsum("ik,kj->ij", s, 1, a)
    exact = a.astype(np.longdouble) @ b
    mag = np.abs(a).astype(np.longdouble) @ np.abs(b)
    per_shard = gamma(64 // shards + 2) * (1 + 2.0**-53) ** 3 + 3 * 2.0**-53
    eps = per_shard + gamma(shards - 1) + per_shard * gamma(shards - 1)
    assert np.all(np.abs(got - exact) <= 1.01 * eps * mag)
    assert np.array_equal(tt.sharded_einsum("ik,kj->ij", s, 1, a, threads=1),
                          tt.sharded_einsum("ik,kj->ij", s, 1, a, threads=2))
    s32 = tt.ShardedTensor(b.astype(np.float32), 0, 2)
    assert tt.sharded_einsum("ik,kj->ij", s32, 1, a.astype(np.float32)).dtype == np.float32


def test_sim_backend_shards():
    a, b = rng.standard_normal((8, 16)), rng.standard_normal((16, 6))
    s = tt.ShardedTensor(a, 0, 2)  # rows of the GEMM: each element by the same sim steps
    got = tt.sharded_einsum("ik,kj->ij", s, 0, b, backend="sim", mode="ozaki")
    assert np.array_equal(got, tt.einsum("ik,kj->ij", a, b, backend="sim", mode="ozaki"))


def test_bad_input_sharded():
    x = np.ones((4, 3))
    cases = [
        (lambda: tt.ShardedTensor(x, 2, 2), trncore.InvalidArgument),
        (lambda: tt.ShardedTensor(x, 0, 0), trncore.InvalidArgument),
        (lambda: tt.ShardedTensor(x + 1j, 0, 2), trncore.InvalidArgument),
        (lambda: tt.ShardedTensor(x, 0, 2).shard(2), trncore.InvalidArgument),
        (lambda: tt.ShardedTensor(x, 0, 2).offset(-1), trncore.InvalidArgument),
        (lambda: tt.sharded_einsum("ij,jk->ik", tt.ShardedTensor(x, 0, 2), 2, np.ones((3, 2))),
         trncore.InvalidArgument),
        (lambda: tt.sharded_einsum("ij,jk->ik", tt.ShardedTensor(x, 0, 2), 0, np.ones((3, 2), np.float32)),
         trncore.InvalidArgument),
        (lambda: tt.sharded_einsum("ij,jk->ik", tt.ShardedTensor(x, 0, 2), 0, np.ones((5, 2))),
         trncore.DimensionMismatch),
        (lambda: tt.sharded_einsum("ij,j?->ik", tt.ShardedTensor(x, 0, 2), 0, np.ones((3, 2))),
         trncore.ParseError),
        (lambda: tt.sharded_einsum("ij,jk->ik", tt.ShardedTensor(x, 0, 2), 0, np.ones((3, 2)), threads=-1),
         trncore.InvalidArgument),
    ]
    for call, error in cases:
        with pytest.raises(error) as e:
            call()
        assert "trntensor" in str(e.value)
    with pytest.raises(TypeError):
        tt.sharded_einsum("ij,jk->ik", tt.ShardedTensor(x, 0, 2), 0, np.ones((3, 2)), out=None)
    with pytest.raises(TypeError):
        tt.sharded_einsum("ij,jk->ik", x, 0, np.ones((3, 2)))  # not a ShardedTensor
