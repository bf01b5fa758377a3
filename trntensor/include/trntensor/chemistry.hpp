#pragma once
/// @file
/// Quantum-chemistry contractions through einsum: the four-index AO→MO integral transform and the DF-MP2
/// correlation energy.

#include <trntensor/tensor.hpp>

#include <trnblas/df_mp2.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <span>

namespace trntensor {

/// (ij|kl) = Σ_pqrs C1_pi C2_qj C3_rk C4_sl (pq|rs), as one einsum "pqrs,pi,qj,rk,sl->ijkl" whose optimal
/// plan is the staged transform (one index at a time, O(n⁴·m) per stage instead of O(n⁴·m⁴)).
///
/// @param eri  (pq|rs), shape [n1, n2, n3, n4] (AO indices)
/// @param c1,c2,c3,c4  coefficient matrices, shapes [n_x, m_x] (AO × MO) for index x = 1 … 4
/// @param options as einsum (host or sim; math mode per step; target_forward_error over the whole transform)
/// @param report  when non-null, the composed bound (componentwise, relative to the transform of |eri| by
///                |C|) and each stage's method
/// @returns shape [m1, m2, m3, m4]
/// @throws trncore::DimensionMismatch when an AO extent of eri differs from its C's rows, or a rank is not 4
///         (eri) / 2 (C); otherwise as einsum.
template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c1, TensorView<const T> c2,
                             TensorView<const T> c3, TensorView<const T> c4, const trncore::Options& options = {},
                             trncore::AccuracyReport* report = nullptr);

/// The same transform with one coefficient matrix for all four indices.
template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c, const trncore::Options& options = {},
                             trncore::AccuracyReport* report = nullptr);

/// The closed-shell DF-MP2 correlation energy by einsum (same formulas and result type as
/// trnblas::df_mp2_energy): V = einsum("iaQ,jbQ->iajb", B, B) on options' backend and mode, then on the host in
/// fp64 the per-pair sums P_ij = einsum("iajb,iajb,iajb->ij", V, V, 1/D) and X_ij with V_ibja, and their totals
/// E_OS = Σ P_ij, X = Σ X_ij, with D_iajb = e_i + e_j − e_a − e_b; E_SS = E_OS − X, correlation = E_OS + E_SS.
///
/// @param b        B[i][a][Q], shape [nocc, nvir, naux]
/// @param eps_occ  nocc occupied orbital energies
/// @param eps_vir  nvir virtual orbital energies, each above every occupied one
/// @param options  backend and math mode of the V step (host fp64; sim: any trnblas gemm mode);
///                 target_forward_error is an absolute error of E_corr in hartree (e.g. 1e-9), shared out as
///                 the V step's componentwise target; threads as einsum
/// @param report   when non-null: the certified bound on |Ê_corr − E_corr| in hartree, the V step's methods and,
///                 on sim, its modelled cost; report.met per docs/trncore.md (certified, and bound ≤ target)
/// Accuracy: the bound is the V step's componentwise bound ε (relative to |B||B|ᵀ, from einsum's report)
/// propagated through the denominator-weighted sums — Σ (2εS(2|V̂| + εS) + ε(S|V̂'| + |V̂|S') + ε²SS')/|D| with
/// S ≥ |B||B|ᵀ — plus the fp64 denominators' and sums' own rounding (derivation in src/chemistry.cpp).
/// Measured against psi4 (tests, data/dfmp2 and data/dfmp2-aug-cc-pvdz): host and sim ozaki ≤ 1e-12 Ha.
/// @throws trncore::DimensionMismatch when b is not rank 3 or the energies' lengths differ from its extents;
///         trncore::InvalidArgument for non-finite energies, an occupied energy ≥ a virtual one or invalid
///         options (out-of-range enums, threads < 0, a target outside (0, 1)); without a report,
///         trncore::TargetNotMet whenever the result is not certified or its bound exceeds the target.
trnblas::Mp2Energy df_mp2_energy(TensorView<const double> b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options = {},
                                 trncore::AccuracyReport* report = nullptr);

}  // namespace trntensor
