#pragma once
/// @file
/// Quantum-chemistry contractions: the four-index AO→MO integral transform through einsum, and the DF-MP2
/// correlation energy of a trntensor view (through trnblas::df_mp2_energy, the suite's one implementation).

#include <trntensor/plan.hpp>
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
/// @param options as einsum (host or sim; math mode per step; target_forward_error over the whole transform;
///                the planner fields)
/// @returns shape [m1, m2, m3, m4]
/// Accuracy: einsum's componentwise bound, relative to the transform of |eri| by |C|.
/// @throws trncore::DimensionMismatch when an AO extent of eri differs from its C's rows, or a rank is not 4
///         (eri) / 2 (C); otherwise as einsum (TargetNotMet whenever the report's met would be false).
template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c1, TensorView<const T> c2,
                             TensorView<const T> c3, TensorView<const T> c4, const PlanOptions& options = {});

/// The transform that also returns einsum's report: the composed bound (componentwise, relative to the
/// transform of |eri| by |C|) and each stage's method. Never throws for a numerical outcome.
template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c1, TensorView<const T> c2,
                             TensorView<const T> c3, TensorView<const T> c4, const PlanOptions& options,
                             trncore::AccuracyReport& report);

/// The same transform with one coefficient matrix for all four indices.
template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c, const PlanOptions& options = {});

/// The one-matrix transform with its report.
template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c, const PlanOptions& options,
                             trncore::AccuracyReport& report);

/// The closed-shell DF-MP2 correlation energy of a fitted tensor held as a trntensor view: the suite's one
/// DF-MP2 implementation, trnblas::df_mp2_energy (pair products (ia|jb) = Σ_Q B_iaQ B_jbQ by GEMM, host fp64
/// or the sim TensorEngine in a math mode; the energy stage in double-double on the host or on the modelled
/// VectorEngine; its certified bound in hartree) on B's values (a strided view is copied into row-major order
/// first). Same formulas, modes, accuracy and results as trnblas::df_mp2_energy (docs/trnblas.md, "DF-MP2").
///
/// @param b        B[i][a][Q], shape [nocc, nvir, naux]
/// @param eps_occ  nocc occupied orbital energies
/// @param eps_vir  nvir virtual orbital energies, each above every occupied one
/// @param options  as trnblas::df_mp2_energy: host (automatic or fp64); sim bf16, fp16, fp8_*, tf32, fp32,
///                 compensated, ozaki, or automatic; target_forward_error is an absolute error of E_corr in
///                 hartree (e.g. 1e-9)
/// Accuracy: trnblas::df_mp2_energy's certified bound. Measured against psi4 (tests, data/dfmp2 and
/// data/dfmp2-aug-cc-pvdz): host and sim ozaki ≤ 3e-14 Ha, sim compensated ≤ 2.5e-9 Ha.
/// @throws trncore::DimensionMismatch (naming trntensor::df_mp2_energy) when b is not rank 3 or the energies'
///         lengths differ from its extents; otherwise the errors of trnblas::df_mp2_energy (InvalidArgument
///         for non-finite inputs, an occupied energy ≥ a virtual one or invalid options; NotSupported for sr
///         or fp64 on sim and reduced precision on host), and TargetNotMet whenever the report's met would be
///         false — the result is not certified or its bound exceeds the target.
trnblas::Mp2Energy df_mp2_energy(TensorView<const double> b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options = {});

/// df_mp2_energy that also returns trnblas::df_mp2_energy's report: the certified bound on |Ê_corr − E_corr|
/// in hartree, the method per stage, on sim the modelled cost, and met per docs/trncore.md. Never throws for a
/// numerical outcome.
trnblas::Mp2Energy df_mp2_energy(TensorView<const double> b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options,
                                 trncore::AccuracyReport& report);

}  // namespace trntensor
