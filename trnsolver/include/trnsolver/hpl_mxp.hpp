#pragma once
/// @file
/// The HPL-MxP benchmark (formerly HPL-AI, https://hpl-mxp.org): solve a dense diagonally dominant system
/// of order n to fp64 accuracy with a low-precision LU factorization without pivoting and GMRES-based
/// iterative refinement, and report time, GFLOP/s and HPL's scaled residual check.

#include <trnsolver/solve.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace trnsolver {

/// What hpl_mxp() runs: the order and seed of the benchmark's system and the factorization's backend and precision. The
/// trncore::Options base (through trncore::OptionsFor: with_*() setters return this struct, a plain Options converts):
/// backend (host: fp32 LU; sim: bf16 or fp32 TensorEngine trailing updates), math mode, threads, monitor (passed to
/// solve(): called once per refinement step) and seed — the trnrand Philox seed of the matrix and right-hand side, 42
/// unless set. solve()'s strategy is fixed by the benchmark's rules: no pivoting, GMRES-IR, fp64 residual, no fallback
/// to an fp64 factorization; the error bounds are not computed (HPL checks the residual). A target_forward_error is
/// refused (NotSupported).
struct HplMxpOptions : trncore::OptionsFor<HplMxpOptions> {
  /// The benchmark's defaults: seed 42, n = 4000, fp32 factors.
  HplMxpOptions() { seed = 42; }
  /// `options` (its seed included: 0 unless set) with the benchmark's defaults for n and factor.
  HplMxpOptions(const trncore::Options& options) : OptionsFor(options) {}  // NOLINT(google-explicit-constructor)
  /// Order of the system (≥ 1).
  std::int64_t n = 4000;
  /// Precision of the LU without pivoting: fp32 (host or sim) or bf16 (sim only); solve() rejects fp64
  /// with GMRES-IR (InvalidArgument).
  FactorPrecision factor = FactorPrecision::fp32;
};

/// What one hpl_mxp() run measured: time, rate and HPL's residual check.
struct HplMxpResult {
  std::int64_t n = 0;    ///< order of the system solved
  double seconds = 0.0;  ///< solve() alone (factorization and refinement), not the matrix generation
  /// (2/3·n³ + 2·n²) / seconds / 1e9: the fp64 LU solve's operation count, as HPL-MxP credits it.
  double gflops = 0.0;
  /// ‖Ax − b‖∞ / ((‖A‖∞‖x‖∞ + ‖b‖∞)·n·ε), ε = 2^-53, computed in fp64 after the solve.
  double scaled_residual = 0.0;
  bool passed = false;  ///< scaled_residual ≤ 16 (HPL's threshold)
  /// solve()'s report (uncertified: error bounds are off under the benchmark's rules). A record of the run,
  /// not a certificate: HPL-MxP's check is `passed`.
  SolveReport report;
  /// The HPL-style report: the T/V line, the method, the residual check with PASSED or FAILED.
  std::string to_string() const;
};

/// The benchmark's system, column-major: entries uniform in (−0.5, 0.5] from trnrand's Philox stream
/// (seed, subsequence 0), then each diagonal entry replaced by its row's absolute sum (row-diagonal
/// dominance, so LU without pivoting is stable); b uniform in (−0.5, 0.5] from subsequence 1. The same for
/// any options.threads (the only field used besides validation; the seed is the parameter).
/// @throws trncore::InvalidArgument for n < 1 or invalid options (negative threads).
void hpl_mxp_system(std::int64_t n, std::uint64_t seed, std::vector<double>& a, std::vector<double>& b,
                    const trncore::Options& options = {});

/// Generates the system, solves it with solve() under the benchmark's rules, checks the residual.
/// @throws trncore::InvalidArgument for n < 1, a bf16 factor on the host backend, invalid options or enum
/// values (as solve()); trncore::NotSupported for a target_forward_error (the rules fix the strategy).
/// The result's report is solve()'s with error_bounds = false: uncertified (HPL-MxP checks the scaled
/// residual instead, in `passed`).
HplMxpResult hpl_mxp(const HplMxpOptions& options);

}  // namespace trnsolver
