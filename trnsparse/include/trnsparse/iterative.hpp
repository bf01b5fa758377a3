#pragma once
/// @file
/// Iterative solvers on CSR and BSR matrices: conjugate gradients (optionally Jacobi-preconditioned),
/// Chebyshev iteration, Richardson iteration, power iteration, and Lanczos estimates of the extreme
/// eigenvalues that Chebyshev and Richardson need.
///
/// Conventions (docs/trnsparse.md §Iterative solvers):
/// - x holds the initial guess on entry and the last iterate on exit.
/// - Stopping test: ‖b − A x‖₂ ≤ tol = max(rtol·‖b‖₂, atol). The recurrence residual is checked every
///   iteration; when it passes, the true residual is computed, and only a passing true residual sets
///   `converged` (otherwise the method continues from the true residual).
/// - Non-convergence and breakdown are results (IterativeResult), never exceptions. Bad arguments throw
///   trncore::InvalidArgument / DimensionMismatch "<function>: <values>: <what to do>".
/// - Arithmetic is in T; products use spmv (deterministic for any options.threads) and dot products are
///   summed in index order, so results are bitwise identical for every thread count.

#include <trnsparse/formats.hpp>

#include <trncore/options.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace trnsparse {

/// The preconditioner of cg/chebyshev/richardson.
enum class Preconditioner : std::uint8_t {
  none,    ///< M = I: the unpreconditioned method
  jacobi,  ///< M = diag(A); every diagonal entry must be positive (SPD A)
};

/// Knobs of the iterative solvers.
struct IterativeOptions {
  /// Relative tolerance: converged when ‖b − A x‖₂ ≤ max(rtol·‖b‖₂, atol) (power_iteration: ‖Av − λv‖₂ ≤
  /// rtol·|λ|). ≥ 0, finite.
  double rtol = 1e-10;
  /// Absolute tolerance on ‖b − A x‖₂ (see rtol). ≥ 0, finite.
  double atol = 0.0;
  /// Iteration limit (≥ 0; 0 only tests the initial guess); reaching it is IterativeReason::max_iterations.
  std::int64_t max_iterations = 10000;
  /// The preconditioner M (cg, chebyshev, richardson).
  Preconditioner preconditioner = Preconditioner::none;
  /// Record ‖r_k‖₂ (recurrence residual) of every iteration in IterativeResult::residual_history.
  bool record_history = false;
  /// Threads for the matrix-vector products (0 = all cores); never changes a result.
  int threads = 0;
};

/// Why an iterative solver stopped.
enum class IterativeReason : std::uint8_t {
  converged,       ///< the true residual met tol
  max_iterations,  ///< the iteration limit came first
  breakdown,       ///< a quantity the method divides by vanished or had the wrong sign (pᵀAp ≤ 0 in CG:
                   ///< A not SPD) or became NaN/inf
};

/// "converged", "max_iterations", "breakdown". Never throws.
std::string_view to_string(IterativeReason reason) noexcept;

/// What an iterative solver did.
struct IterativeResult {
  IterativeReason reason = IterativeReason::max_iterations;  ///< why the solver stopped
  bool converged = false;       ///< reason == IterativeReason::converged (the true residual met tol)
  std::int64_t iterations = 0;  ///< iterations performed (0 when the initial guess already met tol)
  double residual_norm = 0;     ///< ‖b − A x‖₂ of the returned x (true residual)
  double tolerance = 0;         ///< the tol the run aimed at
  /// ‖r_k‖₂ of the recurrence residual at every iteration, the initial one first, when
  /// IterativeOptions::record_history is set (empty otherwise).
  std::vector<double> residual_history;
};

/// Estimated extreme eigenvalues of a symmetric matrix.
struct SpectrumBounds {
  double lambda_min = 0;   ///< lower bound on the smallest eigenvalue (θ_min widened by its Ritz residual)
  double lambda_max = 0;   ///< upper bound on the largest eigenvalue (θ_max widened by its Ritz residual)
  std::int64_t steps = 0;  ///< Lanczos steps taken (fewer than asked when the Krylov space became invariant)
};

/// Conjugate gradients for symmetric positive definite A (Hestenes–Stiefel; with Jacobi, PCG).
/// Error bound: ‖e_k‖_A ≤ 2((√κ − 1)/(√κ + 1))^k ‖e_0‖_A (κ of the preconditioned matrix).
/// @throws trncore::InvalidArgument for an invalid/non-square A, bad options (rtol/atol negative or NaN,
///         max_iterations < 0, threads < 0, a preconditioner that is not a Preconditioner value), a
///         nonpositive diagonal with Jacobi;
///         trncore::DimensionMismatch for b/x lengths ≠ n.
template <class T, class I>
IterativeResult cg(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, const IterativeOptions& options = {});
/// @copydoc cg(const Csr<T, I>&, std::span<const T>, std::span<T>, const IterativeOptions&)
template <class T, class I>
IterativeResult cg(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, const IterativeOptions& options = {});

/// Chebyshev iteration for SPD A whose (preconditioned) spectrum lies in [bounds.lambda_min,
/// bounds.lambda_max] (Saad, Iterative Methods 2nd ed., Alg. 12.1: the three-term recurrence with
/// ρ_{k+1} = 1/(2σ − ρ_k), σ = θ/δ, θ = (λmax + λmin)/2, δ = (λmax − λmin)/2). Needs no inner products
/// besides the stopping test. When the interval holds the spectrum, ‖r_k‖₂ ≤ ‖r_0‖₂ / T_k(σ) (T_k the
/// Chebyshev polynomial), the optimal bound over degree-k residual polynomials on the interval.
/// @throws as cg, and trncore::InvalidArgument unless 0 < lambda_min < lambda_max (both finite).
template <class T, class I>
IterativeResult chebyshev(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                          const IterativeOptions& options = {});
/// @copydoc chebyshev(const Csr<T, I>&, std::span<const T>, std::span<T>, SpectrumBounds, const IterativeOptions&)
template <class T, class I>
IterativeResult chebyshev(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                          const IterativeOptions& options = {});

/// Richardson iteration x ← x + ω M⁻¹(b − A x). Converges for SPD A iff 0 < ω < 2/λmax(M⁻¹A); the
/// optimal ω = 2/(λmin + λmax) gives the rate (κ − 1)/(κ + 1).
/// @throws as cg, and trncore::InvalidArgument unless ω is finite and positive.
template <class T, class I>
IterativeResult richardson(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, double omega,
                           const IterativeOptions& options = {});

/// Estimates the extreme eigenvalues of symmetric A (of M⁻¹A with Jacobi, via the symmetric D^{-1/2}AD^{-1/2})
/// from `steps` Lanczos steps started from a fixed pseudo-random vector (seed). The Ritz values θ_min, θ_max
/// lie inside [λmin, λmax]; each bound is widened by its Ritz residual |β_k y_k| (an eigenvalue lies within
/// it, Parlett Thm 11.4.1), which makes them safe for Chebyshev once the extreme Ritz values have converged —
/// a handful of steps on well-separated spectra; more for clustered ones. lambda_min is clamped to ≥ 0
/// when A is SPD (`spd`), as an interval crossing 0 would be useless.
/// @throws trncore::InvalidArgument for an invalid/non-square A, steps < 1, an invalid Preconditioner value.
template <class T, class I>
SpectrumBounds lanczos_bounds(const Csr<T, I>& a, std::int64_t steps = 30,
                              Preconditioner preconditioner = Preconditioner::none, std::uint64_t seed = 1,
                              bool spd = true);

/// Power iteration for the eigenvalue of largest modulus of A (square), with v normalised each step and
/// λ the Rayleigh quotient vᵀAv. Stops when ‖A v − λ v‖₂ ≤ tol·|λ| (tol = options.rtol) — for symmetric A
/// then |λ − λ_true| ≤ ‖Av − λv‖²/gap (Parlett Thm 11.7.1). v holds the start vector on entry (nonzero)
/// and the eigenvector estimate on exit. Converges at rate |λ₂/λ₁|.
/// @returns the result (residual_norm = ‖A v − λ v‖₂) and the eigenvalue in `lambda`.
/// @throws trncore::InvalidArgument for an invalid/non-square A or a zero start vector.
template <class T, class I>
IterativeResult power_iteration(const Csr<T, I>& a, std::span<T> v, double& lambda,
                                const IterativeOptions& options = {});

/// The diagonal of A (n = min(rows, cols) entries; duplicates summed; missing entries 0).
template <class T, class I>
std::vector<T> diagonal(const Csr<T, I>& a);
/// @copydoc diagonal(const Csr<T, I>&)
template <class T, class I>
std::vector<T> diagonal(const Bsr<T, I>& a);

}  // namespace trnsparse
