"""trncore bindings: formats against NumPy's own bit manipulation, options, errors."""
import numpy as np
import pytest

import trncore


def bf16_rne_oracle(x):
    """bf16 round-to-nearest-even computed from float32 bits with NumPy integer ops (finite inputs)."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    lsb = (b >> 16) & 1
    return ((b + 0x7FFF + lsb) >> 16).astype(np.uint16)


def test_encode_bf16_matches_integer_oracle():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(10007) * np.exp2(rng.integers(-60, 60, 10007))).astype(np.float32)
    assert np.array_equal(trncore.encode(x, "bf16"), bf16_rne_oracle(x))


def test_decode_bf16_is_exact_upper_half():
    bits = np.arange(0, 1 << 16, dtype=np.uint32).astype(np.uint16)
    finite = (bits & 0x7F80) != 0x7F80
    got = trncore.decode(bits, "bf16")
    want = (bits.astype(np.uint32) << 16).view(np.float32)
    assert np.array_equal(got[finite], want[finite])


def test_fp16_matches_numpy_float16():
    rng = np.random.default_rng(2)
    x = rng.standard_normal(4099) * 100
    got = trncore.decode(trncore.encode(x, "fp16"), "fp16", np.float64)
    # NumPy's float64 -> float16 cast rounds to nearest even directly (no double rounding).
    assert np.array_equal(got, x.astype(np.float16).astype(np.float64))


def test_round_to_keeps_shape_and_dtype():
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    r = trncore.round_to(x, "fp8_e4m3")
    assert r.shape == x.shape and r.dtype == np.float32
    assert np.all(np.abs(r - x) <= np.abs(x) * 2.0**-4 + 2.0**-9)  # half an ulp of 3 mantissa bits (normal range)


def test_stochastic_rounding_is_seeded_and_thread_independent():
    x = np.random.default_rng(3).standard_normal(100000).astype(np.float32)
    a = trncore.encode(x, "bf16", rounding="stochastic", seed=5, threads=1)
    b = trncore.encode(x, "bf16", rounding="stochastic", seed=5, threads=2)
    c = trncore.encode(x, "bf16", rounding="stochastic", seed=6, threads=1)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_options_object_and_repr():
    o = trncore.Options(backend="sim", mode="ozaki", target_forward_error=1e-12, threads=2, seed=7)
    assert o.backend == "sim" and o.mode == "ozaki" and o.threads == 2 and o.seed == 7
    assert o.target_forward_error == 1e-12
    assert "sim" in repr(o)


def test_errors_map_to_hierarchy():
    with pytest.raises(trncore.InvalidArgument) as e:
        trncore.encode(np.ones(3), "bf17")
    assert isinstance(e.value, ValueError)
    assert e.value.function == "trncore.encode" and "bf17" in str(e.value)
    with pytest.raises(trncore.ParseError):
        trncore.Options(backend="gpu")
    with pytest.raises(TypeError, match="colour"):
        trncore.Options(colour="red")
    with pytest.raises(trncore.InvalidArgument, match="uint16"):
        trncore.decode(np.zeros(3, dtype=np.uint8), "bf16")
    with pytest.raises(trncore.InvalidArgument):
        trncore.encode(np.array(["a", "b"]), "bf16")


def test_report_object():
    r = trncore.AccuracyReport()
    assert r.certified is False and r.target is None
    assert isinstance(repr(r), str)


class ArrayLike:
    """Exposes only __array__, like a PyTorch CPU tensor does."""

    def __init__(self, values):
        self.values = values

    def __array__(self, dtype=None):
        return np.asarray(self.values, dtype=dtype)


def test_array_protocol_and_buffer_protocol_inputs():
    import array
    x = np.array([1.0, -2.5, 3.0e-3], dtype=np.float32)
    want = trncore.encode(x, "bf16")
    assert np.array_equal(trncore.encode(ArrayLike(x), "bf16"), want)
    assert np.array_equal(trncore.encode(memoryview(array.array("f", x.tolist())), "bf16"), want)
    assert np.array_equal(trncore.encode(x.tolist(), "bf16"), trncore.encode(x.astype(np.float64), "bf16"))


def test_encode_strided_and_fortran_inputs():
    x = np.random.default_rng(4).standard_normal((6, 8)).astype(np.float32)
    assert np.array_equal(trncore.encode(x[::2, ::3], "bf16"), bf16_rne_oracle(x[::2, ::3]))
    assert np.array_equal(trncore.encode(np.asfortranarray(x), "bf16"), bf16_rne_oracle(x))


def test_make_builds_the_library_message():
    e = trncore.DimensionMismatch.make("pkg.f", "x has 3 entries", "pass 4")
    assert str(e) == "pkg.f: x has 3 entries: pass 4"
    assert (e.function, e.problem, e.hint) == ("pkg.f", "x has 3 entries", "pass 4")
    assert isinstance(e, ValueError)
