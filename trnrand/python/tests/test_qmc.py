"""Quasi-random sequences against scipy.stats.qmc: unscrambled Sobol bit for bit (both use Joe & Kuo's
new-joe-kuo-6.21201 direction numbers in Gray-code order; scipy with bits=32), Halton within the Horner
bound, discrepancies of the scrambled sequences; net and stratum properties; bad input."""
import threading

import numpy as np
import pytest
from scipy.stats import qmc

import trncore
import trnrand


@pytest.mark.parametrize("dims", [1, 2, 8, 50])
def test_sobol_matches_scipy_bitwise(dims):
    ref = qmc.Sobol(dims, scramble=False, bits=32).random(1024)
    assert np.array_equal(trnrand.sobol(1024, dims, scramble=False, dtype=np.float64), ref)
    # skip / seek / fast_forward agree.
    eng = qmc.Sobol(dims, scramble=False, bits=32)
    eng.fast_forward(777)
    ref = eng.random(129)
    assert np.array_equal(trnrand.sobol(129, dims, scramble=False, dtype=np.float64, skip=777), ref)
    seq = trnrand.Sobol(dims)
    seq.seek(777)
    assert seq.index == 777 and np.array_equal(seq.fill(129), ref) and seq.index == 906


def test_sobol_high_dimension_matches_scipy():
    ref = qmc.Sobol(21201, scramble=False, bits=32).random(8)
    assert np.array_equal(trnrand.Sobol(21201).fill(8), ref)


def test_sobol_dtypes_are_the_digits():
    seq = trnrand.Sobol(5, scramble="owen", seed=3)
    digits = seq.fill(300, np.uint32)
    seq.seek(0)
    d = seq.fill(300)
    seq.seek(0)
    f = seq.fill(300, np.float32)
    assert digits.dtype == np.uint32 and np.array_equal(d, digits * 2.0**-32)
    assert f.dtype == np.float32 and np.array_equal(f, ((digits >> 8) * 2.0**-24).astype(np.float32))
    assert f.max() < 1
    # The upstream function's float32 values are the same truncation.
    assert np.array_equal(trnrand.sobol(300, 5, seed=3, scramble="owen"), f)


@pytest.mark.parametrize("scramble", ["owen", "linear_matrix_digital_shift", True])
def test_sobol_scrambles(scramble):
    a = trnrand.sobol(4096, 4, seed=11, scramble=scramble, dtype=np.float64)
    assert np.array_equal(a, trnrand.sobol(4096, 4, seed=11, scramble=scramble, dtype=np.float64))
    assert not np.array_equal(a, trnrand.sobol(4096, 4, seed=12, scramble=scramble, dtype=np.float64))
    # The scrambled first 2**12 points are still a (0, 12, 1)-net in each dimension: one point per 2**-12 cell.
    for d in range(4):
        assert np.array_equal(np.sort(np.floor(a[:, d] * 4096).astype(int)), np.arange(4096))
    # Dimensions 1-2 form a (0, m, 2)-net: each 2**-6 x 2**-6 box of the first 4096 points holds one point.
    cells = np.floor(a[:, 0] * 64).astype(int) * 64 + np.floor(a[:, 1] * 64).astype(int)
    assert np.array_equal(np.sort(cells), np.arange(4096))
    # Slices: workers with skip reproduce the whole sequence.
    parts = [trnrand.Sobol(4, scramble="owen" if scramble is True else scramble, seed=11, skip=k).fill(m)
             for k, m in [(0, 1), (1, 1000), (1001, 3095)]]
    assert np.array_equal(np.concatenate(parts), a)


def test_sobol_discrepancy_against_scipy():
    # Centred L2 discrepancy (scipy.stats.qmc.discrepancy) of 1024 scrambled points in 4-D: scrambled Sobol
    # nets give ~8.6e-6 for any seed (scipy's own scrambled Sobol, 5 seeds); iid uniform points ~7e-4.
    ours = [qmc.discrepancy(trnrand.sobol(1024, 4, seed=s, scramble=sc, dtype=np.float64))
            for s in range(5) for sc in ("owen", "lms")]
    scipy_mean = np.mean([qmc.discrepancy(qmc.Sobol(4, seed=s).random(1024)) for s in range(5)])
    iid = min(qmc.discrepancy(np.random.default_rng(s).random((1024, 4))) for s in range(5))
    assert max(ours) <= 1.25 * scipy_mean and min(ours) >= 0.8 * scipy_mean
    assert max(ours) <= iid / 20
    plain = trnrand.sobol(1024, 4, scramble=False, dtype=np.float64)
    assert qmc.discrepancy(plain) == qmc.discrepancy(qmc.Sobol(4, scramble=False, bits=32).random(1024))


def test_halton_matches_scipy():
    # scipy's Halton(scramble=False) starts at index 0. Both evaluate the radical inverse in double with at
    # most K = 10 digits here; trnrand's Horner error is < 2K 2**-53 relative, and scipy's summation has at
    # most K roundings as well, so they agree within 4K 2**-53 = 40 2**-53.
    ref = qmc.Halton(6, scramble=False).random(1000)
    got = trnrand.halton(1000, 6, dtype=np.float64, skip=0)
    assert np.all(np.abs(got - ref) <= 40 * 2.0**-53)
    assert qmc.discrepancy(got[1:]) == pytest.approx(qmc.discrepancy(ref[1:]), rel=1e-9)
    # Upstream's halton starts at index 1 (skip=1 is the default here); float32 is the rounding, kept < 1.
    up = trnrand.halton(1000, 6)
    assert up.dtype == np.float32 and up.shape == (1000, 6) and up.max() < 1
    h = trnrand.Halton(6, skip=1)
    assert [h.base(d) for d in range(6)] == [2, 3, 5, 7, 11, 13]
    assert np.array_equal(h.fill(999), got[1:])
    assert np.all(np.abs(up[:999].astype(np.float64) - got[1:]) <= 2.0**-24 * got[1:])
    h.seek(0)
    assert h.index == 0 and np.array_equal(h.fill(5), got[:5])


def test_halton_scrambled():
    a = trnrand.halton(3**5, 3, dtype=np.float64, skip=0, scramble="random_permutation", seed=4)
    assert np.array_equal(a, trnrand.Halton(3, scramble="random_permutation", seed=4).fill(243))
    assert not np.array_equal(a, trnrand.halton(243, 3, dtype=np.float64, skip=0, scramble="random_permutation",
                                                seed=5))
    # The first b**K points still fall one per interval of width b**-K (base 3, K = 5).
    assert np.array_equal(np.sort(np.floor(a[:, 1] * 243).astype(int)), np.arange(243))
    assert a.min() >= 0 and a.max() < 1


def test_latin_hypercube():
    for n in [1, 2, 127, 1000]:
        x = trnrand.latin_hypercube(n, 5, seed=9, dtype=np.float64)
        for d in range(5):
            assert np.array_equal(np.sort(np.floor(x[:, d] * n).astype(int)), np.arange(n))
    c = trnrand.latin_hypercube(100, 3, seed=1, centered=True, dtype=np.float64)
    v = c * 100 - 0.5
    assert np.all(np.abs(v - np.round(v)) <= 1e-9)  # every point at its stratum's midpoint (p + 1/2)/n
    a = trnrand.latin_hypercube(70_000, 3, seed=2, dtype=np.float64, threads=1)
    assert np.array_equal(a, trnrand.latin_hypercube(70_000, 3, seed=2, dtype=np.float64, threads=2))
    assert trnrand.latin_hypercube(0, 3).shape == (0, 3)
    # From a generator: seeded by one 64-bit word pair, which advances the generator by 2 words.
    g = trnrand.Generator(5)
    s = trnrand.latin_hypercube(50, 2, generator=g, dtype=np.float64)
    assert g.position() == 2
    assert np.array_equal(s, trnrand.latin_hypercube(50, 2, generator=trnrand.Generator(5), dtype=np.float64))
    # scipy's LatinHypercube: a sample of the same law, so discrepancies of the same size (within 2x).
    ours = np.mean([qmc.discrepancy(trnrand.latin_hypercube(512, 4, seed=k, dtype=np.float64)) for k in range(8)])
    ref = np.mean([qmc.discrepancy(qmc.LatinHypercube(4, seed=k).random(512)) for k in range(8)])
    assert 0.5 * ref <= ours <= 2 * ref


def test_shared_sobol_two_threads():
    seq = trnrand.Sobol(3, scramble="owen", seed=1)
    out = [None, None]
    barrier = threading.Barrier(2)

    def work(i):
        barrier.wait()
        out[i] = seq.fill(20_000)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    whole = trnrand.Sobol(3, scramble="owen", seed=1).fill(40_000)
    first = 0 if np.array_equal(out[0], whole[:20_000]) else 1
    assert np.array_equal(out[first], whole[:20_000]) and np.array_equal(out[1 - first], whole[20_000:])


def test_notice():
    assert "Joe" in trnrand.sobol_direction_numbers_notice() or "Kuo" in trnrand.sobol_direction_numbers_notice()


@pytest.mark.parametrize("call,exc,match", [
    (lambda: trnrand.Sobol(0), trncore.InvalidArgument, "Sobol"),
    (lambda: trnrand.Sobol(21202), trncore.InvalidArgument, "Sobol"),
    (lambda: trnrand.Sobol(2, skip=-1), trncore.InvalidArgument, "Sobol"),
    (lambda: trnrand.Sobol(2, skip=2**32 + 1), trncore.InvalidArgument, "Sobol"),
    (lambda: trnrand.Sobol(2, scramble="bogus"), trncore.ParseError, "bogus"),
    (lambda: trnrand.Sobol(2, scramble=5), trncore.InvalidArgument, "trnrand.Sobol.*scramble"),
    (lambda: trnrand.Sobol(2, backend="sim"), trncore.NotSupported, "Sobol"),
    (lambda: trnrand.Sobol(2, generation="trn9"), trncore.ParseError, "trn9"),
    (lambda: trnrand.Sobol(2, colour=1), TypeError, "trnrand.Sobol"),
    (lambda: trnrand.Sobol(2.5), trncore.InvalidArgument, "trnrand.Sobol"),
    (lambda: trnrand.Sobol(2).fill(-1), trncore.InvalidArgument, "trnrand.Sobol.fill.*negative"),
    (lambda: trnrand.Sobol(2).fill(3, np.complex64), trncore.InvalidArgument, "trnrand.Sobol.fill.*dtype"),
    (lambda: trnrand.Sobol(1, skip=2**32).fill(1), trncore.ResourceExhausted, "Sobol"),
    (lambda: trnrand.Sobol(1).skip(-1), trncore.InvalidArgument, "skip"),
    (lambda: trnrand.Sobol(1).seek(2**32 + 1), trncore.InvalidArgument, "seek"),
    (lambda: trnrand.Halton(0), trncore.InvalidArgument, "Halton"),
    (lambda: trnrand.Halton(21202), trncore.InvalidArgument, "Halton"),
    (lambda: trnrand.Halton(2, skip=-1), trncore.InvalidArgument, "Halton"),
    (lambda: trnrand.Halton(2, scramble="owen"), trncore.ParseError, "owen"),
    (lambda: trnrand.Halton(2, backend="sim"), trncore.NotSupported, "Halton"),
    (lambda: trnrand.Halton(2, colour=1), TypeError, "trnrand.Halton"),
    (lambda: trnrand.Halton(2).fill(-3), trncore.InvalidArgument, "trnrand.Halton.fill"),
    (lambda: trnrand.Halton(2).base(2), trncore.InvalidArgument, "base"),
    (lambda: trnrand.Halton(2).seek(-1), trncore.InvalidArgument, "seek"),
    (lambda: trnrand.sobol(-1, 2), trncore.InvalidArgument, "trnrand.Sobol.fill"),
    (lambda: trnrand.sobol(4, 2, dtype=np.int32), trncore.InvalidArgument, "trnrand.sobol.*dtype"),
    (lambda: trnrand.sobol(4, 2, scramble="x"), trncore.ParseError, "x"),
    (lambda: trnrand.halton(-1, 2), trncore.InvalidArgument, "trnrand.halton.*negative"),
    (lambda: trnrand.halton(4, 0), trncore.InvalidArgument, "trnrand.halton"),
    (lambda: trnrand.halton(4, 2, dtype=np.int8), trncore.InvalidArgument, "trnrand.halton.*dtype"),
    (lambda: trnrand.halton(4, 2, backend="sim"), trncore.NotSupported, "halton"),
    (lambda: trnrand.halton(4, 2, colour=1), TypeError, "trnrand.halton"),
    (lambda: trnrand.latin_hypercube(-1, 2), trncore.InvalidArgument, "trnrand.latin_hypercube.*negative"),
    (lambda: trnrand.latin_hypercube(4, 0), trncore.InvalidArgument, "trnrand.latin_hypercube"),
    (lambda: trnrand.latin_hypercube(2**32 + 1, 1, seed=1), trncore.InvalidArgument, "latin_hypercube"),
    (lambda: trnrand.latin_hypercube(4, 2, dtype=np.int8), trncore.InvalidArgument, "trnrand.latin_hypercube"),
    (lambda: trnrand.latin_hypercube(4, 2, seed=1, generator=trnrand.Generator(1)), trncore.InvalidArgument,
     "trnrand.latin_hypercube.*both"),
    (lambda: trnrand.latin_hypercube(4, 2, generator=3), trncore.InvalidArgument, "trnrand.latin_hypercube"),
    (lambda: trnrand.latin_hypercube(4, 2, seed=1, threads=-1), trncore.InvalidArgument, "threads"),
    (lambda: trnrand.latin_hypercube(4, 2, seed=1, backend="sim"), trncore.NotSupported, "latin_hypercube"),
    (lambda: trnrand.latin_hypercube(4, 2, seed=1, colour=1), TypeError, "trnrand.latin_hypercube"),
])
def test_qmc_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
