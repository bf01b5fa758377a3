#pragma once
/// @file
/// Certified mixed-precision solution of A x = b: LU-IR and three-precision GMRES-IR chosen from a
/// condition estimate to meet `target_forward_error`, with a SolveReport of what was achieved.
///
/// The algorithms are those of Carson and Higham (SIAM J. Sci. Comput. 40 (2018) A817–A847, "Accelerating
/// the solution of linear systems by iterative refinement in three precisions"): the LU factorization runs
/// in a low precision u_f (fp32 on the host; bf16 inputs with fp32 accumulation on the sim backend), the
/// working precision is fp64 (u), and the residual is computed in fp64 or in double-double (u_r = u²).
/// - LU-IR (LAPACK's DSGESV semantics): corrections solve with the low-precision LU; converges when
///   κ∞(A)·u_f is sufficiently below 1.
/// - GMRES-IR: corrections by fp64 GMRES on the LU-preconditioned system; converges for κ∞(A) up to
///   about u^{-1/2}·u_f^{-1} (fp32 factors: beyond 10^10 in practice).
/// - fp64 LU (DGESV), refined in the residual precision when the target needs it.
/// With a double-double residual the forward error converges to O(u) independently of κ (while the
/// refinement converges); with an fp64 residual to O(κ·u).
///
/// The certificate (`docs/trncore.md#certificates-the-contract-every-package-keeps`; docs/trnsolver.md, "Error
/// bounds"): the bound is an a-posteriori bound computed from the final iterate, never from the size of the
/// last correction alone, so it holds whether or not the refinement converged; a result is certified when
/// the refinement met its stopping test, the bounds were computed and the solves behind them reached their
/// tolerance.

#include <trnblas/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace trnsolver {

/// How solve() obtains and refines the solution.
enum class Refinement : std::uint8_t {
  automatic,  ///< chosen from a condition estimate and the target (see solve())
  fp64_lu,    ///< fp64 LU with partial pivoting, refined only if the target needs a better residual
  lu_ir,      ///< low-precision LU, corrections solved with it (DSGESV semantics)
  gmres_ir,   ///< low-precision LU as a preconditioner, corrections by fp64 GMRES (Carson–Higham)
};

/// Precision of the LU factorization.
enum class FactorPrecision : std::uint8_t {
  fp64,  ///< LAPACK dgetrf
  fp32,  ///< LAPACK sgetrf (host), or the blocked sim LU with fp32 trailing updates (sim)
  bf16,  ///< sim backend only: blocked LU whose trailing updates are bf16 TensorEngine GEMMs (fp32 PSUM)
};

/// Precision of the residual r = b − A x.
enum class ResidualPrecision : std::uint8_t {
  fp64,           ///< one fp64 GEMV-like pass (error γ_{n+1}(|A||x| + |b|))
  double_double,  ///< exact products and double-double sums (error ≈ 2(n+2)u²(|A||x| + |b|))
};

/// "automatic", "fp64_lu", "lu_ir", "gmres_ir". Never throws.
std::string_view to_string(Refinement r) noexcept;
/// "fp64", "fp32", "bf16". Never throws.
std::string_view to_string(FactorPrecision p) noexcept;
/// "fp64", "double_double". Never throws.
std::string_view to_string(ResidualPrecision p) noexcept;
///@{
/// Parse to_string's names. @throws trncore::ParseError naming the text and the accepted names.
Refinement parse_refinement(std::string_view text);
FactorPrecision parse_factor_precision(std::string_view text);
ResidualPrecision parse_residual_precision(std::string_view text);
///@}

/// Options of solve(). The trncore::Options base (through trncore::OptionsFor: with_*() setters return this struct, a
/// plain Options converts) carries the suite-wide options: backend (host, or sim for bf16/fp32 factors on the
/// NeuronCore model), threads, target_forward_error — the normwise relative forward error ‖x̂ − x‖∞/‖x̂‖∞ the caller
/// needs — and monitor (called once per refinement step, see solve()).
struct SolveOptions : trncore::OptionsFor<SolveOptions> {
  using OptionsFor::OptionsFor;
  /// The strategy; automatic chooses from the condition estimate and the target (see solve()).
  Refinement refinement = Refinement::automatic;
  /// Unset: fp32 (host) or bf16 (sim) for the mixed strategies, fp64 for fp64_lu.
  std::optional<FactorPrecision> factor;
  /// Unset: fp64 without a target or when 6(n+1)·u·κ meets it, else double-double.
  std::optional<ResidualPrecision> residual;
  /// Refinement steps before giving up on a strategy (DSGESV's ITERMAX is 30).
  int max_refinements = 30;
  /// GMRES iterations per correction (GMRES-IR), without restart.
  int max_gmres_iterations = 100;
  /// LU with partial pivoting (true) or without (false; the HPL-MxP rules for diagonally dominant
  /// matrices). Without pivoting a zero or tiny pivot makes the factorization fail (info > 0).
  bool pivoting = true;
  /// When a mixed strategy does not converge, fall back to fp64 LU (true, as DSGESV) or report failure.
  bool fallback = true;
  /// Compute the condition estimate and the estimator-based forward error bounds (a few dozen solves with
  /// the factors, O(n²) each). Always on when a target is set; off leaves the report with the refinement's
  /// own estimate only (the bounds fields +inf, the result uncertified), like LAPACK's DSGESV — a converged
  /// low-precision strategy is then final (the missing bounds are no reason for the fp64 fallback).
  bool error_bounds = true;
};

/// What solve() did and what it certifies (DESIGN.md §5.2). The bound fields here are relative to the
/// computed solution as LAPACK's: normwise ‖x̂ − x‖∞/‖x̂‖∞, componentwise max_i |x̂_i − x_i|/|x̂_i|; with
/// several right-hand sides, the worst column.
///
/// The trncore::AccuracyReport base: target, a_priori_bound (the normwise bound relative to the exact
/// solution, β/(1 − β) for β = forward_error_bound_normwise < 1, +inf otherwise — the measure of
/// target_forward_error), a_posteriori_estimate, certified / uncertified_reason, met, trajectory, iterations
/// (refinement steps), references, stopped_by_monitor. certified is false — with the reason — when A is
/// singular to working precision (info > 0), the final strategy stagnated or hit max_refinements, the bounds
/// were not computed (error_bounds = false without a target), a GMRES solve behind them missed its tolerance,
/// or the monitor stopped the refinement. met = certified && (!target || bound ≤ target).
struct SolveReport : trncore::AccuracyReport {
  /// The smaller of two bounds, each computed with Higham's 1-norm estimator (two starting vectors plus
  /// Higham's extra vector; a lower bound of the norm, almost always within a factor 3: the bound reports 3
  /// times the estimate) through an inverse of A:
  ///  - the residual bound ‖ |A⁻¹|(|r̂| + δr) ‖∞/‖x̂‖∞ (LAPACK xGERFSX), r̂ the computed residual and δr its
  ///    rounding error bound;
  ///  - with a double-double residual, the correction bound (‖d‖∞ + ‖ |A⁻¹|(|ŝ| + δs + δr) ‖∞)/‖x̂‖∞ from
  ///    the identity x − x̂ = d + A⁻¹(r − A d), d a final correction solved with the factors and ŝ = r̂ − A d
  ///    in double-double (near u whatever κ is). With an fp64 residual its δr would dominate it as it does
  ///    the residual bound, so it is not computed.
  /// The inverse is the LU's Â⁻¹, widened by 1/(1 − μ) with μ ≥ ‖Â⁻¹(Â − A)‖∞, when μ < ½; μ is the smaller
  /// of the a-priori c·‖ |Â⁻¹||L̂||Û| ‖∞ (the LU's worst-case backward error constant c) and, for low-precision
  /// factors, the measured 3·(estimate of ‖I − Â⁻¹A‖∞) plus the rounding of that measurement (docs/trnsolver.md,
  /// "Bounds"). Otherwise A⁻¹ is applied by GMRES preconditioned with the LU. Both bounds hold for any iterate,
  /// converged or not.
  double forward_error_bound_normwise = 0.0;
  /// The componentwise counterpart, max_i |x̂_i − x_i|/|x̂_i|, from the same two bounds taken per component
  /// (+inf when x̂ has a zero component, unless the residual is exactly zero).
  double forward_error_bound_componentwise = 0.0;
  /// The refinement's own estimate ‖d_last‖∞/‖x̂‖∞/(1 − ρ), ρ the largest ratio of successive corrections
  /// (Demmel et al., ACM TOMS 32 (2006)); +inf when the refinement did not converge. Not a bound: large
  /// growth in the factors can make it far smaller than the error.
  double forward_error_estimate = 0.0;
  /// Estimate of κ∞(A) = ‖A‖∞‖A⁻¹‖∞ (Higham's estimator on the LU that ran).
  double condition_estimate = 0.0;
  /// ‖r‖∞/(‖A‖∞‖x̂‖∞ + ‖b‖∞) and max_i |r_i|/(|A||x̂| + |b|)_i of the final residual (the componentwise
  /// one only with error bounds; NaN without, as it needs another pass over A).
  double backward_error_normwise = 0.0;
  /// max_i |r_i|/(|A||x̂| + |b|)_i of the final residual (NaN without error bounds; see above).
  double backward_error_componentwise = 0.0;
  Refinement refinement = Refinement::automatic;  ///< the strategy that produced x̂
  /// The precision of the LU that produced x̂.
  FactorPrecision factor = FactorPrecision::fp64;
  /// The precision of the final strategy's residuals.
  ResidualPrecision residual = ResidualPrecision::fp64;
  std::int64_t refinements = 0;       ///< refinement steps of the final strategy (all columns)
  std::int64_t gmres_iterations = 0;  ///< GMRES iterations over all corrections
  std::int64_t fallbacks = 0;         ///< strategies abandoned before the final one
  bool converged = false;             ///< the refinement met its stopping test
  /// 0, or i > 0 when U(i, i) is exactly zero in the fp64 LU (A singular to working precision; x̂ not
  /// computed and X not written), as LAPACK's info; uncertified_reason then says why.
  std::int64_t info = 0;
  /// A readable multi-line summary (the solve's fields, then AccuracyReport::to_string()).
  std::string to_string() const;
};

/// Solves A X = B for X (A n×n, B and X n×nrhs, all in `layout`) to the accuracy options.target_forward_error
/// asks for, as cheaply as the conditioning allows, and reports what it achieved.
///
/// Strategy (Refinement::automatic), as the code runs it:
/// - Factor A in the low precision (fp32 host, bf16 sim). With a target, estimate κ∞(A) from that LU:
///   GMRES-IR when κ·u_f > 0.5 (u_f = 2^-24 fp32, 2^-8 bf16), else LU-IR; the mixed strategies are skipped
///   for fp64 LU when κ·u_f·√u > 1 (beyond GMRES-IR's reach). Without a target (no estimate), LU-IR that
///   turns into GMRES-IR at the first correction that fails to halve while ‖d‖∞ > √u·‖x̂‖∞.
/// - Residual: fp64 when 6(n+1)·u·κ ≤ target (or without a target), else double-double; options.residual
///   overrides.
/// - Stopping test per column: converged when a correction is ≤ u‖x̂‖∞; without a target and with an fp64
///   residual also when ‖r‖∞ ≤ √n·u·‖A‖∞‖x̂‖∞ (DSGESV's test); when a correction fails to halve, stop —
///   converged only if that backward error test holds, else stagnated (not converged); not converged after
///   max_refinements steps or on a non-finite iterate.
/// - A strategy that did not converge, or whose certified bound misses the target, is abandoned for fp64
///   LU (options.fallback).
/// @param layout   storage order of A, B and X
/// @param n        order of A (≥ 0)
/// @param nrhs     number of right-hand sides, the columns of B and X (≥ 0)
/// @param a, b     read only
/// @param lda, ldb, ldx  leading dimensions of A, B and X (≥ max(1, row length in `layout`))
/// @param x        receives the solution (it may not overlap a or b; not written when info > 0)
/// @param options  strategy, precisions, limits and the trncore::Options base (backend, threads, target, monitor)
/// @param report   receives what was done and certified (SolveReport)
/// @return report.info (0, or the fp64 LU's info for a matrix singular to working precision — a numerical
///         outcome: no exception, the report uncertified with the reason).
/// @throws trncore::InvalidArgument / DimensionMismatch for negative sizes, ld below the row/column length,
///         null data with nonzero sizes, overlapping x, non-finite entries of A or B, invalid options (a
///         target outside (0, 1), negative threads, max_refinements or max_gmres_iterations < 1), a bf16
///         factor on the host backend, an fp64 factor with lu_ir or gmres_ir, and enum values outside their
///         enumerators (layout, backend, refinement, factor, residual).
/// Accuracy: the report's bounds as documented on SolveReport; report.met as documented there.
/// Monitor: options.monitor, when set, is called after every refinement step (counted over all right-hand
/// sides and strategies, from 1) with the relative size ‖d‖∞/‖x̂‖∞ of the step's correction; when it asks to stop, solve() returns the current iterates (columns not yet refined hold their
/// first solve with the factors), tries no fallback strategy, and the report is uncertified ("stopped by the
/// monitor at refinement step N") with stopped_by_monitor set. The bounds are still computed for what is
/// returned.
std::int64_t solve(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
                   const double* b, std::int64_t ldb, double* x, std::int64_t ldx, const SolveOptions& options,
                   SolveReport& report);

/// As above without a report. @throws trncore::TargetNotMet (trncore::require_target_met) whenever
/// report.met would be false — with or without a target: a singular A (the message names U(i, i)),
/// a refinement that did not converge, an uncertified bound (error_bounds = false without a target), or a
/// certified bound above the target; plus the argument errors above.
void solve(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
           const double* b, std::int64_t ldb, double* x, std::int64_t ldx, const SolveOptions& options = {});

/// x = A⁻¹ b for one right-hand side, as the pointer form (any layout of the view).
std::vector<double> solve(trncore::MatrixView<const double> a, std::span<const double> b, const SolveOptions& options,
                          SolveReport& report);
/// As above without a report (throws as the pointer form without a report).
std::vector<double> solve(trncore::MatrixView<const double> a, std::span<const double> b,
                          const SolveOptions& options = {});

}  // namespace trnsolver
