"""The DF-MP2 correlation energy of H2O (cc-pVDZ) with trnblas.df_mp2_energy, against psi4.

Reads data/dfmp2/H2O (B_iaQ.npy: the fitted tensor B[i, a, Q], eps_occ.npy, eps_vir.npy; meta.json holds
psi4 1.3.2's energies under psi4_dfmp2_correlation_energy / _same_spin / _opposite_spin) and computes the
energy on the host (fp64 OpenBLAS GEMMs, double-double sums) and on the sim backend in mode "ozaki" (the
modelled TensorEngine with Ozaki-split products and a float-float VectorEngine stage), then benzene
(aug-cc-pVDZ, 21x171x570) on the host. Pass criterion, as the C++ tests (trnblas/tests/df_mp2_test.cpp):
|E - E_psi4| <= 1e-9 Ha, a certified bound <= 1e-9 Ha, and |E - E_psi4| <= bound + 1e-13 Ha (psi4's own
deviation from the exact energy of the stored inputs is below 1e-13 Ha, data/dfmp2/README.md).
Exit status 1 otherwise.
"""
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

import trnblas

DATA = Path(os.environ.get("TRNSCI_DATA_DIR") or Path(__file__).resolve().parents[3] / "data")


def run(label, directory, **options):
    meta = json.loads((directory / "meta.json").read_text())
    B = np.load(directory / "B_iaQ.npy")
    eps_occ, eps_vir = np.load(directory / "eps_occ.npy"), np.load(directory / "eps_vir.npy")
    t = time.perf_counter()
    energy, report = trnblas.df_mp2_energy(B, eps_occ, eps_vir, report=True, **options)
    seconds = time.perf_counter() - t
    ref = meta["psi4_dfmp2_correlation_energy"]
    err = abs(energy.correlation - ref)
    err_ss = abs(energy.same_spin - meta["psi4_dfmp2_same_spin"])
    err_os = abs(energy.opposite_spin - meta["psi4_dfmp2_opposite_spin"])
    passed = (report.certified and report.a_priori_bound <= 1e-9 and max(err, err_ss, err_os) <= 1e-9
              and err <= report.a_priori_bound + 1e-13)
    nocc, nvir, naux = B.shape
    print(f"{label} ({meta['basis']}, nocc={nocc} nvir={nvir} naux={naux}), {seconds:.2f} s")
    print(f"  E_corr = {energy.correlation:.15f} Ha   psi4 {ref:.15f} Ha   |error| {err:.2e} Ha")
    print(f"  E_SS error {err_ss:.2e} Ha, E_OS error {err_os:.2e} Ha; certified bound {report.a_priori_bound:.2e} Ha"
          f" ({'certified' if report.certified else 'NOT certified: ' + report.uncertified_reason})"
          f" -> {'PASSED' if passed else 'FAILED'}")
    return passed


def main():
    ok = run("H2O, host fp64", DATA / "dfmp2" / "H2O")
    ok &= run("H2O, sim ozaki", DATA / "dfmp2" / "H2O", backend="sim", mode="ozaki")
    benzene = DATA / "dfmp2-aug-cc-pvdz" / "C6H6"
    if benzene.is_dir():
        ok &= run("C6H6, host fp64", benzene)
    print("DF-MP2:", "all energies within 1e-9 Ha of psi4" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
