"""DF-MP2 correlation energies through trntensor, against psi4.

H2O (cc-pVDZ, data/dfmp2/H2O) on the host and on the sim backend in ozaki mode (the modelled NeuronCore
TensorEngine with fp64-level products), and benzene (aug-cc-pVDZ, data/dfmp2-aug-cc-pvdz/C6H6: nocc 21,
nvir 171, naux 570) on the host. Each run prints E_corr, its error against psi4's DF-MP2 energy (meta.json,
psi4_dfmp2_correlation_energy) and the certified bound trntensor reports; the script exits with status 1 if
any error exceeds 1e-9 Ha (the C++ tests' tolerance) or a result is not certified.
"""
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

import trntensor

TOLERANCE = 1e-9  # hartree


def data_dir():
    return Path(os.environ.get("TRNSCI_DATA_DIR") or Path(__file__).resolve().parents[3] / "data")


def load(path):
    meta = json.loads((path / "meta.json").read_text())
    return np.load(path / "B_iaQ.npy"), np.load(path / "eps_occ.npy"), np.load(path / "eps_vir.npy"), meta


def main():
    root = data_dir()
    runs = [("H2O   cc-pVDZ     ", root / "dfmp2" / "H2O", {}),
            ("H2O   cc-pVDZ     ", root / "dfmp2" / "H2O", {"backend": "sim", "mode": "ozaki"}),
            ("C6H6  aug-cc-pVDZ ", root / "dfmp2-aug-cc-pvdz" / "C6H6", {})]
    failed = False
    for name, path, options in runs:
        b, eps_occ, eps_vir, meta = load(path)
        start = time.perf_counter()
        energy, report = trntensor.mp2_energy(b, eps_occ, eps_vir, report=True, **options)
        seconds = time.perf_counter() - start
        psi4 = meta["psi4_dfmp2_correlation_energy"]
        error = abs(energy - psi4)
        where = f"{options.get('backend', 'host')} {options.get('mode', '')}".strip()
        print(f"{name}{where:10s} nocc={b.shape[0]:3d} nvir={b.shape[1]:3d} naux={b.shape[2]:3d}: "
              f"E_corr = {energy:.15f} Ha, |E - psi4| = {error:.1e} Ha, certified bound {report.a_priori_bound:.1e} Ha"
              f" ({seconds:.2f} s)")
        failed |= error > TOLERANCE or not report.certified
    if failed:
        print(f"FAILED: an error exceeds {TOLERANCE:g} Ha or a result is not certified")
        return 1
    print(f"OK: every energy within {TOLERANCE:g} Ha of psi4")
    return 0


if __name__ == "__main__":
    sys.exit(main())
