#pragma once
/// @file
/// Iterative solvers on CSR and BSR matrices: trnsolver's Krylov stack (trnsolver/krylov.hpp) applied to
/// the sparse matrix-vector product. Each entry point here builds the operator y = A x with
/// trnsparse::matrix_operator (spmv) and calls the trnsolver solver of the same name, so there is one
/// implementation of each method, with trnsolver's options (trnsolver::KrylovOptions), result
/// (trnsolver::KrylovResult: reasons, relative residual history, detail) and monitor
/// (options.monitor once per iteration).
///
/// Conventions (docs/trnsparse.md §Iterative solvers, docs/trnsolver-krylov.md):
/// - x holds the initial guess on entry and the last iterate on exit.
/// - Stopping test: ‖b − A x‖₂ ≤ tol = max(rtol·‖b‖₂, atol) (defaults rtol = 1e-8, atol = 0,
///   max_iterations 0 = 10·n), checked on the method's residual and confirmed with a true residual;
///   KrylovResult::relative_residual is ‖b − A x‖₂/‖b‖₂ of the returned x.
/// - Non-convergence, breakdown, stagnation and NaN/inf are results (KrylovResult::reason), never
///   exceptions. Bad arguments throw: the sparse matrix (invalid, not square: InvalidArgument /
///   DimensionMismatch) and options.backend (sim: NotSupported) name the trnsparse function; the rest (b, x
///   sizes, tolerances, the preconditioner's size) name the trnsolver solver that checks them.
/// - Arithmetic is in T; products use spmv (deterministic for any options.threads) and trnsolver's
///   reductions run in fixed blocks, so results are bitwise identical for every thread count, and
///   bitwise identical to calling trnsolver's solver on trnsparse::matrix_operator(a, options).

#include <trnsparse/formats.hpp>

#include <trnsolver/krylov.hpp>

#include <trncore/options.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace trnsparse {

/// The interval of chebyshev (trnsolver::SpectrumBounds; the same type under its trnsparse 0.3 name).
using SpectrumBounds = trnsolver::SpectrumBounds;

/// Which preconditioned spectrum lanczos_bounds estimates (the solvers take their preconditioner as a
/// trnsolver::LinearOperator, e.g. jacobi_preconditioner(a)).
enum class Preconditioner : std::uint8_t {
  none,    ///< M = I
  jacobi,  ///< M = diag(A); every diagonal entry must be positive (SPD A)
};

// ---- Operators ----

/// The operator y = A x (spmv, no transpose) of a square sparse matrix, for any trnsolver solver. It refers
/// to `a`, which must outlive it; products run on options.threads threads and are bitwise identical for
/// every thread count.
/// @throws trncore::InvalidArgument for an invalid A or invalid options; trncore::DimensionMismatch when A is
///         not square; trncore::NotSupported for options.backend = sim (bsr_spmm is the sim product).
template <class T, class I>
trnsolver::LinearOperator<T> matrix_operator(const Csr<T, I>& a, const trncore::Options& options = {});
/// @copydoc matrix_operator(const Csr<T, I>&, const trncore::Options&)
template <class T, class I>
trnsolver::LinearOperator<T> matrix_operator(const Bsr<T, I>& a, const trncore::Options& options = {});

/// The Jacobi preconditioner z_i = r_i / a_ii of a square sparse matrix (duplicates summed; copies the
/// inverse diagonal), as trnsolver::jacobi_preconditioner does for a dense one.
/// @throws trncore::InvalidArgument for an invalid A or a diagonal entry that is zero or not finite (naming
///         its index); trncore::DimensionMismatch when A is not square.
template <class T, class I>
trnsolver::LinearOperator<T> jacobi_preconditioner(const Csr<T, I>& a);
/// @copydoc jacobi_preconditioner(const Csr<T, I>&)
template <class T, class I>
trnsolver::LinearOperator<T> jacobi_preconditioner(const Bsr<T, I>& a);

// ---- Solvers (trnsolver's, on the sparse operator) ----

/// Conjugate gradients for SPD A (and M): trnsolver::cg(matrix_operator(a, options), b, x, options,
/// preconditioner). Error bound: ‖e_k‖_A ≤ 2((√κ − 1)/(√κ + 1))^k ‖e_0‖_A (κ of M⁻¹A).
/// @throws as matrix_operator (naming trnsparse::cg) and trnsolver::cg.
template <class T, class I>
trnsolver::KrylovResult cg(const Csr<T, I>& a, std::span<const T> b, std::span<T> x,
                           const trnsolver::KrylovOptions& options = {},
                           const trnsolver::LinearOperator<T>& preconditioner = {});
/// @copydoc cg(const Csr<T, I>&, std::span<const T>, std::span<T>, const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&)
template <class T, class I>
trnsolver::KrylovResult cg(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x,
                           const trnsolver::KrylovOptions& options = {},
                           const trnsolver::LinearOperator<T>& preconditioner = {});

/// Chebyshev iteration for SPD A whose (preconditioned) spectrum lies in [bounds.lambda_min,
/// bounds.lambda_max] (lanczos_bounds estimates it): trnsolver::chebyshev on matrix_operator(a, options).
/// When the interval holds the spectrum, ‖r_k‖₂ ≤ ‖r_0‖₂ / T_k(σ).
/// @throws as matrix_operator (naming trnsparse::chebyshev) and trnsolver::chebyshev.
template <class T, class I>
trnsolver::KrylovResult chebyshev(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                                  const trnsolver::KrylovOptions& options = {},
                                  const trnsolver::LinearOperator<T>& preconditioner = {});
/// @copydoc chebyshev(const Csr<T, I>&, std::span<const T>, std::span<T>, SpectrumBounds, const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&)
template <class T, class I>
trnsolver::KrylovResult chebyshev(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                                  const trnsolver::KrylovOptions& options = {},
                                  const trnsolver::LinearOperator<T>& preconditioner = {});

/// Richardson iteration x ← x + ω M⁻¹(b − A x): trnsolver::richardson on matrix_operator(a, options).
/// Converges for SPD A iff 0 < ω < 2/λmax(M⁻¹A); ω = 2/(λmin + λmax) gives the rate (κ − 1)/(κ + 1).
/// @throws as matrix_operator (naming trnsparse::richardson) and trnsolver::richardson.
template <class T, class I>
trnsolver::KrylovResult richardson(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, double omega,
                                   const trnsolver::KrylovOptions& options = {},
                                   const trnsolver::LinearOperator<T>& preconditioner = {});
/// @copydoc richardson(const Csr<T, I>&, std::span<const T>, std::span<T>, double, const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&)
template <class T, class I>
trnsolver::KrylovResult richardson(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, double omega,
                                   const trnsolver::KrylovOptions& options = {},
                                   const trnsolver::LinearOperator<T>& preconditioner = {});

/// Power iteration for the eigenvalue of largest modulus of A: trnsolver::power_iteration on
/// matrix_operator(a, options). v holds the start vector on entry (nonzero) and the eigenvector estimate
/// on exit; λ is returned in `lambda`. Converged when ‖A v − λ v‖₂ ≤ max(rtol·|λ|, atol); relative_residual
/// and residual_history hold ‖A v − λ v‖₂/|λ|.
/// @throws as matrix_operator (naming trnsparse::power_iteration) and trnsolver::power_iteration.
template <class T, class I>
trnsolver::KrylovResult power_iteration(const Csr<T, I>& a, std::span<T> v, double& lambda,
                                        const trnsolver::KrylovOptions& options = {});
/// @copydoc power_iteration(const Csr<T, I>&, std::span<T>, double&, const trnsolver::KrylovOptions&)
template <class T, class I>
trnsolver::KrylovResult power_iteration(const Bsr<T, I>& a, std::span<T> v, double& lambda,
                                        const trnsolver::KrylovOptions& options = {});

/// Bounds on the extreme eigenvalues of symmetric A (of M⁻¹A with Preconditioner::jacobi, through the
/// similar symmetric D^{-1/2} A D^{-1/2}): trnsolver::lanczos_bounds on that operator, in double (A is
/// converted to double first), `steps` steps from a start vector drawn from options.seed. Each bound is the
/// extreme Ritz value widened by its Ritz residual; lambda_min is clamped to ≥ 0 when `spd`.
/// @throws trncore::InvalidArgument for an invalid A, steps < 1, an invalid Preconditioner value, a
///         nonpositive diagonal with Jacobi, or invalid options; trncore::DimensionMismatch when A is not
///         square; trncore::NotSupported for options.backend = sim.
template <class T, class I>
SpectrumBounds lanczos_bounds(const Csr<T, I>& a, std::int64_t steps = 30,
                              Preconditioner preconditioner = Preconditioner::none,
                              const trncore::Options& options = {}, bool spd = true);

/// The diagonal of A (n = min(rows, cols) entries; duplicates summed; missing entries 0).
template <class T, class I>
std::vector<T> diagonal(const Csr<T, I>& a);
/// @copydoc diagonal(const Csr<T, I>&)
template <class T, class I>
std::vector<T> diagonal(const Bsr<T, I>& a);

}  // namespace trnsparse
