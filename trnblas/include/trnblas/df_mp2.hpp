#pragma once
/// @file
/// Density-fitted MP2 (DF-MP2) correlation energy of a closed-shell reference — the suite's one implementation
/// (trntensor::df_mp2_energy calls it for a tensor view): the quantum-chemistry
/// workload that is one large GEMM, (ia|jb) = Σ_Q B_iaQ·B_jbQ, followed by an elementwise energy
/// reduction. Host: fp64 GEMMs (OpenBLAS, one per block of occupied orbitals) and an energy stage threaded
/// over occupied pairs with double-double sums combined in pair order (issue #24). Sim: the pair GEMMs on the
/// modelled TensorEngine in any trnblas math mode, then the denominators and the reduction as
/// VectorEngine instructions on a modelled NeuronCore — fp32, or float-float (compensated) when the
/// products are fp64-accurate (MathMode::ozaki). docs/trnblas.md, "DF-MP2".

#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <cstdint>

namespace trnblas {

/// The closed-shell MP2 correlation energy and its spin components (Hartree), as psi4 reports them:
/// with D_ijab = e_i + e_j − e_a − e_b and (ia|jb) = Σ_Q B_iaQ B_jbQ,
///   opposite_spin = Σ_ijab (ia|jb)² / D_ijab,
///   same_spin     = Σ_ijab (ia|jb)[(ia|jb) − (ib|ja)] / D_ijab,
///   correlation   = opposite_spin + same_spin = Σ_ijab (ia|jb)[2(ia|jb) − (ib|ja)] / D_ijab.
struct Mp2Energy {
  double correlation = 0.0;    ///< E_corr = opposite_spin + same_spin
  double same_spin = 0.0;      ///< the same-spin component
  double opposite_spin = 0.0;  ///< the opposite-spin component
};

/// DF-MP2 correlation energy from the fitted three-index tensor.
///
/// @param nocc, nvir, naux  occupied orbitals, virtual orbitals, auxiliary functions (≥ 0; any of them 0
///                          gives zero energy)
/// @param b        B[i][a][Q], row-major nocc×nvir×naux (e.g. `data/dfmp2/<mol>/B_iaQ.npy` in the repository)
/// @param eps_occ  nocc occupied orbital energies
/// @param eps_vir  nvir virtual orbital energies; every occupied energy must lie below every virtual one
///                 (so every denominator is negative)
/// @param options  backend host: math_mode automatic or fp64. Backend sim: math_mode bf16, fp16,
///                 fp8_e4m3, fp8_e5m2, tf32, fp32 (pair products) with an fp32 VectorEngine stage, or
///                 compensated (fp32-level products, K in chunks of 128 summed in float-float) or ozaki
///                 (products to 2^-40 componentwise) with a float-float VectorEngine stage; automatic
///                 without a target = ozaki; with target_forward_error — an absolute error of E_corr in
///                 hartree, e.g. 1e-9 — the cheapest of bf16, fp32, compensated, ozaki whose certified
///                 bound meets it. generation/product/threads as for gemm; results do not depend on threads.
/// @returns the energies.
///
/// Accuracy: |Ê − E| ≤ the bound the report carries (absolute, hartree, for `correlation`), computed from
/// the product's componentwise bound ε·S, S ≥ |B||B|ᵀ (gemm's bound for the mode; compensated adds an
/// absolute term for slices below fp32's normal range; host takes S_{ia,jb} = ‖B_ia‖·‖B_jb‖ rounded up, by
/// Cauchy–Schwarz), the denominators' rounding and the reduction's (fp32: γ_L with L the longest summation
/// chain; float-float/double-double: the double-word bounds of Joldes, Muller, Popescu, ACM TOMS 44(2),
/// 2017). Measured against psi4 on data/dfmp2 (cc-pVDZ) and
/// data/dfmp2-aug-cc-pvdz (H2O, NH3, C6H6): host and sim ozaki ≤ 3e-14 Ha (bounds ≤ 6e-12 Ha), sim
/// compensated ≤ 2.5e-9 Ha (certified, bounds ≈ 1e-5 Ha), sim fp32 under bf16 products ≈ 5e-5 Ha, bf16
/// ≈ 1e-4 Ha. Single-pass sim modes screen out entries of B far below their row's largest (bounded;
/// docs/trnblas.md). The report follows docs/trncore.md, "Certificates".
/// @throws trncore::InvalidArgument for invalid options, negative sizes, nocc·nvir·naux beyond int64, null
///         pointers with nonzero sizes, non-finite inputs or an occupied energy ≥ a virtual one; trncore::NotSupported for sr or
///         fp64 on sim and a reduced-precision mode on host; trncore::TargetNotMet whenever report.met
///         would be false — the result is not certified (e.g. a denominator within its rounding error of
///         0), or its bound exceeds the target (the report overload returns met = false instead).
///         Messages name the function, the values and a fix.
Mp2Energy df_mp2_energy(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, const double* eps_occ,
                        const double* eps_vir, const trncore::Options& options = {});

/// df_mp2_energy that also returns the certified bound (absolute, hartree), whether it is certified (and
/// why not), met (certified and bound ≤ target in hartree), the method per stage and, on sim, the modelled
/// engine cost of the whole kernel. Never throws for a numerical outcome.
Mp2Energy df_mp2_energy(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, const double* eps_occ,
                        const double* eps_vir, const trncore::Options& options, trncore::AccuracyReport& report);

/// The fitted tensor by the Cholesky route: with the Coulomb metric J = L·Lᵀ (SPD, naux×naux) and the raw
/// three-index integrals (P|ia) (row-major naux×nocc×nvir), X = L⁻¹·(P|ia) and B[i][a][Q] = X[Q][ia]
/// (row-major nocc×nvir×naux). B differs from the J^(-1/2) fit by an orthogonal rotation of the auxiliary
/// index, so (ia|jb) = Σ_Q B_iaQ B_jbQ and the energy are the same.
///
/// Runs on the host in fp64 for every backend: J's condition number (≈ 2.5e5 for cc-pVDZ-RI) would cost a
/// low-precision factorisation five of its digits, and the fit is O(naux³ + naux²·nocc·nvir), small next
/// to the energy's O(nocc²·nvir²·naux). Forward error of (ia|jb) ≈ cond(J)·u relative to |B||B|ᵀ.
/// @param naux, nocc, nvir  auxiliary functions, occupied and virtual orbitals (≥ 0)
/// @param pia  the integrals (P|ia), row-major naux×nocc×nvir
/// @param j    the Coulomb metric J, naux×naux, symmetric positive definite (one triangle is read)
/// @param b  output, nocc·nvir·naux doubles (not overlapping the inputs)
/// @returns info: 0 on success; k > 0 when the leading minor of order k of J is not positive definite
///          (b is then unspecified) — a numerical outcome, not an exception.
/// @throws trncore::InvalidArgument for negative sizes, naux·nocc·nvir beyond int64, null pointers with nonzero
///         sizes, non-finite inputs or overlapping output; trncore::NotSupported when naux exceeds LAPACK's 32-bit integers.
std::int64_t df_fit_cholesky(std::int64_t naux, std::int64_t nocc, std::int64_t nvir, const double* pia,
                             const double* j, double* b);

}  // namespace trnblas
