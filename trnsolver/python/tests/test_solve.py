"""Certified solve (trnsolver::solve) and HPL-MxP.

The oracle for the certificate is a system with a KNOWN exact solution: A's entries are put on the grid
2^-30 (|a_ij| < 2, so ≤ 31 significant bits), x has integer entries |x_i| ≤ 100 (7 bits); every product
a_ij·x_j and every partial sum of b = A @ x is then a multiple of 2^-30 below 2^14 in magnitude, i.e. at most
44 significant bits, so b is computed EXACTLY (checked against a np.longdouble evaluation) and x is the exact
solution of A x = b. (np.linalg.solve on a well-conditioned case would not be an oracle for the bound.)
"""
import numpy as np
import pytest

import trncore
import trnsolver as ts


def system(n, kappa, seed=0):
    rng = np.random.default_rng(seed)
    q1, _ = np.linalg.qr(rng.standard_normal((n, n)))
    q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    s = np.logspace(0, -np.log10(kappa), n)
    a = np.round(((q1 * s) @ q2.T) * 2.0 ** 30) / 2.0 ** 30
    x = rng.integers(-100, 101, n).astype(np.float64)
    b = a @ x
    b_ld = a.astype(np.longdouble) @ x.astype(np.longdouble)
    assert np.array_equal(b_ld, b.astype(np.longdouble))  # b is exact: x solves A x = b exactly
    return a, b, x


def fwd(xhat, x_true):
    return float(np.max(np.abs(xhat - x_true)) / np.max(np.abs(xhat)))


@pytest.mark.parametrize("kappa,target", [(1e2, None), (1e6, 1e-10), (1e9, 1e-12)])
def test_certified_bound_holds(kappa, target):
    a, b, x_true = system(60, kappa)
    kw = {} if target is None else {"target_forward_error": target}
    x, rep = ts.solve(a, b, report=True, **kw)
    assert isinstance(rep, ts.SolveReport) and isinstance(rep, trncore.AccuracyReport)
    assert rep.certified and rep.met and rep.info == 0
    err = fwd(x, x_true)
    # The certificate: the bound holds for the true error (relative to x̂).
    assert err <= rep.forward_error_bound_normwise
    if target is not None:
        assert rep.a_priori_bound <= target and rep.target == target
    assert rep.condition_estimate >= min(kappa, 1e8) / 100
    assert rep.refinement in ("fp64_lu", "lu_ir", "gmres_ir")
    # no-report form: same x, no exception when met
    assert np.array_equal(ts.solve(a, b, **kw), x)


def test_solve_matrix_rhs_and_layouts():
    a, b, _ = system(20, 10.0)
    B = np.stack([b, 2 * b], axis=1)
    X = ts.solve(np.asfortranarray(a), B)
    assert X.shape == (20, 2)
    assert np.allclose(X[:, 1], 2 * X[:, 0], rtol=1e-12)
    assert np.allclose(X, np.linalg.solve(a, B), rtol=1e-10)


def test_solve_sim_bf16():
    a, b, x_true = system(32, 1e3, seed=2)
    x, rep = ts.solve(a, b, report=True, backend="sim", target_forward_error=1e-10)
    assert rep.met and fwd(x, x_true) <= rep.forward_error_bound_normwise
    assert rep.factor in ("bf16", "fp64")


def test_target_not_met_raises_without_report():
    a = np.eye(4)
    a[3, 3] = 0.0  # singular
    with pytest.raises(trncore.TargetNotMet):
        ts.solve(a, np.ones(4))
    x, rep = ts.solve(a, np.ones(4), report=True)
    assert rep.info == 4 and not rep.certified and not rep.met and rep.uncertified_reason


def test_solve_monitor_stops():
    a, b, _ = system(40, 1e9, seed=3)
    seen = []

    def monitor(p):
        seen.append(p.iteration)
        return True

    x, rep = ts.solve(a, b, report=True, refinement="gmres_ir", monitor=monitor)
    assert seen == [1] and rep.stopped_by_monitor and not rep.certified


def test_refinement_options():
    a, b, x_true = system(30, 1e4, seed=4)
    for ref in ("fp64_lu", "lu_ir", "gmres_ir"):
        x, rep = ts.solve(a, b, report=True, refinement=ref, residual="double_double")
        assert rep.refinement == ref or rep.fallbacks > 0
        assert fwd(x, x_true) <= rep.forward_error_bound_normwise
    with pytest.raises(trncore.ParseError):
        ts.solve(a, b, refinement="magic")
    with pytest.raises(trncore.InvalidArgument, match="trnsolver::solve"):
        ts.solve(a, b, max_refinements=0)


def test_hpl_mxp():
    r = ts.hpl_mxp(150)
    assert isinstance(r, ts.HplMxpResult) and r.passed and r.n == 150 and r.scaled_residual <= 16
    assert isinstance(r.report, ts.SolveReport) and not r.report.certified
    rs = ts.hpl_mxp(96, backend="sim", factor="bf16")
    assert rs.passed and rs.report.factor == "bf16"
    with pytest.raises(trncore.InvalidArgument):
        ts.hpl_mxp(64, factor="bf16")  # bf16 on the host
    with pytest.raises(trncore.NotSupported):
        ts.hpl_mxp(64, target_forward_error=1e-10)


def test_sizes_0_1_and_report_fields():
    x, rep = ts.solve(np.zeros((0, 0)), np.zeros(0), report=True)
    assert x.shape == (0,) and rep.met
    x, rep = ts.solve(np.array([[4.0]]), np.array([2.0]), report=True)
    # exact x; the bound is the fp64 residual's rounding term |A⁻¹|·γ_{n+1}(|A||x| + |b|)/|x| (×3 for the estimator)
    assert x[0] == 0.5 and rep.met and rep.forward_error_bound_normwise <= 100 * 2.0 ** -53
    a, b, _ = system(17, 1e5, seed=9)  # prime size
    x, rep = ts.solve(a, b, report=True, target_forward_error=1e-9)
    beta = rep.forward_error_bound_normwise
    # a_priori_bound = β/(1 − β): the bound relative to the exact solution (SolveReport's contract)
    assert rep.a_priori_bound == pytest.approx(beta / (1 - beta), rel=1e-12)
    assert rep.met == (rep.certified and rep.a_priori_bound <= 1e-9)
    assert rep.backward_error_normwise <= 17 * 2.0 ** -53 * 10
    assert "solve" in repr(rep)
