"""DF-MP2 energies against psi4 (data/dfmp2/H2O) and the AO→MO transforms against numpy.einsum.

Tolerances: the C++ tests' (trntensor/tests/chemistry_test.cpp): |E − E_psi4| ≤ 1e-9 Ha for host and sim
ozaki, 1e-8 Ha for sim compensated, and the certified bound covering |E − E_psi4| up to psi4's own rounding
(1e-13 Ha). The transforms: einsum's componentwise bound ε·(transform of |eri| by |C|) from the report.
"""
import json
import os
from pathlib import Path

import numpy as np
import pytest

import trncore
import trntensor as tt

DATA = Path(os.environ.get("TRNSCI_DATA_DIR") or Path(__file__).resolve().parents[3] / "data")


@pytest.fixture(scope="module")
def h2o():
    d = DATA / "dfmp2" / "H2O"
    meta = json.loads((d / "meta.json").read_text())
    return (np.load(d / "B_iaQ.npy"), np.load(d / "eps_occ.npy"), np.load(d / "eps_vir.npy"), meta)


def test_mp2_energy_host_vs_psi4(h2o):
    b, eo, ev, meta = h2o
    psi4 = meta["psi4_dfmp2_correlation_energy"]
    e = tt.mp2_energy(b, eo, ev)
    assert isinstance(e, float) and abs(e - psi4) <= 1e-9
    e2, rep = tt.mp2_energy(b, eo, ev, report=True)
    assert e2 == e and rep.certified and rep.met and rep.a_priori_bound < 1e-12
    assert abs(e - psi4) <= rep.a_priori_bound + 1e-13
    # a strided view of the same B (used without a copy of the caller's array) gives the same energy
    wide = np.zeros((b.shape[0], b.shape[1], 2 * b.shape[2]))
    wide[:, :, ::2] = b
    assert tt.mp2_energy(wide[:, :, ::2], eo, ev) == e
    assert tt.mp2_energy(b.astype(np.float32), eo, ev) != e  # float32 B converts (rounded data)


def test_mp2_energy_sim_modes_and_target(h2o):
    b, eo, ev, meta = h2o
    psi4 = meta["psi4_dfmp2_correlation_energy"]
    e, rep = tt.mp2_energy(b, eo, ev, backend="sim", mode="ozaki", report=True)
    assert abs(e - psi4) <= 1e-9 and rep.certified and abs(e - psi4) <= rep.a_priori_bound + 1e-13
    e, rep = tt.mp2_energy(b, eo, ev, backend="sim", mode="compensated", report=True)
    assert abs(e - psi4) <= 1e-8 and rep.certified and abs(e - psi4) <= rep.a_priori_bound + 1e-13
    e, rep = tt.mp2_energy(b, eo, ev, backend="sim", target_forward_error=1e-9, report=True)
    assert rep.met and rep.a_priori_bound <= 1e-9 and abs(e - psi4) <= 1e-9 + 1e-13
    with pytest.raises(trncore.TargetNotMet):
        tt.mp2_energy(b, eo, ev, target_forward_error=1e-20)


def test_df_mp2_energy_components(h2o):
    b, eo, ev, meta = h2o
    trnblas = pytest.importorskip("trnblas")  # built with TRNBLAS_PYTHON=ON (the trntensor target depends on it)
    e = tt.df_mp2_energy(b, eo, ev)
    assert isinstance(e, trnblas.Mp2Energy)
    assert abs(e.correlation - meta["psi4_dfmp2_correlation_energy"]) <= 1e-9
    assert abs(e.same_spin - meta["psi4_dfmp2_same_spin"]) <= 1e-9
    assert abs(e.opposite_spin - meta["psi4_dfmp2_opposite_spin"]) <= 1e-9
    assert e.correlation == tt.mp2_energy(b, eo, ev)
    e, rep = tt.df_mp2_energy(b, eo, ev, report=True)
    assert rep.met
    with pytest.raises(trncore.DimensionMismatch, match="df_mp2_energy"):
        tt.df_mp2_energy(b[:, :, 0], eo, ev)
    with pytest.raises(TypeError, match="colour"):
        tt.df_mp2_energy(b, eo, ev, colour=1)


def test_mp2_energy_bad_input(h2o):
    b, eo, ev, _ = h2o
    cases = [
        (lambda: tt.mp2_energy(b[0], eo, ev), trncore.DimensionMismatch, "df_mp2_energy"),
        (lambda: tt.mp2_energy(b, eo[:-1], ev), trncore.DimensionMismatch, "df_mp2_energy"),
        (lambda: tt.mp2_energy(b, eo.reshape(-1, 1), ev), trncore.DimensionMismatch, "mp2_energy"),
        (lambda: tt.mp2_energy(b, ev[: len(eo)], ev), trncore.InvalidArgument, "mp2"),  # occupied ≥ virtual
        (lambda: tt.mp2_energy(b * np.nan, eo, ev), trncore.InvalidArgument, "mp2"),
        (lambda: tt.mp2_energy(b + 0j, eo, ev), trncore.InvalidArgument, "trntensor.mp2_energy"),
        (lambda: tt.mp2_energy(b, eo, ev, mode="bf16"), trncore.NotSupported, "mp2"),
        (lambda: tt.mp2_energy(b, eo, ev, backend="sim", mode="fp64"), trncore.NotSupported, "mp2"),
        (lambda: tt.mp2_energy(b, eo, ev, mode="nope"), trncore.ParseError, "nope"),
        (lambda: tt.mp2_energy("B", eo, ev), trncore.InvalidArgument, "trntensor.mp2_energy"),
    ]
    for call, error, text in cases:
        with pytest.raises(error, match=text):
            call()
    with pytest.raises(TypeError, match="colour"):
        tt.mp2_energy(b, eo, ev, colour=1)


def test_ao_to_mo_three_index_upstream():
    rng = np.random.default_rng(4)
    eri, c_occ, c_vir = rng.standard_normal((7, 7, 11)), rng.standard_normal((7, 3)), rng.standard_normal((7, 4))
    got, rep = tt.ao_to_mo_transform(eri, c_occ, c_vir, report=True)
    ld = np.longdouble
    want = np.einsum("mi,na,mnP->iaP", c_occ.astype(ld), c_vir.astype(ld), eri.astype(ld))
    mag = np.einsum("mi,na,mnP->iaP", np.abs(c_occ).astype(ld), np.abs(c_vir).astype(ld), np.abs(eri).astype(ld))
    assert got.shape == (3, 4, 11) and rep.certified
    assert np.all(np.abs(got - want) <= 1.01 * rep.a_priori_bound * mag)
    assert np.array_equal(got, tt.ao_to_mo_transform(eri, c_occ, c_vir))
    f32 = tt.ao_to_mo_transform(eri.astype(np.float32), c_occ.astype(np.float32), c_vir.astype(np.float32))
    assert f32.dtype == np.float32


def test_ao_to_mo_four_index():
    rng = np.random.default_rng(5)
    eri = rng.standard_normal((5, 6, 4, 5))
    cs = [rng.standard_normal((n, m)) for n, m in ((5, 2), (6, 3), (4, 2), (5, 4))]
    got, rep = tt.ao_to_mo_transform(eri, *cs, report=True)
    ld = np.longdouble
    want = np.einsum("pqrs,pi,qj,rk,sl->ijkl", eri.astype(ld), *[c.astype(ld) for c in cs])
    mag = np.einsum("pqrs,pi,qj,rk,sl->ijkl", np.abs(eri).astype(ld), *[np.abs(c).astype(ld) for c in cs])
    assert got.shape == (2, 3, 2, 4) and rep.certified
    assert np.all(np.abs(got - want) <= 1.01 * rep.a_priori_bound * mag)
    assert sum("contract" in line for line in rep.trajectory) == 4  # the staged transform: one index a stage
    sym = rng.standard_normal((4, 4, 4, 4))
    c = rng.standard_normal((4, 3))
    one = tt.ao_to_mo_transform(sym, c, backend="sim", mode="ozaki")
    assert np.allclose(one, np.einsum("pqrs,pi,qj,rk,sl->ijkl", sym, c, c, c, c), rtol=0, atol=1e-12)


def test_ao_to_mo_bad_input():
    e3, e4, c = np.ones((4, 4, 5)), np.ones((4, 4, 4, 4)), np.ones((4, 2))
    cases = [
        (lambda: tt.ao_to_mo_transform(e3, c), trncore.InvalidArgument, "C_occ and C_vir"),
        (lambda: tt.ao_to_mo_transform(e4, c, c), trncore.InvalidArgument, "1 or 4"),
        (lambda: tt.ao_to_mo_transform(np.ones((4, 4)), c), trncore.DimensionMismatch, "3-D"),
        (lambda: tt.ao_to_mo_transform(e3, c, np.ones(4)), trncore.DimensionMismatch, "C_vir"),
        (lambda: tt.ao_to_mo_transform(e3, c, np.ones((5, 2))), trncore.DimensionMismatch, "trntensor"),
        (lambda: tt.ao_to_mo_transform(e4, np.ones((3, 2))), trncore.DimensionMismatch, "trntensor"),
        (lambda: tt.ao_to_mo_transform(e4, c + 1j), trncore.InvalidArgument, "trntensor.ao_to_mo_transform"),
        (lambda: tt.ao_to_mo_transform(e4, c, mode="bf16"), trncore.NotSupported, ""),
    ]
    for call, error, text in cases:
        with pytest.raises(error, match=text):
            call()
    with pytest.raises(TypeError, match="colour"):
        tt.ao_to_mo_transform(e4, c, colour=1)
