#pragma once
/// @file
/// The host energy stage of trnblas::df_mp2_energy, one occupied pair at a time, for callers that form the
/// pair products themselves (trntensor_mpi's distributed DF-MP2, whose ranks each hold some pairs). Compiled
/// into trnblas so both energies come from one piece of code: equal products give bitwise equal energies and
/// bounds. Not part of the API users program against.
#include <trnblas/df_mp2.hpp>
#include <trncore/dd.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace trnblas::detail {

/// One occupied pair's (i, j ≥ i) share of the energy stage: the opposite- and same-spin sums in
/// double-double (weight 2 for i < j included), the pair's share of the error bound and of Σ|terms|, and
/// whether every denominator's certified lower bound was positive.
struct Mp2PairSums {
  trncore::dd opposite_spin = 0.0;  ///< Σ_ab w·K²/D
  trncore::dd same_spin = 0.0;      ///< Σ_ab w·K(K − K')/D
  double bound = 0.0;               ///< Σ of the terms' error bounds (products' ε_K and the arithmetic)
  double abs = 0.0;                 ///< ≥ Σ|terms|, for the reduction's error
  bool positive = true;             ///< every D's lower bound > 0 (else the energy is unbounded)
};

/// ν ≥ ‖B_r‖₂ for a row of `naux` values whose squares summed (in any order) to `sum_of_squares`: rigorous
/// against the sum's and the root's roundings (trnblas/src/dfmp2/pair_stage.cpp says how).
double df_mp2_row_norm_bound(double sum_of_squares, std::int64_t naux);

/// The pair (i, j ≥ i)'s sums from its tile K[a][c] = (ia|jc) (nvir × nvir, rows `ld` apart), the row-norm
/// bounds ν of rows i·nvir … and j·nvir … (`nu_i`, `nu_j`, nvir each), the orbital energies and eps_k, the
/// products' componentwise bound |K̂ − K| ≤ eps_k·ν_ia·ν_jc. `scratch` is reused between calls (any
/// contents). Deterministic: the same inputs give the same bits.
Mp2PairSums df_mp2_pair_sums(std::int64_t i, std::int64_t j, std::int64_t nvir, const double* tile, std::int64_t ld,
                             const double* nu_i, const double* nu_j, const double* eps_occ, const double* eps_vir,
                             double eps_k, std::vector<double>& scratch);

/// The energy and its certified absolute bound (hartree; +∞ when a denominator could vanish) from every
/// pair's sums, given in pair order (i ascending, then j ≥ i): the order fixes the bits.
struct Mp2StageTotal {
  Mp2Energy energy;    ///< E_corr, E_ss, E_os
  double bound = 0.0;  ///< |Ê_corr − E_corr| ≤ bound
};
/// See Mp2StageTotal. `pairs` holds nocc·(nocc + 1)/2 entries.
Mp2StageTotal df_mp2_combine_pairs(std::span<const Mp2PairSums> pairs, std::int64_t nvir);

}  // namespace trnblas::detail
