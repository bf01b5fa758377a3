"""trntensor.einsum, plans, the plan cache, multi_einsum, estimate_flops against numpy.einsum.

Tolerances: docs/trntensor.md's componentwise bound |Ŷ − Y| ≤ ε·einsum(|A|, |B|, …) with
ε = Π_s(1 + ε_s) − 1 over the plan's steps, recomputed here from the plan (doc_bound): a host GEMM step over K
terms ε_s = γ_{K+2}, a direct product u, a summation of r terms γ_{r−1}, and (1 + u)³ for the α/β stage;
γ_n = n·u/(1 − n·u) with u the unit roundoff of the computing dtype. The reference is numpy.einsum in long
double (u = 2⁻⁶⁴), whose own error is < 1/2000 of the float64 bound; the assertions allow that 1% (REF).
"""
import gc
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import trncore
import trntensor as tt

REF = 1.01  # room for the long-double reference's own rounding (≤ 2⁻¹¹ of the float64 bound)


def unit_roundoff(dtype):
    return float(np.finfo(dtype).eps) / 2


def gamma(n, u):
    return n * u / (1 - n * u)


def doc_bound(plan, u):
    """ε of docs/trntensor.md for this plan's steps (host), independent of the library's report."""
    parts = [u, u, u]  # the α/β stage, (1 + u)³
    for s in plan.steps:
        if s.kind == "contract":
            parts.append(gamma(s.k_size + 2, u) if s.method == "gemm" else u)
        elif s.flops > 0 and s.result_size > 0:
            parts.append(gamma(s.flops / s.result_size, u))  # a sum of r = flops/size + 1 terms: γ_{r−1}
    e = 0.0
    for p in parts:  # Π(1 + p) − 1 without forming 1 + u (which rounds to 1)
        e = e + p + e * p
    return e


def reference(subscripts, *ops):
    exact = np.einsum(subscripts, *[np.asarray(o, dtype=np.longdouble) for o in ops])
    magnitude = np.einsum(subscripts, *[np.abs(np.asarray(o, dtype=np.longdouble)) for o in ops])
    return exact, magnitude


def check(subscripts, *ops, dtype=np.float64):
    got, rep = tt.einsum(subscripts, *ops, report=True)
    assert got.dtype == dtype
    exact, magnitude = reference(subscripts, *ops)
    assert got.shape == exact.shape
    plan = tt.plan_contraction(subscripts, *ops)
    eps = doc_bound(plan, unit_roundoff(dtype))
    assert rep.certified and rep.met
    assert rep.a_priori_bound <= eps * (1 + 1e-12)
    err = np.abs(got.astype(np.longdouble) - exact)
    assert np.all(err <= REF * eps * magnitude), (subscripts, float(np.max(err)))
    return got


rng = np.random.default_rng(2026)


def rand(*shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("m,k,n", [(0, 3, 2), (2, 0, 3), (1, 1, 1), (7, 13, 5), (129, 127, 128), (128, 129, 1)])
def test_matmul_like(m, k, n):
    a, b = rand(m, k), rand(k, n)
    check("ij,jk->ik", a, b)
    check("ji,jk->ik", a.T.copy(), b)  # transposed operand
    check("ij,kj->ki", a, b.T.copy())  # transposed output


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batched_and_chain(dtype):
    check("bij,bjk->bik", rand(5, 7, 11, dtype=dtype), rand(5, 11, 3, dtype=dtype), dtype=dtype)
    check("ij,jk,kl->il", rand(13, 4, dtype=dtype), rand(4, 17, dtype=dtype), rand(17, 6, dtype=dtype), dtype=dtype)
    check("iap,jbp->ijab", rand(3, 5, 7, dtype=dtype), rand(2, 4, 7, dtype=dtype), dtype=dtype)


def test_traces_sums_outer_permutation_hadamard():
    m = rand(11, 11)
    assert check("ii->", m).shape == ()
    check("ii", m)  # implicit: the trace
    check("ii->i", m)
    check("ij->", rand(7, 3))
    check("ij->j", rand(7, 3))
    check("i,j->ij", rand(5), rand(3))
    check("ijk->kij", rand(2, 3, 4))
    check("ba", rand(3, 4))  # implicit output in ASCII order: a transpose
    check("ij,ij->ij", rand(4, 5), rand(4, 5))
    check("aB,Bc", rand(3, 4), rand(4, 2))  # upper case letters
    check(",ij->ij", np.array(2.5), rand(2, 3))  # a scalar operand


def test_repeated_indices_and_diagonals():
    check("iij,jkk->ik", rand(3, 3, 4), rand(4, 5, 5))
    check("bij,bkj->bik", rand(2, 3, 3), rand(2, 3, 3))  # j = k extents: planned from labels


def test_broadcasting_and_ellipsis():
    check("...ij,...jk->...ik", rand(1, 3, 4), rand(5, 4, 2))
    check("ij,j->ij", rand(4, 1), rand(6))  # a lettered extent-1 axis broadcasts
    check("...i,...i->...", rand(6, 5), rand(6, 5))
    check("...ij->...", rand(2, 3, 4))


def test_float32_and_promotion():
    a32, b32 = rand(9, 31, dtype=np.float32), rand(31, 4, dtype=np.float32)
    check("ij,jk->ik", a32, b32, dtype=np.float32)
    # float32 with float64 computes in float64 (NumPy's promotion); integers convert to float64
    assert tt.einsum("ij,jk->ik", a32, rand(31, 4)).dtype == np.float64
    ints = np.arange(6).reshape(2, 3)
    assert np.array_equal(tt.einsum("ij->ji", ints), ints.T.astype(np.float64))


def test_strided_views_and_lists():
    big = rand(10, 12)
    view = big[1::2, ::3]  # non-contiguous, used without a copy
    check("ij,jk->ik", view, rand(4, 3))
    check("ij->ji", np.asfortranarray(rand(5, 6)))
    assert np.allclose(tt.einsum("i,i->", [1, 2, 3], [4, 5, 6]), 32)

    class ArrayLike:  # e.g. a PyTorch CPU tensor: anything with __array__
        def __array__(self, dtype=None):
            return np.arange(4.0).reshape(2, 2)

    assert np.array_equal(tt.einsum("ij->ji", ArrayLike()), np.arange(4.0).reshape(2, 2).T)
    buf = memoryview(np.arange(3.0))  # the buffer protocol
    assert tt.einsum("i->", buf) == 3.0


def test_alpha_beta_out_in_place():
    a, b = rand(6, 5), rand(5, 4)
    c0 = rand(6, 4)
    c = c0.copy()
    r = tt.einsum("ij,jk->ik", a, b, alpha=2.0, beta=0.5, out=c)
    assert r is c
    want = 2.0 * (a.astype(np.longdouble) @ b) + 0.5 * c0
    mag = 2.0 * (np.abs(a).astype(np.longdouble) @ np.abs(b)) + 0.5 * np.abs(c0)
    eps = gamma(5 + 2, unit_roundoff(np.float64)) * (1 + unit_roundoff(np.float64)) ** 3 + 3 * unit_roundoff(np.float64)
    assert np.all(np.abs(c - want) <= REF * eps * mag)
    # out as a strided view (written in place, never copied)
    buf = np.zeros((12, 8))
    view = buf[::2, ::2]
    tt.einsum("ij,jk->ik", a, b, out=view)
    assert np.shares_memory(view, buf) and np.allclose(buf[::2, ::2], a @ b) and np.all(buf[1::2] == 0)
    # alpha without out scales
    assert np.allclose(tt.einsum("ij,jk->ik", a, b, alpha=-3.0), -3.0 * (a @ b))


def test_upstream_precision_and_dtype():
    a, b = rand(8, 200, dtype=np.float32), rand(200, 3, dtype=np.float32)
    fast = tt.einsum("ij,jk->ik", a, b)
    kahan = tt.einsum("ij,jk->ik", a, b, precision="kahan")
    assert kahan.dtype == np.float32  # computed in float64, returned in the operands' dtype
    exact = a.astype(np.float64) @ b.astype(np.float64)
    # kahan: one rounding of the float64 result to float32 (half an ulp) plus the float64 GEMM's error
    assert np.all(np.abs(kahan - exact) <= unit_roundoff(np.float32) * np.abs(exact)
                  + gamma(202, unit_roundoff(np.float64)) * (np.abs(a).astype(np.float64) @ np.abs(b)))
    assert not np.array_equal(fast, kahan)
    out = np.zeros((8, 3), dtype=np.float32)
    assert tt.einsum("ij,jk->ik", a, b, precision="kahan", out=out) is out
    assert np.array_equal(out, kahan)
    assert tt.einsum("ij,jk->ik", a, b, dtype="float64").dtype == np.float64
    assert tt.einsum("ij,jk->ik", a.astype(np.float64), b, dtype=np.float32).dtype == np.float32
    with pytest.raises(trncore.NotSupported, match="dd") as e:
        tt.einsum("ij,jk->ik", a, b, precision="dd")
    assert isinstance(e.value, NotImplementedError)
    with pytest.raises(trncore.InvalidArgument, match="trntensor.einsum"):
        tt.einsum("ij,jk->ik", a, b, precision="exact")
    with pytest.raises(trncore.InvalidArgument, match="dtype"):
        tt.einsum("ij,jk->ik", a, b, dtype="int32")
    # dtype='bf16' = math mode bf16: a sim mode (the host has no reduced-precision GEMM)
    with pytest.raises(trncore.NotSupported):
        tt.einsum("ij,jk->ik", a, b, dtype="bf16")
    r, rep = tt.einsum("ij,jk->ik", a, b, dtype="bf16", backend="sim", report=True)
    assert r.dtype == np.float32 and "bf16" in "\n".join(rep.trajectory)
    with pytest.raises(trncore.InvalidArgument, match="mode"):
        tt.einsum("ij,jk->ik", a, b, dtype="bf16", backend="sim", mode="ozaki")


@pytest.mark.parametrize("mode", ["bf16", "fp32", "compensated", "ozaki"])
def test_sim_backend_modes_within_reported_bound(mode):
    a, b, c = rand(9, 33), rand(33, 4), rand(4, 5)
    got, rep = tt.einsum("ij,jk,kl->il", a, b, c, backend="sim", mode=mode, report=True)
    exact, magnitude = reference("ij,jk,kl->il", a, b, c)
    assert rep.certified
    assert all(mode in line for line in rep.trajectory if "contract" in line)
    assert np.all(np.abs(got - exact) <= REF * rep.a_priori_bound * magnitude)
    assert "OpenBLAS" not in "\n".join(rep.trajectory)  # the modelled TensorEngine, not the host's BLAS


def test_options_object():
    a, b = rand(5, 6), rand(6, 7)
    opts = trncore.Options(backend="sim", mode="ozaki", threads=1)
    _, rep = tt.einsum("ij,jk->ik", a, b, options=opts, report=True)
    assert "ozaki" in rep.trajectory[0]
    _, rep = tt.einsum("ij,jk->ik", a, b, options=opts, mode="bf16", report=True)  # keywords override
    assert "bf16" in rep.trajectory[0]


def test_target_forward_error():
    a, b = rand(20, 30), rand(30, 10)
    r, rep = tt.einsum("ij,jk->ik", a, b, backend="sim", target_forward_error=1e-6, report=True)
    assert rep.met and rep.target == 1e-6 and rep.a_priori_bound <= 1e-6
    exact, magnitude = reference("ij,jk->ik", a, b)
    assert np.all(np.abs(r - exact) <= REF * rep.a_priori_bound * magnitude)
    # the host cannot certify 1e-18: report says met = False, the plain call raises TargetNotMet
    _, rep = tt.einsum("ij,jk->ik", a, b, target_forward_error=1e-18, report=True)
    assert rep.certified and not rep.met and rep.a_priori_bound > 1e-18
    with pytest.raises(trncore.TargetNotMet) as e:
        tt.einsum("ij,jk->ik", a, b, target_forward_error=1e-18)
    assert isinstance(e.value, RuntimeError)
    # NaN operands: not certified
    bad = a.copy()
    bad[0, 0] = np.nan
    _, rep = tt.einsum("ij,jk->ik", bad, b, report=True)
    assert not rep.certified and not rep.met and rep.uncertified_reason
    with pytest.raises(trncore.TargetNotMet):
        tt.einsum("ij,jk->ik", bad, b)


def test_plan_once_execute_many():
    a, b, c = rand(30, 4), rand(4, 50), rand(50, 6)
    plan = tt.plan_contraction("ij,jk,kl->il", a, b, c)
    text = str(plan)
    assert text.startswith("ContractionPlan ij,jk,kl->il") and "contract" in text and "total flops" in text
    assert plan.subscripts == "ij,jk,kl->il" and plan.output_shape == (30, 6)
    assert plan.shapes == [(30, 4), (4, 50), (50, 6)]
    assert plan.algorithm == "optimal" and plan.backend == "host"
    # the optimal order contracts j first (a·b is 30×50, b·c only 4×6)
    assert plan.contraction_path == [(1, 2), (0, 1)] and plan.path == [(1, 2), (0, 3)]
    assert plan.total_flops == 2 * 4 * 6 * 50 + 2 * 30 * 6 * 4 == plan.estimated_flops
    assert plan.largest_intermediate == 24
    assert [s.kind for s in plan.steps] == ["contract", "contract", "finish"]
    assert plan.label_names == ["i", "j", "k", "l"]
    for _ in range(3):
        x, y, z = rand(30, 4), rand(4, 50), rand(50, 6)
        assert np.array_equal(plan.execute(x, y, z), tt.einsum("ij,jk,kl->il", x, y, z))
    out = np.ones((30, 6))
    r, rep = plan.execute(a, b, c, alpha=2.0, beta=1.0, out=out, report=True)
    assert r is out and rep.met and np.allclose(out, 2 * (a @ b @ c) + 1)
    with pytest.raises(trncore.DimensionMismatch):
        plan.execute(a, b, rand(50, 7))
    with pytest.raises(trncore.InvalidArgument):
        plan.execute(a, b, c, backend="sim")
    # numpy's einsum_path finds the same pairwise order
    assert np.einsum_path("ij,jk,kl->il", a, b, c, optimize="optimal")[0][1:] == [(1, 2), (0, 1)]


def test_plan_modes_and_planner_options():
    a, b, c = rand(6, 7), rand(7, 8), rand(8, 3)
    plan = tt.plan_contraction("ij,jk,kl->il", a, b, c, backend="sim", mode="bf16")
    assert all(s.mode == "bf16" and s.backend == "sim" for s in plan.steps if s.kind == "contract")
    plan.set_mode(0, "ozaki")
    assert plan.steps[0].mode == "ozaki"
    _, rep = plan.execute(a, b, c, report=True)
    assert "ozaki" in rep.trajectory[0] and "bf16" in rep.trajectory[1]
    # the cached plan is unchanged: a fresh plan still says bf16
    assert tt.plan_contraction("ij,jk,kl->il", a, b, c, backend="sim", mode="bf16").steps[0].mode == "bf16"
    with pytest.raises(trncore.InvalidArgument):
        plan.set_mode(2, "fp32")  # the finish step
    with pytest.raises(trncore.ParseError):
        plan.set_mode(0, "fp99")
    ltr = tt.plan_contraction("ij,jk,kl->il", rand(30, 4), rand(4, 50), rand(50, 6), algorithm="left_to_right")
    assert ltr.algorithm == "left_to_right" and ltr.contraction_path == [(0, 1), (0, 1)]
    with pytest.raises(trncore.ResourceExhausted):
        tt.plan_contraction("ij,jk,kl->il", rand(30, 4), rand(4, 50), rand(50, 6), memory_limit=1)
    with pytest.raises(trncore.InvalidArgument, match="optimal_limit"):
        tt.plan_contraction("ij,jk->ik", a, b, optimal_limit=0)
    with pytest.raises(trncore.InvalidArgument, match="algorithm"):
        tt.plan_contraction("ij,jk->ik", a, b, algorithm="fastest")
    kahan = tt.plan_contraction("ij,jk->ik", a, b, precision="kahan")
    assert kahan.precision == "kahan" and kahan.execute(a.astype(np.float32), b.astype(np.float32)).dtype == np.float32


def test_plan_cache_and_estimate_flops():
    tt.clear_plan_cache()
    assert tt.plan_cache_info() == {"size": 0, "hits": 0, "misses": 0, "maxsize": 512}
    a, b = rand(3, 4), rand(4, 5)
    first = tt.einsum("ij,jk->ik", a, b)
    tt.einsum("ij,jk->ik", rand(3, 4), rand(4, 5))
    info = tt.plan_cache_info()
    assert info["size"] == 1 and info["hits"] == 1 and info["misses"] == 1
    tt.einsum("ij,jk->ik", a, b, backend="sim")  # another backend is another plan
    assert tt.plan_cache_info()["size"] == 2
    tt.clear_plan_cache()
    assert tt.plan_cache_info()["size"] == 0
    assert np.array_equal(tt.einsum("ij,jk->ik", a, b), first)  # bitwise the same after replanning
    assert tt.estimate_flops("ij,jk->ik", a, b) == 2 * 3 * 4 * 5
    assert tt.estimate_flops("ij,jk,kl->il", np.empty((2, 3)), np.empty((3, 4)), np.empty((4, 5))) == 128
    assert isinstance(tt.estimate_flops("ii->", np.empty((4, 4))), int)


def test_multi_einsum():
    bs = [rand(4, 6) for _ in range(3)]
    res = tt.multi_einsum(("ap,bp->ab", bs[0], bs[1]), ("ap,bp->ab", bs[0], bs[2]), ("ij->j", bs[1]),
                          ("ap,bp->ab", bs[1].astype(np.float32), bs[2].astype(np.float32)))
    assert len(res) == 4
    assert np.allclose(res[0], bs[0] @ bs[1].T, rtol=0, atol=1e-14)
    assert np.allclose(res[1], bs[0] @ bs[2].T, rtol=0, atol=1e-14)
    assert np.allclose(res[2], bs[1].sum(0), rtol=0, atol=1e-14)
    assert res[3].dtype == np.float64  # a mixed batch computes in float64
    f32 = tt.multi_einsum(("ij,jk->ik", bs[0].astype(np.float32), bs[1].T.astype(np.float32)))
    assert f32[0].dtype == np.float32
    assert tt.multi_einsum() == []
    with pytest.raises(trncore.InvalidArgument, match="contraction 1"):
        tt.multi_einsum(("ij->i", bs[0]), "ij->j")
    with pytest.raises(trncore.DimensionMismatch):
        tt.multi_einsum(("ij,jk->ik", bs[0], bs[1]))
    with pytest.raises(TypeError, match="alpha"):
        tt.multi_einsum(("ij->i", bs[0]), alpha=2.0)


def test_parse_subscripts_and_backend_switch():
    d = tt.parse_subscripts("ij,jk", np.empty((2, 3)), np.empty((3, 4)))
    assert d["normal_form"] == "ij,jk->ik" and d["extents"] == [2, 3, 4] and not d["explicit_output"]
    assert tt.HAS_NKI is False and tt.get_backend() == "host"
    try:
        tt.set_backend("sim")
        assert tt.get_backend() == "sim"
        _, rep = tt.einsum("ij,jk->ik", rand(3, 4), rand(4, 2), report=True)
        assert "ozaki" in rep.trajectory[0]  # ran on the sim backend (automatic = ozaki there)
        assert tt.plan_contraction("ij,jk->ik", rand(3, 4), rand(4, 2)).backend == "sim"
        tt.set_backend("pytorch")  # upstream's name for the host path
        assert tt.get_backend() == "host"
        with pytest.raises(trncore.NotSupported):
            tt.set_backend("nki")
        with pytest.raises(trncore.InvalidArgument, match="set_backend"):
            tt.set_backend("gpu")
    finally:
        tt.set_backend("host")


def test_bad_input_einsum():
    a, b = rand(3, 4), rand(4, 5)
    with pytest.raises(trncore.ParseError) as e:
        tt.einsum("ij,j#->i", a, b)
    assert e.value.column == 5 and isinstance(e.value, ValueError) and "subscripts" in str(e.value)
    with pytest.raises(trncore.ParseError, match="operand"):
        tt.einsum("ij,jk->ik", a)  # operand count mismatch
    with pytest.raises(trncore.ParseError):
        tt.einsum("ij,jk->iz", a, b)  # output letter in no input
    with pytest.raises(trncore.DimensionMismatch):
        tt.einsum("ij,jk->ik", a, rand(5, 5))  # j: 4 vs 5
    with pytest.raises(trncore.DimensionMismatch):
        tt.einsum("ijk,jk->i", a, b)  # more letters than axes
    with pytest.raises(trncore.InvalidArgument, match="no operands"):
        tt.einsum("->")
    with pytest.raises(trncore.InvalidArgument, match="trntensor.einsum.*complex"):
        tt.einsum("ij,jk->ik", a + 1j, b)
    with pytest.raises(trncore.InvalidArgument, match="trntensor.einsum"):
        tt.einsum("i->", np.array(["a", "b"]))
    with pytest.raises(trncore.InvalidArgument, match="trntensor.einsum"):
        tt.einsum("i->", object())
    with pytest.raises(TypeError, match="colour"):
        tt.einsum("ij,jk->ik", a, b, colour=1)
    with pytest.raises(trncore.ParseError):
        tt.einsum("ij,jk->ik", a, b, mode="bf17")
    with pytest.raises(trncore.ParseError):
        tt.einsum("ij,jk->ik", a, b, backend="gpu")
    with pytest.raises(trncore.InvalidArgument, match="threads"):
        tt.einsum("ij,jk->ik", a, b, threads=-1)
    with pytest.raises(trncore.InvalidArgument, match="alpha"):
        tt.einsum("ij,jk->ik", a, b, alpha="two")
    with pytest.raises(trncore.InvalidArgument, match="beta"):
        tt.einsum("ij,jk->ik", a, b, beta=1.0)  # beta without out
    with pytest.raises(trncore.InvalidArgument, match="float64"):
        tt.einsum("ij,jk->ik", a, b, out=np.zeros((3, 5), dtype=np.float32))
    with pytest.raises(trncore.DimensionMismatch):
        tt.einsum("ij,jk->ik", a, b, out=np.zeros((3, 4)))
    ro = np.zeros((3, 5))
    ro.setflags(write=False)
    with pytest.raises(trncore.InvalidArgument, match="read-only"):
        tt.einsum("ij,jk->ik", a, b, out=ro)
    with pytest.raises(trncore.InvalidArgument, match="stride"):
        tt.einsum("ij,jk->ik", a, b, out=np.zeros((3, 5))[::-1])
    with pytest.raises(trncore.InvalidArgument, match="not a NumPy array"):
        tt.einsum("ij,jk->ik", a, b, out=[[0] * 5] * 3)
    sq = rand(4, 4)
    with pytest.raises(trncore.InvalidArgument):
        tt.einsum("ij->ji", sq, out=sq)  # out overlaps the operand
    with pytest.raises(trncore.NotSupported):
        tt.einsum("ij,jk->ik", a, b, mode="bf16")  # reduced precision on the host


def test_bad_input_plans_and_utilities():
    with pytest.raises(trncore.ParseError):
        tt.plan_contraction("ij,jk->ik", np.empty((2, 3)))
    class NoShape:
        shape = "2x3"

    with pytest.raises(trncore.InvalidArgument, match="plan_contraction"):
        tt.plan_contraction("ij->i", NoShape())
    with pytest.raises(trncore.DimensionMismatch):
        tt.plan_contraction("ij->i", 3.0)  # a scalar has no axes
    with pytest.raises(TypeError, match="alpha"):
        tt.plan_contraction("ij->i", np.empty((2, 3)), alpha=1.0)
    with pytest.raises(trncore.DimensionMismatch):
        tt.estimate_flops("ij,jk->ik", np.empty((2, 3)), np.empty((4, 5)))
    with pytest.raises(TypeError):
        tt.estimate_flops("ij->i", np.empty((2, 3)), colour=1)
    with pytest.raises(trncore.ParseError):
        tt.parse_subscripts("i..j", np.empty((2, 3)))
    plan = tt.plan_contraction("ij->i", np.empty((2, 3)))
    with pytest.raises(trncore.InvalidArgument, match="execute.*complex"):
        plan.execute(np.ones((2, 3), dtype=complex))
    with pytest.raises(TypeError):
        plan.execute(np.ones((2, 3)), algorithm="greedy")


def test_no_copy_for_matching_inputs_and_refcounts():
    a, b = rand(4, 3), rand(3, 2)
    before = (sys.getrefcount(a), sys.getrefcount(b))
    for _ in range(10_000):
        tt.einsum("ij,jk->ik", a, b)
    assert (sys.getrefcount(a), sys.getrefcount(b)) == before
    gc.collect()
    tracemalloc.start()
    for _ in range(2_000):
        tt.einsum("ij,jk->ik", a, b)
    base = tracemalloc.get_traced_memory()[0]
    for _ in range(10_000):
        tt.einsum("ij,jk->ik", a, b)
    grown = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert grown < 1 << 20


def test_two_threads_match_sequential():
    a, b, c = rand(150, 160), rand(160, 170), rand(170, 30)
    seq = [tt.einsum("ij,jk,kl->il", a, b, c), tt.einsum("ij,jk->ik", a, b, backend="sim", mode="ozaki")]
    got = [None, None]

    def work(i):
        for _ in range(3):
            got[i] = (tt.einsum("ij,jk,kl->il", a, b, c) if i == 0
                      else tt.einsum("ij,jk->ik", a, b, backend="sim", mode="ozaki"))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(got[0], seq[0]) and np.array_equal(got[1], seq[1])
