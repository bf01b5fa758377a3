#pragma once
/// @file
/// Krylov and polynomial iterative solvers (CG, restarted GMRES, BiCGStab, MINRES, Chebyshev, Richardson),
/// power iteration and Lanczos spectrum bounds on a matrix or a matvec callback (LinearOperator), with
/// Jacobi, block-Jacobi and SSOR preconditioners, and their options and result structs. This is the suite's
/// one iterative-solver stack: trnsparse's cg/chebyshev/richardson/power_iteration/lanczos_bounds on CSR and
/// BSR matrices build a LinearOperator from the sparse matrix and call these (docs/architecture.md).
///
/// Conventions shared by every solver here (docs/trnsolver-krylov.md):
/// - The system is A x = b with A n×n, given as a dense trncore::MatrixView (either layout) or as a
///   LinearOperator (a size and a callback y = A x). x holds the initial guess on entry and the last
///   iterate on exit; an empty preconditioner means none. A preconditioner applies z = M⁻¹ r.
/// - Stopping test: ‖r_k‖₂ ≤ tol = max(rtol·‖b‖₂, atol), checked on the solver's own residual estimate
///   every iteration and then confirmed with a true residual b − A x; `converged` is set only when the
///   true residual meets tol. A confirmation that fails restarts the method from the true residual; one
///   that fails again without halving the true residual ends the run as `stagnation`.
/// - Non-convergence, breakdown, stagnation and NaN/inf produced by the iteration are results
///   (KrylovResult::reason), never exceptions. Bad arguments throw trncore::InvalidArgument or
///   trncore::DimensionMismatch with the message "<function>: <values>: <what to do>".
/// - float solvers compute in float, double solvers in double. Reductions (dot products, norms) run in
///   fixed blocks of 1024 elements summed in order and matrix-vector products compute each element in
///   ascending column order, so results never depend on options.threads.
/// - Options: KrylovOptions derives trncore::Options and is validated with trncore::validate first. The
///   solvers run on the host: options.backend = sim is trncore::NotSupported (the bf16 variants model the
///   NeuronCore and accept either backend); options.target_forward_error is trncore::NotSupported (a
///   residual test certifies no forward error without κ(A); use rtol/atol).
/// - Monitor: options.monitor (trncore::Options::monitor) is called once per iteration with the iteration
///   number and the relative residual estimate the solver tests (residual_history's entry); when it asks to
///   stop, the solver returns its current iterate with reason KrylovReason::stopped_by_monitor,
///   stopped_by_monitor = true and `converged` set only if the true residual of that iterate meets the
///   tolerance.

#include <trncore/options.hpp>
#include <trncore/rounding.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trnsolver {

/// Why a Krylov solver stopped.
enum class KrylovReason : std::uint8_t {
  converged,           ///< the true residual met max(rtol·‖b‖, atol)
  max_iterations,      ///< the iteration limit was reached first
  breakdown,           ///< a division by zero or a sign the method needs failed (e.g. pᵀAp ≤ 0 in CG, ρ = 0 in
                       ///< BiCGStab, an indefinite preconditioner in MINRES); KrylovResult::detail says which
  stagnation,          ///< no progress: the residual estimate did not decrease for stagnation_window
                       ///< iterations, the iterate stopped changing (bf16 variants), or a confirmed restart
                       ///< did not halve the true residual
  non_finite,          ///< NaN or infinity appeared in a scalar of the iteration (x keeps the last finite iterate)
  stopped_by_monitor,  ///< options.monitor asked to stop (KrylovResult::stopped_by_monitor is set)
};

/// How GMRES orthogonalizes each new Krylov vector against the basis.
enum class Orthogonalization : std::uint8_t {
  mgs,   ///< modified Gram–Schmidt: loss of orthogonality grows like κ(A)·u
  cgs2,  ///< classical Gram–Schmidt applied twice ("twice is enough"): orthogonal to O(u)
};

/// "converged", "max_iterations", "breakdown", "stagnation", "non_finite" or "stopped_by_monitor". Never throws.
std::string_view to_string(KrylovReason reason) noexcept;
/// "mgs" or "cgs2". Never throws.
std::string_view to_string(Orthogonalization orthogonalization) noexcept;
/// Parses to_string's names. @throws trncore::ParseError naming the text and the accepted names.
KrylovReason parse_krylov_reason(std::string_view text);
/// Parses "mgs" or "cgs2". @throws trncore::ParseError naming the text and the accepted names.
Orthogonalization parse_orthogonalization(std::string_view text);

/// A square linear operator of a given size: y = op(x) for spans of exactly size() elements.
/// Used for the system matrix (A) and for preconditioners (M⁻¹). Copies share the callback's state.
template <class T>
class LinearOperator {
 public:
  /// The callback: writes op(x) into y (x and y have size() elements and never overlap).
  using Apply = std::function<void(std::span<const T> x, std::span<T> y)>;

  /// The empty operator (size 0, no callback); as a preconditioner it means "none".
  LinearOperator() = default;
  /// An operator on vectors of `size` elements.
  /// @throws trncore::InvalidArgument for a negative size or an empty callback.
  LinearOperator(std::int64_t size, Apply apply);

  /// Number of rows (= columns).
  std::int64_t size() const noexcept { return size_; }
  /// Whether a callback is set.
  explicit operator bool() const noexcept { return static_cast<bool>(apply_); }
  /// y = op(x). @throws trncore::DimensionMismatch when x or y does not have size() elements;
  ///         trncore::InvalidArgument when the operator is empty.
  void operator()(std::span<const T> x, std::span<T> y) const;
  /// The callback itself (no checks).
  const Apply& callback() const noexcept { return apply_; }

 private:
  std::int64_t size_ = 0;
  Apply apply_;
};

/// The reductions of a Krylov solve whose vectors are one part of a longer vector split over processes
/// (docs/distributed.md, "Krylov solvers over distributed vectors"). trnsolver_mpi's
/// trnsolver::mpi::distributed_reduction() builds one over an MPI communicator; a single-process caller never
/// sets one.
///
/// Every inner product and norm of the solvers sums the elements in fixed blocks of `block_size`
/// consecutive elements, then the block sums in ascending order. With a DistributedReduction each process
/// sums the pieces of blocks it holds, labelled by the global index of their first element, and `sum`
/// adds the pieces of all processes in ascending label order: when every part starts at a multiple of
/// block_size, the pieces are whole blocks and every reduction — hence every iterate, residual and
/// iteration count — is bitwise the single-process solve's, for any number of parts. Other splits give
/// results that are reproducible for that split and correct to the same bounds, but not those bits.
/// The operator (and preconditioner) callbacks then act on this process's part and do their own
/// communication; every process calls every solver routine with the same options, and all of them take the
/// same branches because every decision depends only on reduced values.
struct DistributedReduction {
  /// The solvers' reduction block, in elements.
  static constexpr std::int64_t block_size = 1024;
  /// Length of the whole vector (the sum of the parts' lengths; ≥ this part's offset + length).
  std::int64_t global_size = 0;
  /// Global index of this part's first element.
  std::int64_t offset = 0;
  /// Given this process's pieces (their labels, the global index of each piece's first element, and
  /// `len` values per piece, piece after piece), returns the elementwise sum of every process's pieces in
  /// ascending label order, left to right, the same on every process. Collective.
  std::function<std::vector<double>(std::span<const std::int64_t> labels, std::span<const double> pieces,
                                    std::int64_t len)>
      sum_double;
  /// The same in float arithmetic (float solves accumulate in float).
  std::function<std::vector<float>(std::span<const std::int64_t> labels, std::span<const float> pieces,
                                   std::int64_t len)>
      sum_float;
  /// The maximum of `value` over every process (exact, so its order does not matter). Collective.
  std::function<double(double value)> max;
  /// The solvers' argument check, made collective: every process passes what its own checks threw (null
  /// when they passed) and the values every process must agree on (sizes, options); when any process has a
  /// problem or the values differ, every process throws (the same trncore::Error subclass, naming the
  /// process), so bad input on one process never leaves the others waiting. Collective.
  std::function<void(std::string_view function, std::exception_ptr local_problem,
                     std::span<const std::pair<std::string_view, std::int64_t>> must_agree)>
      agree;
};

/// Options of every iterative solver here (and of trnsparse's sparse overloads). Defaults: rtol = 1e-8,
/// automatic iteration limit (10·n), GMRES(30) with MGS, stagnation window 100. The trncore::Options
/// fields used: threads (matrix-vector and dot products; never changes a result), monitor (once per
/// iteration), rounding and seed (bf16 variants: the update rounding and the key of its random bits),
/// backend (host; the bf16 variants accept sim too). target_forward_error must be unset. Options's with_*()
/// setters return KrylovOptions& (`KrylovOptions{}.with_threads(2)` keeps rtol).
struct KrylovOptions : trncore::OptionsFor<KrylovOptions> {
  using OptionsFor::OptionsFor;  // a plain trncore::Options converts, with these defaults for the rest

  /// Relative tolerance on ‖b − A x‖₂/‖b‖₂; ≥ 0 and finite.
  double rtol = 1e-8;
  /// Absolute tolerance on ‖b − A x‖₂; ≥ 0 and finite. The run stops at max(rtol·‖b‖, atol).
  double atol = 0.0;
  /// Iteration limit (GMRES: total inner steps over all cycles); 0 = automatic = 10·n. ≥ 0.
  /// (trnsparse 0.3's IterativeOptions, since removed, defaulted to 10000 and treated 0 as "test x only".)
  std::int64_t max_iterations = 0;
  /// GMRES restart length m (≥ 1; values above n act as n). Other solvers ignore it.
  std::int64_t restart = 30;
  /// GMRES (and arnoldi) orthogonalization.
  Orthogonalization orthogonalization = Orthogonalization::mgs;
  /// Stop with KrylovReason::stagnation when the smallest residual estimate so far has not decreased for
  /// this many iterations (bf16 variants: also when the iterate has not changed for this many; GMRES:
  /// judged at the end of a cycle, since a plateau inside a cycle can end in a sudden drop). 0 = never.
  std::int64_t stagnation_window = 100;
  /// Null for a single-process solve; set, the vectors passed to the solver are this process's part of
  /// distributed vectors and every reduction goes through it (DistributedReduction). cg, gmres, bicgstab,
  /// minres, chebyshev and richardson accept one (with operator and preconditioner overloads, not the
  /// matrix ones); power_iteration and the bf16 variants refuse it (NotSupported). trnsolver::mpi's
  /// distributed_reduction() builds one.
  std::shared_ptr<const DistributedReduction> distributed;
  // Inherited from trncore::Options and read here: threads (matrix-vector products for n ≥ 256, dot
  // products of ≥ 65536 elements; 0 = the process default), monitor, and for the bf16 variants only
  // rounding (of every vector update to bf16: RoundingMode::nearest_even or stochastic with
  // rounding.sr_bits random bits; it replaces update_rounding of trnsolver 0.4) and seed (the update of
  // element i of vector v in iteration k draws trncore::RandomBits{seed, 4·k + v}(i), so results are
  // bitwise identical for every thread count). lanczos_bounds draws its start vector from seed.
};

/// What a Krylov solver did. Always filled; never thrown.
struct KrylovResult {
  /// Whether the true residual ‖b − A x‖₂ of the returned x met max(rtol·‖b‖, atol).
  bool converged = false;
  /// Why the run stopped.
  KrylovReason reason = KrylovReason::max_iterations;
  /// Iterations done (GMRES: inner steps over all cycles; each costs one product with A).
  std::int64_t iterations = 0;
  /// Restarts from a true residual: GMRES cycles after the first, and for every solver the restart after
  /// an estimate met the tolerance that the true residual did not confirm.
  std::int64_t restarts = 0;
  /// The true relative residual ‖b − A x‖₂/‖b‖₂ of the returned x (0 when b = 0), computed with the
  /// operator in working precision and the norm in double; bf16 variants compute it in double from the
  /// caller's A and b.
  double relative_residual = 0.0;
  /// residual_history[k] = the solver's residual estimate after iteration k, relative to ‖b‖₂
  /// (entry 0: the initial residual; size iterations + 1). CG, BiCGStab: the updated residual;
  /// GMRES: the implicit least-squares residual |g_{j+1}|; MINRES: φ_k/φ_0·‖r_0‖₂ (φ is the residual
  /// in the M⁻¹-norm when preconditioned, ‖r_k‖₂ otherwise); bf16 variants: the fp32 norm of the bf16
  /// residual vector. Entries after a restart continue from the true residual.
  std::vector<double> residual_history;
  /// bf16 variants only: true_residual_history[k] = ‖b − A x_k‖₂/‖b‖₂ of the bf16 iterate, computed in
  /// double from the caller's A and b (a measurement of the modelled run, not part of it). Empty otherwise.
  std::vector<double> true_residual_history;
  /// One line saying what happened, e.g. "breakdown: pᵀAp = -3 ≤ 0 at iteration 4 (A is not SPD)".
  std::string detail;
  /// Whether options.monitor asked to stop (reason is then stopped_by_monitor unless the returned iterate
  /// happens to meet the tolerance, which makes it converged).
  bool stopped_by_monitor = false;
};

/// An interval [lambda_min, lambda_max] holding the spectrum of a symmetric operator (lanczos_bounds), as
/// chebyshev needs it.
struct SpectrumBounds {
  double lambda_min = 0;   ///< lower bound on the smallest eigenvalue (θ_min widened by residual and rounding)
  double lambda_max = 0;   ///< upper bound on the largest eigenvalue (θ_max widened by residual and rounding)
  std::int64_t steps = 0;  ///< Lanczos steps taken (fewer than asked when the Krylov space became invariant)
};

// ---- Operators and preconditioners ----

/// The operator y = A x of a dense square matrix (either layout), computed with options-independent
/// summation order (each y_i in ascending column order) on up to options.threads threads (0 = the process
/// default; used only when n ≥ 256). The operator refers to the matrix's storage, which must outlive it.
/// (trnsparse::matrix_operator builds the same from a CSR or BSR matrix.)
/// @throws trncore::DimensionMismatch when A is not square; trncore::InvalidArgument for invalid options;
///         trncore::NotSupported for options.backend = sim.
LinearOperator<double> matrix_operator(trncore::MatrixView<const double> a, const trncore::Options& options = {});
/// float form of matrix_operator(MatrixView<const double>, const trncore::Options&).
LinearOperator<float> matrix_operator(trncore::MatrixView<const float> a, const trncore::Options& options = {});

/// Jacobi preconditioner z_i = r_i / a_ii (copies the diagonal).
/// @throws trncore::DimensionMismatch when A is not square; trncore::InvalidArgument when a diagonal
///         entry is zero or not finite (naming its index).
LinearOperator<double> jacobi_preconditioner(trncore::MatrixView<const double> a);
/// float form of jacobi_preconditioner(MatrixView<const double>).
LinearOperator<float> jacobi_preconditioner(trncore::MatrixView<const float> a);

/// Block-Jacobi preconditioner: the diagonal blocks A[kb:(k+1)b, kb:(k+1)b] (the last one may be
/// smaller) are copied and LU-factorized once (LAPACK ?getrf, partial pivoting); applying solves with
/// each block (?getrs). block_size = 1 is Jacobi; block_size ≥ n is a full LU solve.
/// @throws trncore::DimensionMismatch when A is not square; trncore::InvalidArgument when block_size < 1,
///         or a diagonal block is singular (naming the block and LAPACK's info) or not finite.
LinearOperator<double> block_jacobi_preconditioner(trncore::MatrixView<const double> a, std::int64_t block_size);
/// float form of block_jacobi_preconditioner(MatrixView<const double>, int64_t).
LinearOperator<float> block_jacobi_preconditioner(trncore::MatrixView<const float> a, std::int64_t block_size);

/// SSOR(ω) preconditioner M = ω/(2−ω) · (D/ω + L) D⁻¹ (D/ω + U) for A = L + D + U (strictly lower,
/// diagonal, strictly upper); applying z = M⁻¹ r runs one forward and one backward triangular sweep.
/// For symmetric A with a positive diagonal M is SPD, so it serves CG and MINRES. Copies A (row-major).
/// @throws trncore::DimensionMismatch when A is not square; trncore::InvalidArgument when ω ∉ (0, 2) or
///         a diagonal entry is zero or not finite.
LinearOperator<double> ssor_preconditioner(trncore::MatrixView<const double> a, double omega);
/// float form of ssor_preconditioner(MatrixView<const double>, double).
LinearOperator<float> ssor_preconditioner(trncore::MatrixView<const float> a, double omega);

// ---- Solvers ----
//
// Every solver has four forms: (operator | matrix) × (double | float). The matrix form is the operator
// form applied to matrix_operator(a, options). All throw, naming the solver:
// - trncore::DimensionMismatch when A is not square, b, x and A differ in size, or the preconditioner's
//   size differs from n;
// - trncore::InvalidArgument for an empty operator, rtol/atol negative or not finite,
//   max_iterations < 0, restart < 1, stagnation_window < 0, options trncore::validate refuses (threads < 0,
//   an invalid enum, ...), or b or the initial x holding NaN or infinity (naming the first such index);
// - trncore::NotSupported for options.backend = sim or a target_forward_error.

/// Conjugate gradients (Hestenes–Stiefel 1952; Saad, Iterative Methods for Sparse Linear Systems, 2nd
/// ed., Alg. 6.18 and 9.1 preconditioned) for symmetric positive definite A and M. Breakdown when pᵀAp ≤ 0
/// or rᵀM⁻¹r ≤ 0 (A or M not positive definite). Cost per iteration: one product with A, one with M⁻¹,
/// two dot products, three vector updates.
KrylovResult cg(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// float form of cg(const LinearOperator<double>&, ...).
KrylovResult cg(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});
/// Matrix form of cg(const LinearOperator<double>&, ...).
KrylovResult cg(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// Matrix form of cg(const LinearOperator<float>&, ...).
KrylovResult cg(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});

/// Restarted GMRES(m) (Saad & Schultz 1986; Saad, Alg. 6.9 and 9.5), m = options.restart, right
/// preconditioned (A M⁻¹ u = b, x = M⁻¹ u) so the minimized residual is the true one. Arnoldi with
/// options.orthogonalization, Givens rotations on the Hessenberg matrix; the implicit residual |g_{j+1}|
/// is tested after every inner step, and a cycle that meets the tolerance (or ends) forms x and computes
/// the true residual, which confirms convergence or starts the next cycle. A zero subdiagonal h_{j+1,j}
/// ends the cycle with the exact solution of the Krylov space ("happy breakdown"); a zero diagonal of
/// the triangular factor (singular A M⁻¹ on the Krylov space) is KrylovReason::breakdown.
KrylovResult gmres(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                   const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// float form of gmres(const LinearOperator<double>&, ...).
KrylovResult gmres(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                   const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});
/// Matrix form of gmres(const LinearOperator<double>&, ...).
KrylovResult gmres(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                   const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// Matrix form of gmres(const LinearOperator<float>&, ...).
KrylovResult gmres(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                   const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});

/// BiCGStab (van der Vorst, SIAM J. Sci. Stat. Comput. 13, 1992; Saad, Alg. 7.7), right preconditioned,
/// shadow residual r̂ = r₀. Two products with A and two with M⁻¹ per iteration. Breakdown when
/// ρ = r̂ᵀr = 0, r̂ᵀv = 0, or ω = 0 with a nonzero residual.
KrylovResult bicgstab(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                      const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// float form of bicgstab(const LinearOperator<double>&, ...).
KrylovResult bicgstab(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                      const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});
/// Matrix form of bicgstab(const LinearOperator<double>&, ...).
KrylovResult bicgstab(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                      const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// Matrix form of bicgstab(const LinearOperator<float>&, ...).
KrylovResult bicgstab(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                      const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});

/// MINRES (Paige & Saunders, SIAM J. Numer. Anal. 12, 1975) for symmetric, possibly indefinite A, with
/// an optional symmetric positive definite preconditioner M (residual minimized in the M⁻¹-norm).
/// Lanczos three-term recurrence, Givens QR of the tridiagonal, short-recurrence update of x.
/// Breakdown when rᵀM⁻¹r < 0 (M not positive definite) or the rotated diagonal γ is 0 (A singular on
/// the Krylov space).
KrylovResult minres(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                    const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// float form of minres(const LinearOperator<double>&, ...).
KrylovResult minres(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                    const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});
/// Matrix form of minres(const LinearOperator<double>&, ...).
KrylovResult minres(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                    const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// Matrix form of minres(const LinearOperator<float>&, ...).
KrylovResult minres(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                    const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});

/// Chebyshev iteration (Saad, Iterative Methods for Sparse Linear Systems 2nd ed., Alg. 12.1: the three-term
/// recurrence ρ_{k+1} = 1/(2σ − ρ_k), σ = θ/δ, θ = (λmax + λmin)/2, δ = (λmax − λmin)/2) for symmetric
/// positive definite A (and M) whose preconditioned spectrum lies in [bounds.lambda_min, bounds.lambda_max]
/// (lanczos_bounds estimates it). No inner products besides the residual norm of the stopping test. When the
/// interval holds the spectrum, ‖r_k‖ ≤ ‖r_0‖ / T_k(σ) (T_k the Chebyshev polynomial), the optimal bound over
/// degree-k residual polynomials on the interval. residual_history holds the updated residual; a
/// confirmation that fails restarts the recurrence from the true residual (as every solver here).
/// One product with A and one with M⁻¹ per iteration.
/// @throws as cg, and trncore::InvalidArgument unless 0 < lambda_min < lambda_max (both finite).
KrylovResult chebyshev(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                       SpectrumBounds bounds, const KrylovOptions& options = {},
                       const LinearOperator<double>& preconditioner = {});
/// float form of chebyshev(const LinearOperator<double>&, ...).
KrylovResult chebyshev(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                       SpectrumBounds bounds, const KrylovOptions& options = {},
                       const LinearOperator<float>& preconditioner = {});
/// Matrix form of chebyshev(const LinearOperator<double>&, ...).
KrylovResult chebyshev(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                       SpectrumBounds bounds, const KrylovOptions& options = {},
                       const LinearOperator<double>& preconditioner = {});
/// Matrix form of chebyshev(const LinearOperator<float>&, ...).
KrylovResult chebyshev(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                       SpectrumBounds bounds, const KrylovOptions& options = {},
                       const LinearOperator<float>& preconditioner = {});

/// Richardson iteration x ← x + ω·M⁻¹(b − A x) in working precision (richardson_bf16 models it in bf16).
/// Converges for SPD A (and M) iff 0 < ω < 2/λmax(M⁻¹A); ω = 2/(λmin + λmax) is optimal, with rate
/// (κ − 1)/(κ + 1). Its residual is the true one b − A x, recomputed every iteration (one product with A
/// and one with M⁻¹ per iteration), so residual_history holds true residuals.
/// @throws as cg, and trncore::InvalidArgument unless ω is finite and positive.
KrylovResult richardson(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x, double omega,
                        const KrylovOptions& options = {}, const LinearOperator<double>& preconditioner = {});
/// float form of richardson(const LinearOperator<double>&, ...).
KrylovResult richardson(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x, double omega,
                        const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});
/// Matrix form of richardson(const LinearOperator<double>&, ...).
KrylovResult richardson(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                        double omega, const KrylovOptions& options = {},
                        const LinearOperator<double>& preconditioner = {});
/// Matrix form of richardson(const LinearOperator<float>&, ...).
KrylovResult richardson(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x, double omega,
                        const KrylovOptions& options = {}, const LinearOperator<float>& preconditioner = {});

// ---- Eigenvalues ----

/// Power iteration for the eigenvalue of largest modulus of A: v ← A v/‖A v‖₂, λ = vᵀA v (Rayleigh quotient
/// of the normalized v). v holds the start vector on entry (finite, nonzero) and the eigenvector estimate on
/// exit; `lambda` receives λ. Residual measure: ρ_k = ‖A v − λ v‖₂/|λ| (residual_history, relative_residual
/// and the monitor's residual); converged when ‖A v − λ v‖₂ ≤ max(rtol·|λ|, atol) — for symmetric A then
/// |λ − λ_true| ≤ ‖Av − λv‖²/gap (Parlett, The Symmetric Eigenvalue Problem, Thm 11.7.1). Converges at rate
/// |λ₂/λ₁|. Reasons: converged, max_iterations (0 = 10·n), breakdown (A v = 0), non_finite,
/// stopped_by_monitor; stagnation_window, restart and orthogonalization are ignored.
/// @throws trncore::InvalidArgument for an empty operator, a zero or non-finite start vector, invalid
///         options (as cg); trncore::DimensionMismatch when v.size() ≠ a.size(); trncore::NotSupported as cg.
KrylovResult power_iteration(const LinearOperator<double>& a, std::span<double> v, double& lambda,
                             const KrylovOptions& options = {});
/// float form of power_iteration(const LinearOperator<double>&, ...) (λ and the residual norms in double).
KrylovResult power_iteration(const LinearOperator<float>& a, std::span<float> v, double& lambda,
                             const KrylovOptions& options = {});
/// Matrix form of power_iteration(const LinearOperator<double>&, ...) (A square).
KrylovResult power_iteration(trncore::MatrixView<const double> a, std::span<double> v, double& lambda,
                             const KrylovOptions& options = {});
/// Matrix form of power_iteration(const LinearOperator<float>&, ...) (A square).
KrylovResult power_iteration(trncore::MatrixView<const float> a, std::span<float> v, double& lambda,
                             const KrylovOptions& options = {});

/// Bounds on the extreme eigenvalues of a symmetric operator S from `steps` Lanczos steps (full
/// reorthogonalization) started from a pseudo-random vector drawn from options.seed (std::mt19937_64,
/// uniform in [−1, 1]). The Ritz values θ_min, θ_max lie inside [λmin, λmax]; each is widened by its Ritz
/// residual |β_k y_k| (an eigenvalue lies within it, Parlett Thm 11.4.1) and by (n + 2k + 2)·u·max|θ| for the
/// rounding of the recurrence and of dstev (so an invariant subspace, where the residuals vanish, still gives
/// an interval that holds the computed spectrum), which makes the interval safe for
/// chebyshev once the extreme Ritz values have converged — a handful of steps on well-separated spectra, more
/// for clustered ones. With `spd`, lambda_min is clamped to ≥ 0. For the spectrum of M⁻¹A with a Jacobi M,
/// pass the similar symmetric operator D^{-1/2} A D^{-1/2} (trnsparse::lanczos_bounds does). The tridiagonal
/// eigenproblem is solved by LAPACK dstev. options.monitor is called per step k with β_k/|α_k| (the
/// quantity whose smallness, ≤ 1e-14, ends the run early as an invariant subspace); a stop returns the
/// bounds of the steps done. Only threads, seed, monitor and backend of the options are read.
/// @throws trncore::InvalidArgument for an empty operator, steps < 1, invalid options or non-finite
///         Lanczos coefficients (A x not finite); trncore::NotSupported for options.backend = sim.
SpectrumBounds lanczos_bounds(const LinearOperator<double>& a, std::int64_t steps = 30,
                              const trncore::Options& options = {}, bool spd = true);

// ---- Arnoldi ----

/// The Arnoldi relation A V_k = V_{k+1} H_k computed by arnoldi().
template <class T>
struct ArnoldiResult {
  std::int64_t n = 0;      ///< vector length
  std::int64_t steps = 0;  ///< k: steps done (fewer than asked when h_{j+1,j} = 0, an invariant subspace)
  /// V_{k+1}: n × (k+1), column-major (column j at basis[j·n]); orthonormal up to rounding.
  std::vector<T> basis;
  /// H_k: (k+1) × k upper Hessenberg, column-major (h_ij at hessenberg[i + j·(k+1)]).
  std::vector<T> hessenberg;
};

/// k = `steps` steps of Arnoldi from `start` with the given orthogonalization, exactly as GMRES runs them
/// (without preconditioner): for inspecting the basis (e.g. ‖I − VᵀV‖) or the Ritz values.
/// @throws trncore::InvalidArgument for an empty operator, steps < 0, a zero or non-finite start vector,
///         or an invalid orthogonalization; trncore::DimensionMismatch when start.size() ≠ a.size().
ArnoldiResult<double> arnoldi(const LinearOperator<double>& a, std::span<const double> start, std::int64_t steps,
                              Orthogonalization orthogonalization = Orthogonalization::mgs);
/// float form of arnoldi(const LinearOperator<double>&, ...).
ArnoldiResult<float> arnoldi(const LinearOperator<float>& a, std::span<const float> start, std::int64_t steps,
                             Orthogonalization orthogonalization = Orthogonalization::mgs);

// ---- bf16 variants (the Trainium VectorEngine model) ----

/// CG as it would run on a NeuronCore with bf16 vectors (docs/trnsolver-krylov.md, "bf16 CG"):
/// - A and b are rounded to bf16 once (round-to-nearest-even); x, r, p are stored in bf16 (the initial
///   x is rounded to nearest on entry, and x returns the bf16 iterate's exact values);
/// - q = A p is a TensorEngine product: bf16 × bf16 products are exact in fp32 and accumulate in fp32
///   (round-to-nearest-even) in ascending column order; q stays in fp32 (PSUM);
/// - dot products accumulate fp32 products in fp32, in ascending index order; α, β are fp32 quotients;
/// - each vector update (x + αp, r − αq, r + βp) is computed in fp32 and rounded to bf16 with
///   options.rounding: nearest_even, or stochastic with the bits RandomBits{options.seed, 4k + v}(i)
///   (v = 0, 1, 2 for x, r, p in iteration k), so a run is bitwise reproducible for any thread count.
/// The stopping test uses the model's own residual; a confirmation recomputes r = b − A x in the model
/// (rounded to bf16 to nearest) and `converged` reports the double-precision true residual against the
/// caller's A and b, which true_residual_history records per iteration. Stagnation additionally triggers
/// when x has not changed in stagnation_window iterations (round-to-nearest updates below half an ulp
/// are lost). No preconditioner. What the model shows for round-to-nearest vs stochastic rounding, with
/// numbers, is in docs/trnsolver-krylov.md.
/// @throws as cg (except that options.backend may be sim: the model runs on the host either way), and
///         trncore::InvalidArgument when options.rounding is neither nearest_even nor stochastic or is
///         invalid; trncore::InvalidArgument when A holds NaN or infinity.
KrylovResult cg_bf16(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                     const KrylovOptions& options = {});
/// double form of cg_bf16: A, b and x are rounded from double to bf16 once (one rounding each); the true
/// residual is computed against the caller's double A and b.
KrylovResult cg_bf16(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                     const KrylovOptions& options = {});

/// Damped Jacobi (Richardson with D⁻¹) x ← x + ω·D⁻¹(b − A x) in the same bf16 model as cg_bf16: A, b, x in
/// bf16, r = b − A x from the TensorEngine product in fp32, ω/a_ii formed once in fp32, each update computed
/// in fp32 and rounded to bf16 with options.rounding (stochastic: bits RandomBits{seed, k}(i) in
/// iteration k — bitwise reproducible for any thread count). The stationary iteration shows the effect of the
/// update rounding most cleanly: with round-to-nearest, once every update ω·r_i/a_ii is below half an ulp of
/// x_i the iterate never changes again (stagnation far above bf16 accuracy when ω is small), while stochastic
/// rounding keeps E[x_{k+1}] equal to the exact update, so the iteration goes on converging in expectation
/// (measured in docs/trnsolver-krylov.md). Converges for 0 < ω < 2/ρ(D⁻¹A) on SPD A. Stops on the double
/// true residual (recorded in true_residual_history), max_iterations (0: 10·n) or stagnation_window
/// iterations without a change of x.
/// @throws as cg_bf16, and trncore::InvalidArgument for ω ≤ 0 or non-finite, or a zero diagonal in bf16.
KrylovResult richardson_bf16(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                             double omega, const KrylovOptions& options = {});
/// double form of richardson_bf16 (A, b, x rounded to bf16 once; the true residual against the doubles).
KrylovResult richardson_bf16(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                             double omega, const KrylovOptions& options = {});

}  // namespace trnsolver
