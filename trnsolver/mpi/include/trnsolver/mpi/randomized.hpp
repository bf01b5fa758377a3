#pragma once
/// @file
/// Distributed randomized low-rank approximation (docs/distributed.md, "Randomized SVD and Nyström"):
/// rsvd and Nyström on a row-distributed dense matrix (a P×1 block-cyclic ScaLAPACK layout, any row block
/// mb) and on a matrix-free Gaussian kernel operator whose entries are formed block by block and never
/// stored; a bf16 range finder refined to working-precision accuracy; an a-posteriori error report.
///
/// Reproducibility contract. Every floating-point operation is organised by *work blocks*: the global rows
/// cut into blocks of `block_rows` (an option, never derived from the rank count or from mb). A block is
/// always processed whole by one rank with the same calls on the same data; sums over rows (Gram matrices,
/// Aᵀ·Q, norms) add per-block partials in ascending global block order (trncore::mpi::ordered_sum); the
/// small l×l and n×l dense problems are solved redundantly, with identical inputs, on every rank. Hence for
/// a given matrix, seed and options the outputs (U, S, Vᵀ, W and the report) are bitwise identical for
/// every number of ranks and every input layout (mb, rsrc) — and equal to a 1-rank run — on machines with
/// the same OpenBLAS build and CPU kernel (OpenBLAS picks kernels by CPU type). OpenBLAS runs
/// single-threaded inside these routines (the caller's count is restored on return): its results depend on
/// its thread count, and one thread per rank is MPI's model.
/// The results are *not* bitwise those of the single-process trnsolver::rsvd (which orthonormalises the
/// whole m×l basis with one Householder QR, not a blocked TSQR); they agree with it to the bounds below.
///
/// Precision. RangePrecision::bf16 runs the range finder's products with A on bf16-rounded operands (both A's
/// tiles and the basis, nearest-even through trncore::convert) with exact products and accumulation in T —
/// the arithmetic of MathMode::bf16 (inputs rounded to bf16, fp32 accumulation), in OpenBLAS's summation
/// order rather than the modelled TensorEngine's — then `refinement_iterations` subspace iterations, the
/// projection and the error report in T.
/// The refinement removes the bf16 basis error (the component of Q outside A's dominant subspace shrinks by
/// (σ_{l+1}/σ_k)² per iteration plus T's rounding), so the factors reach T's accuracy (report.residual).

#include <trnsolver/dense.hpp>
#include <trnsolver/sketch.hpp>

#include <trncore/mpi/block_cyclic.hpp>

#include <cstdint>
#include <vector>

namespace trnsolver::mpi {

/// The arithmetic of the range finder's products with A.
enum class RangePrecision : std::uint8_t {
  working,  ///< T (fp32 or fp64) operands and accumulation
  bf16,     ///< operands rounded to bf16 (nearest-even), products exact, accumulation in T
};

/// Options of rsvd and nystrom (distributed). Every rank must pass the same values (checked collectively).
struct RandomizedOptions {
  /// p: the basis has l = min(k + p, min(m, n)) columns. ≥ 0.
  std::int64_t oversampling = 10;
  /// q: rsvd: power iterations with A·Aᵀ (two products each); nystrom: products with A applied to the test
  /// matrix before the Nyström step (Ω ← orth(A·Ω)). ≥ 0. Run in range_precision.
  std::int64_t power_iterations = 2;
  /// The arithmetic of the range finder (the initial product and the power iterations).
  RangePrecision range_precision = RangePrecision::bf16;
  /// Subspace iterations run in T after the range finder (rsvd: Q ← orth(A·orth(Aᵀ·Q)); nystrom:
  /// Ω ← orth(A·Ω)); ≥ 0. 1 brings a bf16 basis to T's accuracy on spectra with a gap at l.
  std::int64_t refinement_iterations = 1;
  /// The test matrix Ω (n×l): kind, seed and stream (trnsolver::sketch_matrix; entry (i, j) is a pure
  /// function of the spec and (i, j), formed identically on every rank). The error probes use stream + 7.
  Sketch sketch{};
  /// Rows per work block (≥ 1): fixes every reduction order, so results depend on it (and not on the ranks).
  /// At least P blocks are needed to keep every rank busy; 512 suits m in the 10⁴–10⁶ range.
  std::int64_t block_rows = 512;
  /// r Gaussian probes for the a-posteriori error estimate (HMT Lemma 4.1: fails with probability ≤ 10^{−r});
  /// 0 = no estimate (error_estimate stays 0). ≥ 0. The report costs one product with A of k + r columns
  /// (the residuals are always computed).
  std::int64_t error_probes = 10;
  /// Dense rsvd only: A is square and symmetric, so Aᵀ·X = A·X (one product per half power iteration and no
  /// long reductions). The Gaussian kernel is always symmetric.
  bool symmetric = false;
  /// Threads of the suite's own loops (forming Ω; 0 = the process default); never changes a bit. OpenBLAS
  /// (the products and factorizations) runs single-threaded inside the routines whatever this says.
  int threads = 1;
};

/// What a distributed randomized routine achieved, computed reproducibly (every rank holds the same
/// values, bitwise the same for every rank count). Norms are 2-norms, relative to scale = σ₁ (rsvd) or
/// |w₁| (nystrom); products for the report run in T.
struct RandomizedReport {
  /// rsvd: max_i ‖A·v_i − σ_i·u_i‖₂/σ₁ over the k triplets (Aᵀ·u_i − σ_i·v_i vanishes to rounding by
  /// construction); nystrom: max_i ‖A·u_i − w_i·u_i‖₂/|w₁|.
  double residual = 0.0;
  /// A probabilistic bound on ‖A − Â‖₂/scale (Â = U·diag(s)·Vᵀ or U·diag(w)·Uᵀ): 10·√(2/π)·max_j
  /// ‖(A − Â)·ω_j‖₂/scale over error_probes Gaussian ω_j; holds with probability ≥ 1 − 10^{−r}
  /// (Halko, Martinsson & Tropp 2011, Lemma 4.1).
  double error_estimate = 0.0;
  /// ‖(I − Q_r·Q_rᵀ)·Q_b‖_F/√l: how far refinement moved the range-finder basis Q_b (0 without refinement).
  double refinement_change = 0.0;
  std::int64_t matvecs = 0;        ///< products with A, counted in columns (report's included)
  std::int64_t basis_columns = 0;  ///< l
  std::int64_t work_blocks = 0;    ///< ⌈m / block_rows⌉
  int ranks = 1;                   ///< the communicator's size
};

/// A distributed truncated SVD A ≈ U·diag(s)·Vᵀ.
template <class T>
struct RsvdResult {
  std::vector<T> s;  ///< k singular values, descending (every rank)
  /// This rank's part of U (m×k) in the layout u_desc: A's row distribution (mb, rsrc, P×1), lld =
  /// max(1, local rows), column-major.
  std::vector<T> u;
  trncore::mpi::Descriptor u_desc;  ///< the layout of u
  DenseMatrix<T> vt;                ///< Vᵀ (k×n), column-major, replicated on every rank
  std::int64_t rank = 0;            ///< k, or 0 when info > 0
  /// 0, or the info > 0 of a redundant LAPACK SVD that did not converge (the same on every rank; factors empty).
  std::int64_t info = 0;
  RandomizedReport report;  ///< what was achieved (identical on every rank)
};

/// A distributed symmetric low-rank approximation A ≈ U·diag(w)·Uᵀ.
template <class T>
struct NystromResult {
  std::vector<T> w;  ///< k eigenvalue estimates ≥ 0, descending (every rank)
  /// This rank's part of U (n×k, orthonormal columns) in u_desc (A's/the points' row distribution).
  std::vector<T> u;
  trncore::mpi::Descriptor u_desc;  ///< the layout of u
  std::int64_t rank = 0;    ///< k; 0 when Ωᵀ·A·Ω was not numerically positive definite (A not PSD) or info > 0
  std::int64_t info = 0;    ///< 0, or the info > 0 of a redundant LAPACK SVD that did not converge
  RandomizedReport report;  ///< what was achieved (identical on every rank)
};

/// The Gaussian kernel matrix K(i, j) = exp(−‖x_i − x_j‖²/(2h²)) of n points x_i ∈ ℝᵈ distributed by rows
/// over a P×1 grid (the points' layout is the layout of U in the results). Matrix-free: the constructor
/// allgathers the points (n·d values) and products form K in tiles of block_rows × 4096 on the fly; K is
/// never stored. Each entry is computed in T by fixed operations — ‖x_i − x_j‖² summed coordinate by
/// coordinate, times the rounded 1/(2h²), then exp (float: a Cody–Waite reduction and degree-7 polynomial
/// within 2 ulps, vectorised; double: std::exp) — so every entry is a pure function of (x_i, x_j, h): the same
/// bits on every rank and in every tile, K(i, i) = 1 exactly, and |K̂(i, j) − K(i, j)| ≤ 4u·K(i, j) + 3u/e
/// (u = unit roundoff of T; the second term from the distance's rounding times |x|·e^{−|x|} ≤ 1/e).
template <class T>
class GaussianKernel {
 public:
  /// Collective over grid's communicator.
  /// @param grid       a P×1 grid
  /// @param points     this rank's rows of the n×d point matrix (block-cyclic, column-major, lld)
  /// @param bandwidth  h > 0, finite, the same on every rank
  /// @throws on every rank (trncore::mpi::CollectiveCheck): InvalidArgument for a grid that is not P×1, a bad
  ///         descriptor, non-finite coordinates, a bad bandwidth; DimensionMismatch when ranks disagree.
  GaussianKernel(const trncore::mpi::ProcessGrid& grid, trncore::mpi::DistMatrix<const T> points, double bandwidth);

  std::int64_t size() const noexcept { return n_; }       ///< n
  std::int64_t dimension() const noexcept { return d_; }  ///< d
  double bandwidth() const noexcept { return h_; }        ///< h
  /// The points' layout (n×d).
  const trncore::mpi::Descriptor& points_descriptor() const noexcept { return desc_; }
  /// Writes K(r0 + i, c0 + j) for i < rows, j < cols into out (column-major, ld ≥ rows). Local, no
  /// communication. @throws InvalidArgument for a range outside [0, n).
  void entries(std::int64_t r0, std::int64_t rows, std::int64_t c0, std::int64_t cols, T* out, std::int64_t ld) const;
  /// All n points, row-major n×d (rank-independent; for callers that need them).
  const std::vector<double>& points() const noexcept { return all_; }

 private:
  std::int64_t n_ = 0, d_ = 0;
  double h_ = 1.0;
  trncore::mpi::Descriptor desc_{};
  std::vector<double> all_;  // n×d row-major, in double (exact copies of T values)
};

///@{
/// Distributed randomized SVD of rank k (Halko, Martinsson & Tropp, SIAM Review 53(2), 2011, Alg. 4.4 + 5.1)
/// of the m×n A, row-distributed over a P×1 grid, or of a Gaussian kernel operator (n×n, symmetric).
/// Y = A·Ω (l = min(k + p, min(m, n)) columns, Ω replicated), Q = TSQR(Y); q power iterations Q ←
/// TSQR(A·orth(Aᵀ·Q)) (symmetric A: Q ← TSQR(A·TSQR(A·Q))), all in range_precision; then
/// refinement_iterations of the same step in T; Bᵀ = Aᵀ·Q (n×l, replicated), its SVD on every rank,
/// U = Q·Z, V = W (symmetric: A·Q = Q₂·R, R = U_R·Σ·V_Rᵀ, U = Q·V_R, V = Q₂·U_R). TSQR = flat Householder
/// TSQR over the work blocks (orthonormal to O(u) whatever Y's conditioning or rank).
/// Accuracy: in exact arithmetic HMT Cor. 10.10 (Gaussian Ω, p ≥ 2): E‖(I − QQᵀ)A‖₂ ≤ [(1 + √(k/(p−1)))·
/// σ_{k+1}^{2q'+1} + (e√(k+p)/p)·(Σ_{j>k} σ_j^{2(2q'+1)})^{1/2}]^{1/(2q'+1)} with q' = q + refinement
/// iterations, truncation adding ≤ σ_{k+1}; rounding adds O(u_T·‖A‖₂·√(n)) from the final T products (the
/// bf16 range finder only perturbs the basis, which the refinement corrects). report.residual and
/// report.error_estimate give the achieved accuracy a posteriori.
/// Communication per product: allgather of the n×l basis (symmetric) or one reduce-scatter + allgather of
/// Aᵀ·Q's ⌈m/block_rows⌉ partials (general A); a TSQR allgathers ⌈m/block_rows⌉ l×l factors.
/// @throws on every rank (collectively, before any other communication): InvalidArgument for a grid that
///         is not P×1, a bad descriptor, k < 1 or k > min(m, n), negative oversampling/power/refinement
///         iterations/probes, block_rows < 1, threads < 0, non-finite A (naming the global entry);
///         DimensionMismatch when ranks pass different k, options, or descriptors, or a symmetric A is not
///         square; trncore::mpi::CommunicationError when MPI fails.
template <class T>
RsvdResult<T> rsvd(const trncore::mpi::ProcessGrid& grid, trncore::mpi::DistMatrix<const T> a, std::int64_t k,
                   const RandomizedOptions& options = {});
template <class T>
RsvdResult<T> rsvd(const trncore::mpi::ProcessGrid& grid, const GaussianKernel<T>& a, std::int64_t k,
                   const RandomizedOptions& options = {});
///@}

///@{
/// Distributed Nyström approximation of a symmetric positive semidefinite A (n×n) of rank k (Tropp, Yurtsever,
/// Udell & Cevher 2017, Alg. 3 with the shift of Li et al.; Frangella, Tropp & Udell 2023, Alg. 2.1):
/// Ω = orth(sketch) (replicated); q times Ω ← orth(A·Ω) in range_precision, then refinement_iterations in T
/// (each orth a TSQR, the result allgathered); Y = A·Ω (T), ν = √n·eps(‖Y‖_F), Y_ν = Y + ν·Ω,
/// C = chol(Ωᵀ·Y_ν) (Gram reduced in ascending block order, Cholesky in double on every rank), E = Y_ν·C⁻¹,
/// E = Q_E·R_E (TSQR), R_E = U_R·Σ·V_Rᵀ, U = Q_E·U_R, w = max(Σ² − ν, 0), truncated to k.
/// Accuracy (Gaussian Ω, exact arithmetic, q = 0): E‖A − Â‖_* ≤ (1 + k/(l − k − 1))·Σ_{j>k} λ_j (TYUC17
/// Thm 4.1); the q + refinement products sharpen it as in rsvd. The error report is as rsvd's.
/// @throws as rsvd; DimensionMismatch for a non-square dense A. A not PSD is a result (rank 0), not a throw.
template <class T>
NystromResult<T> nystrom(const trncore::mpi::ProcessGrid& grid, trncore::mpi::DistMatrix<const T> a, std::int64_t k,
                         const RandomizedOptions& options = {});
template <class T>
NystromResult<T> nystrom(const trncore::mpi::ProcessGrid& grid, const GaussianKernel<T>& a, std::int64_t k,
                         const RandomizedOptions& options = {});
///@}

}  // namespace trnsolver::mpi
