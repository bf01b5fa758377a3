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

std::string_view to_string(Refinement r) noexcept;
std::string_view to_string(FactorPrecision p) noexcept;
std::string_view to_string(ResidualPrecision p) noexcept;
/// Parse to_string's names. @throws trncore::ParseError naming the text and the accepted names.
Refinement parse_refinement(std::string_view text);
FactorPrecision parse_factor_precision(std::string_view text);
ResidualPrecision parse_residual_precision(std::string_view text);

/// Options of solve(). `core` carries the suite-wide options: backend (host, or sim for bf16/fp32 factors
/// on the NeuronCore model), threads, seed, and target_forward_error — the normwise relative forward
/// error ‖x̂ − x‖∞/‖x‖∞ the caller needs.
struct SolveOptions {
  trncore::Options core;
  Refinement refinement = Refinement::automatic;
  /// Unset: fp32 (host) or bf16 (sim) for the mixed strategies, fp64 for fp64_lu.
  std::optional<FactorPrecision> factor;
  /// Unset: fp64 when κ·u meets the target with a margin, else double-double.
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
  /// Compute the condition estimate and the estimator-based forward error bounds (a few solves with the
  /// factors, about as costly as the refinement itself). Always on when a target is set; off leaves the
  /// report with the refinement's own estimate only (the bounds fields +inf), like LAPACK's DSGESV.
  bool error_bounds = true;
};

/// What solve() did and what it certifies (DESIGN.md §5.2). Bounds are relative: normwise ‖x̂ − x‖∞/‖x̂‖∞,
/// componentwise max_i |x̂_i − x_i|/|x̂_i|; with several right-hand sides, the worst column.
struct SolveReport {
  /// target, a_priori_bound (= forward_error_bound_normwise), a_posteriori_estimate, met, trajectory,
  /// iterations (refinement steps), references.
  trncore::AccuracyReport accuracy;
  /// The error bounds in the manner of LAPACK's xGERFSX: ‖ |A⁻¹|(|r| + δr) ‖∞/‖x̂‖∞ with r the computed
  /// residual and δr its rounding error bound, the norm estimated by Higham's 1-norm estimator (a lower
  /// bound of the true norm, almost always within a factor 3; the reported bound is 3 times it) and
  /// applied only while the refinement converged; +inf when it did not.
  double forward_error_bound_normwise = 0.0;
  double forward_error_bound_componentwise = 0.0;
  /// The refinement's own estimate ‖d_last‖∞/‖x̂‖∞/(1 − ρ), ρ the largest ratio of successive corrections
  /// (Demmel et al., ACM TOMS 32 (2006)); +inf when the refinement did not converge.
  double forward_error_estimate = 0.0;
  /// Estimate of κ∞(A) = ‖A‖∞‖A⁻¹‖∞ (Higham's estimator on the LU that ran).
  double condition_estimate = 0.0;
  /// ‖r‖∞/(‖A‖∞‖x̂‖∞ + ‖b‖∞) and max_i |r_i|/(|A||x̂| + |b|)_i of the final residual (the componentwise
  /// one only with error bounds; NaN without, as it needs another pass over A).
  double backward_error_normwise = 0.0;
  double backward_error_componentwise = 0.0;
  Refinement refinement = Refinement::automatic;  ///< the strategy that produced x̂
  FactorPrecision factor = FactorPrecision::fp64;
  ResidualPrecision residual = ResidualPrecision::fp64;
  std::int64_t refinements = 0;       ///< refinement steps of the final strategy (all columns)
  std::int64_t gmres_iterations = 0;  ///< GMRES iterations over all corrections
  std::int64_t fallbacks = 0;         ///< strategies abandoned before the final one
  bool converged = false;             ///< the refinement met its stopping test
  /// 0, or i > 0 when U(i, i) is exactly zero in the fp64 LU (A singular to working precision; x̂ not
  /// computed), as LAPACK's info.
  std::int64_t info = 0;
  /// A readable multi-line summary.
  std::string to_string() const;
};

/// Solves A X = B for X (A n×n, B and X n×nrhs, all in `layout`) to the accuracy options.core's
/// target_forward_error asks for, as cheaply as the conditioning allows, and reports what it achieved.
///
/// Strategy (Refinement::automatic): factor A in the low precision, estimate κ∞(A) from that LU, then run
/// LU-IR when κ·u_f ≤ 0.1, else GMRES-IR; when the refinement does not converge, fall back to fp64 LU
/// (options.fallback). The residual is fp64 when 16·κ·u meets the target, else double-double. The solve
/// stops when the correction stops decreasing or is below u‖x̂‖∞ (Carson–Higham's stopping rule).
/// @param a, b  read only; x receives the solution (it may not overlap a or b).
/// @return report.info (0, or the fp64 LU's info for a matrix singular to working precision).
/// @throws trncore::InvalidArgument / DimensionMismatch for negative sizes, ld below the row/column length,
///         null data with nonzero sizes, overlapping x, non-finite entries of A or B, invalid options, a
///         bf16 factor on the host backend; trncore::NotSupported for unknown enum values.
/// Accuracy: the report's bounds as documented on SolveReport; report.accuracy.met is true when the
/// refinement converged and the normwise bound meets the target (or there is no target).
std::int64_t solve(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
                   const double* b, std::int64_t ldb, double* x, std::int64_t ldx, const SolveOptions& options,
                   SolveReport& report);

/// As above without a report. @throws trncore::TargetNotMet when a target is set and not met, and
/// trncore::InvalidArgument when A is singular to working precision (info > 0: no solution to return).
void solve(trncore::Layout layout, std::int64_t n, std::int64_t nrhs, const double* a, std::int64_t lda,
           const double* b, std::int64_t ldb, double* x, std::int64_t ldx, const SolveOptions& options = {});

/// x = A⁻¹ b for one right-hand side, as the pointer form (any layout of the view).
std::vector<double> solve(trncore::MatrixView<const double> a, std::span<const double> b, const SolveOptions& options,
                          SolveReport& report);
/// As above without a report (throws as the pointer form without a report).
std::vector<double> solve(trncore::MatrixView<const double> a, std::span<const double> b,
                          const SolveOptions& options = {});

}  // namespace trnsolver
