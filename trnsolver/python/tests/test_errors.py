"""Bad input for every public function: a trncore exception naming the function, never a crash."""
import numpy as np
import pytest

import trncore
import trnsolver as ts

S = np.eye(4) * 2.0 + 0.1
V = np.ones(4)
LU = ts.getrf(S)
LD = ts.sytrf(S)
QR = ts.geqrf(S)

# name → (args, index of the matrix argument to corrupt)
CASES = {
    "cholesky": ((S,), 0), "potrf": ((S,), 0), "potrs": ((S, V), 0), "lu": ((S,), 0), "getrf": ((S,), 0),
    "getrs": ((LU[0], LU[1], V), 0), "lange": ((S,), 0), "gecon": ((LU[0], 1.0), 0), "sytrf": ((S,), 0),
    "sytrs": ((LD[0], LD[1], V), 0), "qr": ((S,), 0), "geqrf": ((S,), 0), "orgqr": ((QR[0], QR[1]), 0),
    "svd": ((S,), 0), "pinv": ((S,), 0), "eigh": ((S,), 0), "syevd": ((S,), 0),
    "eigh_generalized": ((S, S), 0), "eigh_jacobi": ((S,), 0), "schur": ((S,), 0), "lstsq": ((S, V), 0),
    "gels": ((S, V), 0), "inv_sqrt_spd": ((S,), 0), "inv_sqrt_spd_ns": ((S,), 0), "solve": ((S, V), 0),
    "solve_spd": ((S, V), 0), "inv_spd": ((S,), 0), "cg": ((S, V), 0), "gmres": ((S, V), 0),
    "bicgstab": ((S, V), 0), "minres": ((S, V), 0), "chebyshev": ((S, V, (1.0, 3.0)), 0),
    "richardson": ((S, V, 0.5), 0), "cg_bf16": ((S, V), 0), "richardson_bf16": ((S, V, 0.5), 0),
    "power_iteration": ((S,), 0), "lanczos_bounds": ((S,), 0), "arnoldi": ((S, V, 2), 0),
    "jacobi_preconditioner": ((S,), 0), "block_jacobi_preconditioner": ((S,), 0),
    "ssor_preconditioner": ((S,), 0), "rsvd": ((S, 2), 0), "rsvd_adaptive": ((S, 1e-3), 0),
    "nystrom": ((S, 2), 0), "eigh_randomized": ((S, 2), 0), "hutchinson": ((S, 4), 0),
    "hutch_plus_plus": ((S, 6), 0), "diagonal_estimate": ((S, 4), 0),
    "lstsq_sketched": ((np.vstack([S, S]), np.ones(8)), 0), "sketch_right": ((S, 2), 0),
    "sketch_left": ((S, 2), 0), "rayleigh_ritz_sketched": ((S, np.eye(4)[:, :2], 4), 0),
}
NO_KWARGS_PASSTHROUGH = {"arnoldi", "jacobi_preconditioner", "block_jacobi_preconditioner",
                         "ssor_preconditioner"}  # take no options (pybind11 TypeError for keywords)


def call(name, args, **kw):
    return getattr(ts, name)(*args, **kw)


def with_arg(args, i, value):
    return tuple(value if k == i else a for k, a in enumerate(args))


def test_every_public_function_is_covered():
    public = {n for n in ts.__all__ if callable(getattr(ts, n)) and not isinstance(getattr(ts, n), type)}
    public -= {"version", "set_backend", "get_backend", "sketch_matrix", "hpl_mxp"}  # no arrays: below
    assert public <= set(CASES), public - set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_good_call_works(name):
    args, _ = CASES[name]
    call(name, args)


@pytest.mark.parametrize("name", sorted(CASES))
def test_complex_dtype(name):
    args, i = CASES[name]
    bad = with_arg(args, i, args[i].astype(np.complex128))
    with pytest.raises(trncore.InvalidArgument) as e:
        call(name, bad)
    assert "trnsolver" in str(e.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_string_dtype(name):
    args, i = CASES[name]
    bad = with_arg(args, i, np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises((trncore.InvalidArgument, trncore.DimensionMismatch)) as e:
        call(name, bad)
    assert "trnsolver" in str(e.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrong_ndim(name):
    args, i = CASES[name]
    bad = with_arg(args, i, np.ones((2, 2, 2)))
    with pytest.raises(trncore.Error) as e:
        call(name, bad)
    assert isinstance(e.value, (trncore.DimensionMismatch, trncore.InvalidArgument))
    assert "trnsolver" in str(e.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrong_shape(name):
    args, i = CASES[name]
    if name in ("lange", "svd", "pinv", "qr", "geqrf", "lu", "getrf", "gels", "lstsq", "rsvd", "rsvd_adaptive",
                "sketch_right", "sketch_left", "orgqr", "lstsq_sketched"):
        bad = with_arg(args, i, np.ones((3, 5)))  # rectangular is fine here: mismatch the second operand
        if len(args) > 1 and isinstance(args[1], np.ndarray):
            bad = with_arg(args, 1, np.ones(7))
        else:
            pytest.skip("rectangular input is valid and there is no second operand")
    else:
        bad = with_arg(args, i, np.ones((3, 5)))
    with pytest.raises(trncore.Error) as e:
        call(name, bad)
    assert isinstance(e.value, (trncore.DimensionMismatch, trncore.InvalidArgument))


@pytest.mark.parametrize("name", sorted(set(CASES) - NO_KWARGS_PASSTHROUGH))
def test_unknown_keyword(name):
    args, _ = CASES[name]
    with pytest.raises(TypeError, match="bogus_kw"):
        call(name, args, bogus_kw=1)


@pytest.mark.parametrize("name", sorted(set(CASES) - NO_KWARGS_PASSTHROUGH))
def test_bad_option_string(name):
    args, _ = CASES[name]
    with pytest.raises(trncore.ParseError):
        call(name, args, backend="gpu")


def test_misc_errors():
    with pytest.raises(trncore.InvalidArgument, match="trnsolver.LinearOperator"):
        ts.LinearOperator(lambda v: v)  # callable without n
    with pytest.raises(trncore.DimensionMismatch, match="trnsolver.LinearOperator"):
        ts.LinearOperator(np.ones((2, 3)))
    with pytest.raises(trncore.InvalidArgument, match="uplo"):
        ts.potrf(S, "middle")
    with pytest.raises(trncore.InvalidArgument, match="tol"):
        ts.cg(S, V, tol=1e-3, rtol=1e-3)
    with pytest.raises(trncore.NotSupported):
        ts.cg(S, V, backend="sim")
    with pytest.raises(trncore.NotSupported):
        ts.cg(S, V, target_forward_error=1e-6)
    with pytest.raises(trncore.InvalidArgument, match="monitor"):
        ts.cg(S, V, monitor=3)
    with pytest.raises(trncore.InvalidArgument):
        ts.getrs(LU[0], np.array([9, 9, 9, 9]), V)  # pivots out of range
    with pytest.raises(trncore.InvalidArgument, match="ipiv"):
        ts.getrs(LU[0], np.ones(4), V)  # float pivots
    with pytest.raises(trncore.InvalidArgument):
        ts.cg(S, np.array([np.nan, 1, 1, 1]))
    with pytest.raises(trncore.InvalidArgument, match="keyword"):
        ts.cg(S, V, rtol="small")


def test_array_free_functions():
    with pytest.raises(trncore.InvalidArgument):
        ts.hpl_mxp(0)
    with pytest.raises(TypeError, match="bogus_kw"):
        ts.hpl_mxp(10, bogus_kw=1)
    with pytest.raises(trncore.ParseError):
        ts.hpl_mxp(10, factor="fp128")
    with pytest.raises(trncore.InvalidArgument, match="trnsolver.sketch_matrix"):
        ts.sketch_matrix(4, 2, dtype=np.complex128)
    with pytest.raises(TypeError, match="bogus_kw"):
        ts.sketch_matrix(4, 2, bogus_kw=1)
    with pytest.raises(trncore.InvalidArgument):
        ts.sketch_matrix(-1, 2)
