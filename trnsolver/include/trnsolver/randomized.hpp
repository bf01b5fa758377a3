#pragma once
/// @file
/// Randomized numerical linear algebra: randomized SVD (Halko–Martinsson–Tropp) with power iterations and
/// an adaptive-rank range finder, Hutchinson and Hutch++ trace estimation, diagonal estimation, Nyström
/// approximation of PSD matrices, a randomized symmetric eigensolver, sketched Rayleigh–Ritz and
/// sketch-and-precondition least squares — on dense matrices or on linear operators given as block
/// callbacks. Full reference, bounds and sources: docs/trnsolver-randomized.md.
///
/// Conventions:
/// - T is float or double. Dense inputs are trncore::MatrixView in either layout; every returned matrix
///   is column-major (DenseMatrix with Layout::col_major).
/// - Randomness comes only from the Sketch in the options (sketch.hpp): the same inputs, options and seed
///   give bitwise identical results for every options.threads; a different seed an independent draw.
///   (Host GEMMs and LAPACK calls are those of OpenBLAS, deterministic for a fixed OpenBLAS thread count.)
/// - Backends: options.backend = host runs every product with OpenBLAS in T. sim (rsvd,
///   rsvd_adaptive and eigh_randomized on a dense A; any routine on MatrixOperator::dense(A, sim options))
///   runs every product with A (the O(m·n·l) work) as a trnblas sim GEMM in options.math_mode on the modelled
///   TensorEngine (bf16, fp32, compensated, …; bitwise reproducible), while the small O((m + n)·l²)
///   orthonormalisations and the l×l eigen/SVD problems run on the host in T.
/// - Bad input throws: trncore::InvalidArgument for k < 1, k > min(m, n), non-finite entries of a dense A
///   (naming the first one), non-finite values returned by an operator callback (naming the product),
///   negative oversampling or power iterations, a tolerance that is not positive and finite, a matvec
///   budget too small for the estimator; DimensionMismatch for a non-square matrix where one is needed.
///   Messages read "trnsolver::<function>: <what is wrong, with the values>: <what to do>".

#include <trnsolver/dense.hpp>
#include <trnsolver/sketch.hpp>

#include <trncore/options.hpp>
#include <trncore/sim/engine_stats.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace trnsolver {

/// A linear operator A (rows×cols) known only through block products: Y = A·X and Y = Aᵀ·X for blocks of
/// b columns, all column-major and contiguous (X has ld = cols resp. rows, Y ld = rows resp. cols).
/// Copies share the callbacks' state.
template <class T>
class MatrixOperator {
 public:
  /// y (rows×b) = A·x (x cols×b), or Aᵀ·x (x rows×b, y cols×b) for the transpose callback.
  using Apply = std::function<void(std::int64_t b, const T* x, T* y)>;

  MatrixOperator() = default;
  /// @param rows, cols  the shape of A (≥ 0)
  /// @param apply  computes Y = A·X for a block (must not be empty)
  /// @param apply_transpose  may be empty for square symmetric operators (then Aᵀ·X = A·X is used) and
  ///                         for the estimators that need only A·X (trace, diagonal, Nyström).
  /// @throws trncore::InvalidArgument for negative sizes or an empty `apply`.
  MatrixOperator(std::int64_t rows, std::int64_t cols, Apply apply, Apply apply_transpose = {});

  /// The operator of a dense matrix (no copy: `a` must outlive it); products run trnblas::gemm(options).
  /// @throws as trncore::Options validation.
  static MatrixOperator dense(trncore::MatrixView<const T> a, const trncore::Options& options = {});

  /// Rows of A.
  std::int64_t rows() const noexcept { return rows_; }
  /// Columns of A.
  std::int64_t cols() const noexcept { return cols_; }
  /// Whether a transpose callback was given (else apply_transpose uses apply: A taken as symmetric).
  bool has_transpose() const noexcept { return static_cast<bool>(apply_transpose_); }
  /// y = A·x, the callback as given (no checks; the routines here check what it returns).
  void apply(std::int64_t b, const T* x, T* y) const { apply_(b, x, y); }
  /// y = Aᵀ·x; A·x for an operator built without a transpose callback (documented as symmetric).
  void apply_transpose(std::int64_t b, const T* x, T* y) const {
    if (apply_transpose_)
      apply_transpose_(b, x, y);
    else
      apply_(b, x, y);
  }

 private:
  std::int64_t rows_ = 0, cols_ = 0;
  Apply apply_, apply_transpose_;
};

/// Options of rsvd and eigh_randomized. The trncore::Options base (through trncore::OptionsFor: with_*() setters return
/// this struct, a plain Options converts): backend, math mode (sim) and threads; monitor (once per power iteration);
/// target_forward_error is not supported (NotSupported). The base's seed and stream are not used: the test matrix's
/// stream is `sketch`'s.
struct RsvdOptions : trncore::OptionsFor<RsvdOptions> {
  using OptionsFor::OptionsFor;
  /// p: the sketch has l = min(k + p, min(m, n)) columns. ≥ 0; 10 is HMT's recommendation (§4.2).
  std::int64_t oversampling = 10;
  /// q: power (subspace) iterations with A·Aᵀ, each followed by re-orthonormalisation (HMT Alg. 4.4);
  /// the error factor in the bounds shrinks like (·)^{1/(2q+1)}. ≥ 0.
  std::int64_t power_iterations = 2;
  /// The test matrix; any kind. The HMT bounds quoted below are for SketchKind::gaussian.
  Sketch sketch{};
  /// Sim backend, dense A only: the refinement step. When set, the range is found in math_mode (e.g.
  /// bf16) and then one more subspace iteration Q ← orth(A·orth(Aᵀ·Q)) and the projection Bᵀ = Aᵀ·Q run in
  /// this mode — MathMode::compensated for fp32 accuracy (plain fp32 mode still rounds products to bf16 under
  /// the default bf16 product model, docs/trnblas-sim.md) — which removes the low-precision angle error of the basis (its
  /// component outside the dominant subspace shrinks by (σ_{l+1}/σ_k)² per step plus the refine mode's
  /// rounding) and brings the result to the refine mode's accuracy, at the price of three more products
  /// with A in the refine mode (compensated: 21 TensorEngine passes each under the bf16 product model,
  /// against one per bf16 product; the cost member reports the total). Must be unset on the host backend (InvalidArgument).
  std::optional<trncore::MathMode> refine_math_mode;
};

/// A truncated SVD A ≈ U·diag(s)·Vᵀ: s descending (rank entries), U m×rank, Vᵀ rank×n, column-major.
template <class T>
struct RsvdResult {
  std::vector<T> s;  ///< the rank singular values, descending
  ///@{
  /// U (m×rank) and Vᵀ (rank×n), column-major.
  DenseMatrix<T> u, vt;
  ///@}
  std::int64_t rank = 0;  ///< k for rsvd; the basis's columns for rsvd_adaptive; 0 when info > 0
  /// rsvd_adaptive only: the a-posteriori estimate E of ‖A − U·diag(s)·Vᵀ‖₂ the range finder stopped at
  /// (HMT Lemma 4.1 with r = block size); 0 for rsvd.
  double error_estimate = 0.0;
  /// Products with A or Aᵀ, counted in columns (one matvec = 1).
  std::int64_t matvecs = 0;
  /// 0, or the info > 0 of the inner gesdd when its iteration did not converge (a numerical outcome, not an
  /// exception, as LAPACK's): rank is then 0 and the factors empty.
  std::int64_t info = 0;
  /// Sim backend with a dense A: the modelled engine cost of all its GEMMs with A (an estimate from the
  /// generation's spec table, DESIGN.md §4.4); unset on the host and for operators.
  std::optional<trncore::sim::CostReport> cost;
  /// options.monitor asked to stop (rsvd: the power iterations; rsvd_adaptive: the range finder); the
  /// factors are those of the basis at that point (see rsvd, rsvd_adaptive).
  bool stopped_by_monitor = false;
};

/// Randomized SVD of rank k (Halko, Martinsson & Tropp, SIAM Review 53(2), 2011, Alg. 4.4 + 5.1):
/// Y = A·Ω (l = min(k + p, min(m, n)) columns), Q = orth(Y); q times: Q = orth(A·orth(Aᵀ·Q)); Bᵀ = Aᵀ·Q,
/// Bᵀ = W·Σ·Zᵀ (gesdd); U = Q·Z, V = W; truncated to the k largest.
/// Accuracy (Gaussian Ω, exact arithmetic, HMT Cor. 10.10), with P = Q·Qᵀ before truncation:
///   E‖(I − P)A‖₂ ≤ [(1 + √(k/(p−1)))·σ_{k+1}^{2q+1} + (e√(k+p)/p)·(Σ_{j>k} σ_j^{2(2q+1)})^{1/2}]^{1/(2q+1)}
/// for p ≥ 2; truncating to rank k adds at most σ_{k+1} (HMT §9.4 / Tropp et al. 2017). Rounding adds
/// O(u·‖A‖₂) on the host and the GEMM mode's bound relative to ‖A‖·‖Ω‖ on sim (bf16: about 2⁻⁸).
/// Exactly rank-r matrices (r ≤ l) are recovered to rounding with probability 1.
/// Monitor: options.monitor, when set, is called after every power iteration (iteration = 1…q) with the
/// change of the basis, ‖(I − Q_oldQ_oldᵀ)Q_new‖_F/√l (computed only when a monitor is set); when it asks to
/// stop, the remaining power iterations are skipped and the SVD is taken on the current basis (a valid
/// rsvd with fewer power iterations: the bound above with q replaced by the iterations run), with
/// stopped_by_monitor set.
/// @throws as the file header; NotSupported for a target_forward_error.
template <class T>
RsvdResult<T> rsvd(trncore::MatrixView<const T> a, std::int64_t k, const RsvdOptions& options = {});

/// rsvd of an operator (needs the transpose callback unless A is square and symmetric). Ω is formed
/// (cols×l) and applied with the callback; non-finite callback output throws InvalidArgument.
template <class T>
RsvdResult<T> rsvd(const MatrixOperator<T>& a, std::int64_t k, const RsvdOptions& options = {});

/// Options of rsvd_adaptive. The trncore::Options base (through trncore::OptionsFor: with_*() setters return this
/// struct, a plain Options converts): backend, math mode (sim) and threads; monitor (once per block);
/// target_forward_error is not supported (NotSupported); seed and stream are not used (the sketch's are).
struct AdaptiveRangeOptions : trncore::OptionsFor<AdaptiveRangeOptions> {
  using OptionsFor::OptionsFor;
  /// Columns drawn per step, r ≥ 1: the a-posteriori bound below fails with probability ≤ min(m,n)·10^{−r}.
  std::int64_t block_size = 10;
  /// Largest rank to reach (0 = min(m, n)); when hit, the result has this rank and error_estimate says
  /// how far it is from the tolerance.
  std::int64_t max_rank = 0;
  /// The test matrix's kind and stream (the bound above is for SketchKind::gaussian).
  Sketch sketch{};
};

///@{
/// Randomized SVD to an absolute spectral tolerance: the blocked adaptive randomized range finder (HMT
/// Alg. 4.2, blocked as in Martinsson & Voronin 2016) draws r = block_size Gaussian-type columns at a time,
/// projects them off the current basis Q twice (CGS2), and stops once
///   E = 10·√(2/π)·max_i ‖(I − Q·Qᵀ)·A·ω_i‖₂ ≤ tolerance,
/// which certifies ‖A − Q·Qᵀ·A‖₂ ≤ E with probability ≥ 1 − min(m,n)·10^{−r} (HMT Lemma 4.1) for Gaussian
/// ω; otherwise it orthonormalises the block and appends it. Then the SVD as in rsvd, not truncated (rank =
/// columns of Q), so ‖A − U·diag(s)·Vᵀ‖₂ = ‖(I − QQᵀ)A‖₂ up to rounding. Needs the transpose callback.
/// The rank is at least #{σ_i > tolerance} (Eckart–Young). It can be several times that on slowly decaying
/// spectra: the criterion sees ‖(I − QQᵀ)A·ω‖ ≈ ‖(I − QQᵀ)A‖_F (times 10·√(2/π) ≈ 8) and no power
/// iterations sharpen the basis; on exactly rank-r matrices it stops at r rounded up to a block, plus one.
/// Monitor: options.monitor, when set, is called once per block (iteration = blocks drawn, from 1) with E;
/// when it asks to stop before E ≤ tolerance, the SVD is taken on the basis so far and error_estimate is
/// that E (the bound above holds for it), with stopped_by_monitor set.
/// @throws as the file header; InvalidArgument for block_size < 1, max_rank < 0, tolerance ≤ 0 or not finite.
template <class T>
RsvdResult<T> rsvd_adaptive(trncore::MatrixView<const T> a, double tolerance, const AdaptiveRangeOptions& options = {});
template <class T>
RsvdResult<T> rsvd_adaptive(const MatrixOperator<T>& a, double tolerance, const AdaptiveRangeOptions& options = {});
///@}

/// A trace estimate. Accumulation is in double.
struct TraceEstimate {
  double estimate = 0.0;  ///< the estimate of tr(A)
  /// Standard error of the stochastic part: Hutchinson: sample s.d. of the m probes' ωᵀAω /√m; Hutch++:
  /// the same for the residual part (the exact part tr(QᵀAQ) has none). 0 when fewer than 2 probes.
  double standard_error = 0.0;
  std::int64_t matvecs = 0;  ///< products with A used (columns)
};

/// Hutchinson's estimator tr(A) ≈ (1/m)·Σ ω_iᵀ·A·ω_i with m = matvecs probes ω_i, the columns of the
/// sketch's test matrix (unbiased for every kind, since each column is isotropic: E[ωωᵀ] = I). Variance
/// for Rademacher probes: 2(‖A‖_F² − Σ a_ii²)/m for symmetric A (Hutchinson 1990; Avron & Toledo 2011);
/// Gaussian: 2‖A‖_F²/m. A must be square (DimensionMismatch otherwise).
/// @throws InvalidArgument for matvecs < 1; as the file header.
template <class T>
TraceEstimate hutchinson(const MatrixOperator<T>& a, std::int64_t matvecs,
                         const Sketch& sketch = {SketchKind::rademacher}, const trncore::Options& options = {});

/// Hutch++ (Meyer, Musco, Musco & Woodruff, SOSA 2021, Alg. 1) with a budget of m matvecs: s = ⌊m/3⌋
/// (rounded so that the three stages use at most m): Q = orth(A·S) with S n×s, tr(A) ≈ tr(Qᵀ·A·Q) +
/// (1/g)·tr(Gᵀ(I − QQᵀ)·A·(I − QQᵀ)G) with G n×g, g = m − 2s. For PSD A: |estimate − tr A| ≤ ε·tr A with
/// probability 1 − δ once m = O(√log(1/δ)/ε + log(1/δ)), against O(log(1/δ)/ε²) for Hutchinson.
/// S and G come from the sketch's subsequences stream and stream + 3 (independent).
/// @throws InvalidArgument for matvecs < 3; as hutchinson.
template <class T>
TraceEstimate hutch_plus_plus(const MatrixOperator<T>& a, std::int64_t matvecs,
                              const Sketch& sketch = {SketchKind::rademacher}, const trncore::Options& options = {});

/// Diagonal estimate diag(A) ≈ (Σ_i ω_i ⊙ A·ω_i) ⊘ (Σ_i ω_i ⊙ ω_i) (Bekas, Kokiopoulou & Saad, APNUM 57,
/// 2007) with m = matvecs probes; for Rademacher probes the denominator is m and entry j is unbiased with
/// variance (Σ_{c≠j} a_jc²)/m. Returned in double, n entries.
/// @throws InvalidArgument for matvecs < 1; as hutchinson.
template <class T>
std::vector<double> diagonal_estimate(const MatrixOperator<T>& a, std::int64_t matvecs,
                                      const Sketch& sketch = {SketchKind::rademacher},
                                      const trncore::Options& options = {});

/// A symmetric low-rank approximation A ≈ U·diag(w)·Uᵀ: w descending (rank entries), U n×rank
/// column-major with orthonormal columns.
template <class T>
struct LowRankEigen {
  std::vector<T> w;          ///< the rank eigenvalue estimates, descending (eigh_randomized: by |w|)
  DenseMatrix<T> u;          ///< n×rank, column-major, orthonormal columns
  std::int64_t rank = 0;     ///< the number of pairs returned (0 on failure, see info)
  std::int64_t matvecs = 0;  ///< products with A used (columns)
  /// 0, or the info > 0 of an inner LAPACK eigensolver/SVD that did not converge (a numerical outcome, not an
  /// exception): rank is then 0 and w, u empty.
  std::int64_t info = 0;
  /// eigh_randomized: options.monitor stopped the power iterations (the pairs come from the basis then).
  bool stopped_by_monitor = false;
};

///@{
/// The randomized Nyström approximation of a symmetric positive semidefinite A (n×n) from l = rank
/// columns (Tropp, Yurtsever, Udell & Cevher, SIMAX 38, 2017, Alg. 3, with the stable shift ν = √n·u·‖Y‖_F):
/// Y = A·Ω, Y_ν = Y + ν·Ω, C = chol(Ωᵀ·Y_ν), B = Y_ν·C⁻ᵀ, B = U·Σ·Vᵀ, w = max(Σ² − ν, 0). Error (Gaussian Ω,
/// Gittens & Mahoney 2016; TYUC17 Thm 4.1): E‖A − Â‖_* ≤ (1 + k/(l − k − 1))·Σ_{j>k} λ_j for k < l − 1.
/// Only A·X is used. @throws as the file header; InvalidArgument for rank < 1 or > n; when Ωᵀ·Y_ν is not
/// numerically positive definite (A not PSD) the returned rank is 0 and w empty (a result, not a throw).
template <class T>
LowRankEigen<T> nystrom(const MatrixOperator<T>& a, std::int64_t rank, const Sketch& sketch = {},
                        const trncore::Options& options = {});
template <class T>
LowRankEigen<T> nystrom(trncore::MatrixView<const T> a, std::int64_t rank, const Sketch& sketch = {},
                        const trncore::Options& options = {});
///@}

///@{
/// The k eigenpairs of largest magnitude of the symmetric n×n A (any sign), by the randomized range
/// finder of rsvd (l = min(k + p, n) columns, q power iterations with A) and Rayleigh–Ritz on its range
/// (HMT Alg. 5.3): T = Qᵀ·A·Q (l×l, symmetrised), T = V·Λ·Vᵀ (syevd), U = Q·V. Returned by descending
/// |w|. options.refine_math_mode is not used here; options.monitor as rsvd's (power iterations). Accuracy: each Ritz value lies in A's spectrum range; ‖A − U·diag(w)·Uᵀ‖₂ ≤ 2·‖(I − QQᵀ)A‖₂
/// (HMT §5.3) with ‖(I − QQᵀ)A‖₂ bounded as in rsvd.
template <class T>
LowRankEigen<T> eigh_randomized(const MatrixOperator<T>& a, std::int64_t k, const RsvdOptions& options = {});
template <class T>
LowRankEigen<T> eigh_randomized(trncore::MatrixView<const T> a, std::int64_t k, const RsvdOptions& options = {});
///@}

/// Ritz pairs from a sketched Rayleigh–Ritz step. Eigenvalues sorted by descending modulus (a complex
/// conjugate pair stays adjacent, positive imaginary part first).
template <class T>
struct RitzPairs {
  std::vector<T> values;  ///< real parts, rank entries
  std::vector<T> imag;    ///< imaginary parts (0 for real values; ±pairs for complex ones)
  /// n×rank, column-major, unit 2-norm columns; for a complex pair (j, j+1) the columns hold the real and
  /// imaginary parts of the vector of values[j] + i·imag[j] (LAPACK geev's convention, jointly normalised).
  DenseMatrix<T> vectors;
  /// ‖A·x_j − λ_j·x_j‖₂ for real λ_j (computed from A·V, no extra products); for complex pairs the norm of
  /// the complex residual, on both members.
  std::vector<double> residuals;
  /// Columns kept after whitening (singular values of S·V above rank_tolerance·σ₁).
  std::int64_t rank = 0;
  std::int64_t matvecs = 0;  ///< products with A used (columns: d, one per basis vector)
  /// 0, or the info > 0 of the inner gesdd (whitening) or geev that did not converge (a numerical outcome,
  /// not an exception): rank is then 0 and the pairs empty.
  std::int64_t info = 0;
};

/// Sketched Rayleigh–Ritz (Nakatsukasa & Tropp, "Fast and accurate randomized algorithms for linear systems
/// and eigenvalue problems", SIMAX 45, 2024, §6 "sRR"): for a basis V (n×d, any conditioning, e.g. a Krylov
/// basis built without full orthogonalisation) and a sketch S (s×n, s = sketch_rows ≥ d), solve
/// min ‖S·(A·V·M − V·M·Λ)‖ instead of the orthogonal projection: S·V = U·Σ·Wᵀ (whitened, singular values
/// below rank_tolerance·σ₁ dropped, rank r), M = Σ⁻¹·Uᵀ·(S·A·V)·W (r×r), M·Z = Z·Λ (LAPACK geev), Ritz vectors
/// X = V·W·Z. Costs d matvecs with A and O(s·d² + n·d·r) work, no orthogonalisation of V.
/// Accuracy: when S embeds range([V, A·V]) with distortion ε, the sketched residual is within (1+ε)/(1−ε)
/// of the best over range(V) (NT24 Prop. 6.1) and the returned residuals certify each pair a posteriori;
/// if range(V) contains an invariant subspace the corresponding eigenvalues are exact up to
/// |Δλ| ≲ c·d·u·κ(V)²·‖A‖ (Bauer–Fike on M).
/// @throws InvalidArgument for sketch_rows < d, rank_tolerance outside [0, 1), non-finite V or operator
///         output; DimensionMismatch for a non-square A or V with ≠ n rows; as the file header.
template <class T>
RitzPairs<T> rayleigh_ritz_sketched(const MatrixOperator<T>& a, trncore::MatrixView<const T> basis,
                                    std::int64_t sketch_rows, const Sketch& sketch = {SketchKind::sparse_sign},
                                    double rank_tolerance = 1e-12, const trncore::Options& options = {});

/// Options of lstsq_sketched. The trncore::Options base (through trncore::OptionsFor: with_*() setters return this
/// struct, a plain Options converts): backend, math mode (sim: the products with A) and threads; target_forward_error
/// is not supported; seed and stream are not used (the sketch's are).
struct SketchedLstsqOptions : trncore::OptionsFor<SketchedLstsqOptions> {
  using OptionsFor::OptionsFor;
  /// The sketch has s = min(m, ⌈sketch_factor·n⌉) rows; ≥ 1. 4 gives a subspace embedding with distortion
  /// ε ≤ 1/2 with high probability for sparse sign (ζ = 8) and SRHT sketches (Meng & Mahoney 2013;
  /// Tropp 2011), hence κ(A·R⁻¹) ≤ (1 + ε)/(1 − ε) ≤ 3.
  double sketch_factor = 4.0;
  /// The sketch S's kind and stream (sparse sign by default: O(nnz(A)·ζ) to apply).
  Sketch sketch{SketchKind::sparse_sign};
  /// LSQR stops when ‖Āᵀr‖ ≤ rtol·‖Ā‖·‖r‖ (Ā = A·R⁻¹, norms as LSQR estimates them) or ‖r‖ ≤ rtol·‖b‖.
  /// In (0, 1).
  double rtol = 1e-12;
  /// LSQR iteration limit; ≥ 1. With κ(Ā) ≤ 3 the error falls by ≥ 2× per step, so 100 is ample.
  std::int64_t max_iterations = 100;
};

/// A sketch-and-precondition least-squares solution.
template <class T>
struct SketchedLstsqResult {
  std::vector<T> x;  ///< n entries
  /// LSQR iterations run.
  std::int64_t iterations = 0;
  /// Whether LSQR met its rtol test before max_iterations.
  bool converged = false;
  /// 0; i > 0 when R(i−1, i−1) of the sketch's QR is zero: A is numerically rank deficient at the
  /// sketch (x is empty; use lstsq with LstsqMethod::svd).
  std::int64_t info = 0;
  double residual_norm = 0.0;  ///< ‖b − A·x‖₂ computed in T
  /// options.monitor stopped LSQR before its rtol test held (x is the iterate at that step).
  bool stopped_by_monitor = false;
};

/// min ‖A·x − b‖₂ for a tall full-rank A (m×n, m ≥ n) by sketch-and-precondition (Rokhlin & Tygert 2008;
/// Blendenpik, Avron, Maymounkov & Toledo 2010; LSRN, Meng, Saunders & Mahoney 2014): S·A = Q·R (s×n
/// sketch, geqrf), x₀ = R⁻¹·Qᵀ·S·b (sketch-and-solve), then LSQR (Paige & Saunders 1982) on the
/// preconditioned problem min ‖A·R⁻¹·y − (b − A·x₀)‖, x = x₀ + R⁻¹·y. Work O(nnz(A)·ζ + s·n² + iters·m·n).
/// Accuracy: at convergence ‖x − x*‖/‖x*‖ ≲ κ(A)·κ(Ā)²·rtol plus the LS conditioning term
/// u·κ(A)·(2 + κ(A)·‖r*‖/(‖A‖·‖x*‖)) of a backward-stable solver (Higham ASNA Thm 20.1).
/// Monitor: options.monitor, when set, is called after every LSQR iteration (from 1) with ‖r_k‖/‖r_0‖ of the
/// preconditioned problem (φ̄_k/β₁, LSQR's own estimate); a stop before convergence returns x = x₀ + R⁻¹·y_k
/// with converged = false and stopped_by_monitor set.
/// @throws InvalidArgument for m < n, n < 1, b of the wrong length (DimensionMismatch), non-finite A or b,
///         bad options; as the file header.
template <class T>
SketchedLstsqResult<T> lstsq_sketched(trncore::MatrixView<const T> a, std::span<const T> b,
                                      const SketchedLstsqOptions& options = {});

}  // namespace trnsolver
