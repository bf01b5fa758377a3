"""trnblas DF-MP2 bindings against psi4 (data/dfmp2) and a NumPy einsum evaluation."""
import json
import os
from pathlib import Path

import numpy as np
import pytest

import trncore
import trnblas

DATA = Path(os.environ.get("TRNSCI_DATA_DIR") or Path(__file__).resolve().parents[3] / "data")
H2O = DATA / "dfmp2" / "H2O"


def load(d):
    meta = json.loads((d / "meta.json").read_text())
    return np.load(d / "B_iaQ.npy"), np.load(d / "eps_occ.npy"), np.load(d / "eps_vir.npy"), meta


def einsum_energy(B, eo, ev):
    """E_OS, E_SS of docs/trnblas.md straight from the definition, in long double."""
    B = B.astype(np.longdouble)
    K = np.einsum("iaQ,jbQ->iajb", B, B)
    D = eo[:, None, None, None] + eo[None, None, :, None] - ev[None, :, None, None] - ev[None, None, None, :]
    os_ = np.sum(K * K / D)
    ss = np.sum(K * (K - K.transpose(0, 3, 2, 1)) / D)
    return float(os_ + ss), float(ss), float(os_)


def test_h2o_host_against_psi4():
    B, eo, ev, meta = load(H2O)
    e, rep = trnblas.df_mp2_energy(B, eo, ev, report=True)
    assert isinstance(e, trnblas.Mp2Energy) and isinstance(rep, trncore.AccuracyReport)
    # The C++ tests' tolerance: 1e-9 Ha of psi4, with a certified bound <= 1e-9 Ha
    assert abs(e.correlation - meta["psi4_dfmp2_correlation_energy"]) <= 1e-9
    assert abs(e.same_spin - meta["psi4_dfmp2_same_spin"]) <= 1e-9
    assert abs(e.opposite_spin - meta["psi4_dfmp2_opposite_spin"]) <= 1e-9
    assert rep.certified and rep.met and rep.a_priori_bound <= 1e-9
    # psi4 agrees with the exact energy of the stored inputs to < 1e-13 Ha (data README): bound + that
    assert abs(e.correlation - meta["psi4_dfmp2_correlation_energy"]) <= rep.a_priori_bound + 1e-13
    assert float(e) == e.correlation and "Mp2Energy(correlation=" in repr(e)
    assert e.correlation == pytest.approx(e.same_spin + e.opposite_spin, abs=1e-15)


def test_h2o_sim_ozaki_and_modes():
    B, eo, ev, meta = load(H2O)
    e, rep = trnblas.df_mp2_energy(B, eo, ev, backend="sim", mode="ozaki", report=True)
    assert rep.certified and rep.cost is not None
    assert abs(e.correlation - meta["psi4_dfmp2_correlation_energy"]) <= rep.a_priori_bound + 1e-13
    assert rep.a_priori_bound <= 1e-9
    e, rep = trnblas.df_mp2_energy(B, eo, ev, backend="sim", mode="bf16", report=True)
    assert rep.certified and abs(e.correlation - meta["psi4_dfmp2_correlation_energy"]) <= rep.a_priori_bound + 1e-13
    assert rep.a_priori_bound > 1e-6  # bf16 products: chemical accuracy only
    # target in hartree: automatic picks a mode whose certified bound meets it
    e, rep = trnblas.df_mp2_energy(B, eo, ev, backend="sim", target_forward_error=1e-5, report=True)
    assert rep.met and rep.a_priori_bound <= 1e-5 and rep.target == 1e-5


def test_synthetic_against_einsum_and_upstream_name():
    rng = np.random.default_rng(3)
    for nocc, nvir, naux in [(1, 1, 1), (2, 7, 13), (3, 129, 5)]:
        B = rng.standard_normal((nocc, nvir, naux)) * 0.1
        eo = -1 - rng.random(nocc)
        ev = 0.5 + rng.random(nvir)
        e, rep = trnblas.df_mp2_energy(B, eo, ev, report=True)
        c, ss, os_ = einsum_energy(B, eo, ev)
        assert abs(e.correlation - c) <= rep.a_priori_bound + 1e-15 * abs(c)
        assert abs(e.same_spin - ss) <= 1e-13 and abs(e.opposite_spin - os_) <= 1e-13
        b = trnblas.batched_pair_energy(B, eo, ev)
        assert isinstance(b, np.ndarray) and b.shape == () and float(b) == e.correlation
    b, rep = trnblas.batched_pair_energy(B, eo, ev, report=True)
    assert rep.certified
    # empty system: zero energy
    assert trnblas.df_mp2_energy(np.zeros((0, 3, 2)), np.zeros(0), np.ones(3)).correlation == 0.0


def test_cholesky_route():
    B, eo, ev, meta = load(H2O)
    Pia, J = np.load(H2O / "Pia.npy"), np.load(H2O / "J.npy")
    Bc, info = trnblas.df_fit_cholesky(Pia, J)
    assert info == 0 and Bc.shape == B.shape
    e = trnblas.df_mp2_energy(Bc, eo, ev)
    assert abs(e.correlation - meta["psi4_dfmp2_correlation_energy"]) <= 1e-9  # the C++ test's tolerance
    # B differs from the J^-1/2 fit by a rotation of Q, (ia|jb) does not
    flatB, flatC = B.reshape(-1, B.shape[2]), Bc.reshape(-1, B.shape[2])
    assert not np.allclose(flatB, flatC) and np.allclose(flatB @ flatB.T, flatC @ flatC.T, atol=1e-9)
    Jbad = J.copy()
    Jbad[3, 3] = -1.0
    _, info = trnblas.df_fit_cholesky(Pia, Jbad)
    assert info > 0


def test_dfmp2_errors():
    B, eo, ev, _ = load(H2O)
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.df_mp2_energy"):
        trnblas.df_mp2_energy(B[0], eo, ev)
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.df_mp2_energy.*eps_occ"):
        trnblas.df_mp2_energy(B, eo[:3], ev)
    with pytest.raises(trncore.DimensionMismatch, match="eps_vir"):
        trnblas.df_mp2_energy(B, eo, ev[:3])
    with pytest.raises(trncore.InvalidArgument, match="trnblas.df_mp2_energy"):
        trnblas.df_mp2_energy(B.astype(complex), eo, ev)
    with pytest.raises(trncore.InvalidArgument, match="trnblas::df_mp2_energy"):  # e_HOMO >= e_LUMO
        trnblas.df_mp2_energy(B, eo + 10, ev)
    with pytest.raises(trncore.InvalidArgument, match="trnblas::df_mp2_energy"):
        Bn = B.copy()
        Bn[0, 0, 0] = np.nan
        trnblas.df_mp2_energy(Bn, eo, ev)
    with pytest.raises(trncore.NotSupported):
        trnblas.df_mp2_energy(B, eo, ev, mode="bf16")  # a reduced-precision mode on host
    with pytest.raises(trncore.TargetNotMet):
        trnblas.df_mp2_energy(B, eo, ev, target_forward_error=1e-30)
    _, rep = trnblas.df_mp2_energy(B, eo, ev, target_forward_error=1e-30, report=True)
    assert rep.certified and not rep.met
    with pytest.raises(TypeError, match="trnblas.df_mp2_energy"):
        trnblas.df_mp2_energy(B, eo, ev, colour=1)
    with pytest.raises(trncore.ParseError, match="bf17"):
        trnblas.df_mp2_energy(B, eo, ev, mode="bf17")
    with pytest.raises(trncore.DimensionMismatch, match="trnblas.df_fit_cholesky"):
        trnblas.df_fit_cholesky(np.ones((3, 2, 2)), np.eye(4))
