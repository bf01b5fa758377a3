#pragma once
/// @file
/// Distributed 3-D FFTs over MPI, pencil decomposition (docs/distributed.md, "trnfft_mpi"): the ranks form a
/// P0 × P1 grid (rank r at p0 = r / P1, p1 = r % P1, as trncore::mpi::ProcessGrid) and the array is split
/// along two dimensions at once, so up to n0·n1 ranks take part (the slab plan stops at n0). Three local
/// trnfft transforms (dimension 2, 1, 0) with two all-to-alls inside process rows and process columns.
///
/// Layouts (every split is FFTW-MPI's block distribution, block_of):
/// - "input" layout: in_n0 × in_n1 × n2 (reals, unpadded, for r2c input and c2r output; complex for c2c),
///   with dimension 0 split over P0 (block_of(n0, P0, p0)) and dimension 1 over P1 (block_of(n1, P1, p1));
/// - "output" layout: n0 × out_n1 × out_n2, dimension 1 split over P0 (block_of(n1, P0, p0)) and the complex
///   dimension 2 (c2 = n2, or n2/2 + 1 for r2c/c2r) over P1 (block_of(c2, P1, p1)), row-major in that order.
/// A forward c2c or r2c plan maps input → output layout, a c2r plan output → input layout (real), and a
/// c2c plan made with `reverse` maps output → input (the inverse of a forward plan's data movement).
/// Ranks whose blocks are empty hold nothing. Out of place; the input is never modified.
///
/// Local transforms are trnfft plans made with the PlanOptions given (the same on every rank): backend host
/// (FFTW; threads, rigor) or sim (the modelled TensorEngine in options.math_mode: automatic, fp32, bf16 —
/// with refine bf16_refined —, compensated, ozaki). With a target_forward_error t on a sim plan, each of the
/// three stages gets the target t_s, the largest with composed(t_s, t_s, t_s) ≤ t (c2c/r2c t_s ≈ t/3, c2r
/// t_s ≈ t/(1 + 2√2)); with math_mode automatic each stage then runs the cheapest mode that certifies t_s.
///
/// Accuracy: host plans as the slab plan (slab.hpp): a row-column FFT with the normwise bound
/// c·u·log2(N)·‖y‖₂; exact data movement; deterministic; across grids equal within the bound. Sim plans
/// certify a bound per run: the execute overloads with a trncore::AccuracyReport compose every rank's local
/// certified bounds, stage k (dimension k) taking the maximum over ranks δ_k (normwise per local transform,
/// so over the whole array: the squares add over ranks): c2c and r2c 1 + δ = (1 + δ_2)(1 + δ_1)(1 + δ_0);
/// c2r, whose c2c passes (dimensions 0, 1) act on the half spectrum before the c2r pass of dimension 2,
/// δ = √2·δ_01 + δ_2·(1 + √2·δ_01) with 1 + δ_01 = (1 + δ_0)(1 + δ_1) (docs/trnfft.md, "The bound and how it
/// composes", item 8, with its "other axes" bound δ₁ the two c2c stages composed). This is the bound the
/// single-process sim plan of the whole 3-D transform reports (tested), and it holds on every grid.
///
/// Reproducibility of sim plans (tested on every grid of 1–4 ranks): with fp32, bf16, bf16_refined and
/// compensated stages every 1-D transform rounds independently of the others in its batch, so the result and
/// the report are bitwise the same on every grid of every rank count (the 1×1 grid's included); the c2c plans
/// in the forward layout and the r2c plans run the single-process sim plan's passes in its order (dimension 2,
/// 1, 0) and are bitwise its result too, while reverse c2c and c2r plans run dimension 0 before 1 and agree
/// with it within the bound. Ozaki stages choose their slice count from the data of the whole local GEMM
/// (the rank's block), so with ozaki (math_mode ozaki, automatic on double, or automatic with a tight target)
/// results and per-run bounds depend on the grid: each run is within its own certified bound, which stays
/// within the plan's a-priori bound; not bitwise across grids.
///
/// Errors: one trncore::mpi::CollectiveCheck per call (the same error on every rank).

#include <trnfft/mpi/slab.hpp>

namespace trnfft::mpi {

namespace detail {
template <Real T>
struct PencilState;
}

/// This rank's blocks of a pencil plan.
struct PencilLayout {
  std::vector<std::int64_t> dims;  ///< n0, n1, n2 (logical; real lengths for r2c/c2r)
  std::int64_t grid_rows = 1;      ///< P0
  std::int64_t grid_cols = 1;      ///< P1
  std::int64_t in_n0 = 0;          ///< input layout: rows of dimension 0 held here (dimension 0 over P0)
  std::int64_t in_0_start = 0;     ///< input layout: the first of them
  std::int64_t in_n1 = 0;          ///< input layout: rows of dimension 1 held here (dimension 1 over P1)
  std::int64_t in_1_start = 0;     ///< input layout: the first of them
  std::int64_t out_n1 = 0;         ///< output layout: rows of dimension 1 held here (over P0)
  std::int64_t out_1_start = 0;    ///< output layout: the first of them
  std::int64_t out_n2 = 0;         ///< output layout: entries of complex dimension 2 held here (over P1)
  std::int64_t out_2_start = 0;    ///< output layout: the first of them
  std::int64_t input_size = 0;     ///< elements of this rank's input (T for r2c, std::complex<T> otherwise)
  std::int64_t output_size = 0;    ///< elements of this rank's output (T for c2r)
};

/// A planned pencil-decomposed 3-D transform (move-only; execute is collective; not concurrently with itself).
template <Real T>
class PencilPlan {
 public:
  PencilPlan() noexcept;
  /// Takes over `other`'s plan (other becomes empty).
  PencilPlan(PencilPlan&& other) noexcept;
  /// Releases this plan, then takes over `other`'s.
  PencilPlan& operator=(PencilPlan&& other) noexcept;
  PencilPlan(const PencilPlan&) = delete;
  PencilPlan& operator=(const PencilPlan&) = delete;
  ~PencilPlan();
  /// Whether the plan holds a transform.
  explicit operator bool() const noexcept { return state_ != nullptr; }
  /// c2c, r2c or c2r. @throws InvalidArgument on an empty plan (as all accessors).
  Kind kind() const;
  /// This rank's layout.
  const PencilLayout& layout() const;
  /// c2c. Collective; spans of layout().input_size / output_size elements, 16-byte aligned, not overlapping.
  /// @throws (on every rank) InvalidArgument (empty plan, other kind, misaligned or overlapping arrays),
  ///         DimensionMismatch (span sizes), CommunicationError.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const;
  /// r2c (input layout, unpadded reals → output layout). Errors as the c2c form.
  void execute(std::span<const T> in, std::span<std::complex<T>> out) const;
  /// c2r (output layout → input layout, unpadded reals); the input is not modified. Errors as the c2c form.
  void execute(std::span<const std::complex<T>> in, std::span<T> out) const;
  ///@{
  /// The forms above on a sim plan, with the run's composed AccuracyReport: the normwise relative bound
  /// ‖ŷ − y‖₂ ≤ bound·‖y‖₂ of the whole distributed transform (for r2c relative to the half spectrum),
  /// composed from every rank's local certified bounds as the file comment says; certified only when every
  /// rank's local runs are (else uncertified_reason is "on rank r: <reason>" for the lowest such rank r, e.g.
  /// "NaN or Inf in the input"); met against options.target_forward_error. The same report on every rank,
  /// trajectory included (rank 0's local trajectories, which every rank receives; six small collectives after
  /// the transform, three more when uncertified). No engine cost. Never throws TargetNotMet. The forms
  /// without a report on a sim plan compose the same report and throw TargetNotMet on every rank when its
  /// met is false (e.g. NaN or Inf in some rank's input).
  /// @throws (on every rank) NotSupported for a host plan, else as the forms without a report.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
               trncore::AccuracyReport& report) const;
  void execute(std::span<const T> in, std::span<std::complex<T>> out, trncore::AccuracyReport& report) const;
  void execute(std::span<const std::complex<T>> in, std::span<T> out, trncore::AccuracyReport& report) const;
  ///@}

 private:
  friend struct detail::PencilState<T>;
  explicit PencilPlan(std::unique_ptr<detail::PencilState<T>> state) noexcept;
  std::unique_ptr<detail::PencilState<T>> state_;
};

/// A pencil c2c plan of the 3-D shape `dims` over a grid_rows × grid_cols grid of `comm` (their product must
/// be comm.size()). `reverse`: output layout → input layout instead. Collective.
/// @param comm      the ranks that share the array (duplicated into the plan, with its row and column splits)
/// @param grid_rows P0, the ranks dimension 0 (input layout) / dimension 1 (output layout) is split over
/// @param grid_cols P1, the ranks dimension 1 (input layout) / complex dimension 2 (output layout) is split over
/// @param dims      n0, n1, n2, each ≥ 1, the same on every rank
/// @param direction forward or backward, the same on every rank
/// @param options   options of the local trnfft plans, the same on every rank: backend host (threads, rigor)
///                  or sim (math_mode, refine, target_forward_error split over the three stages; pencil.hpp)
/// @param reverse   map the output layout to the input layout
/// @throws (on every rank) InvalidArgument for dims.size() ≠ 3, an n < 1, a grid whose product is not the
///         rank count, invalid options; DimensionMismatch when ranks disagree (dims, grid, direction, reverse,
///         backend, math_mode, refine, target_forward_error); TargetNotMet when a sim stage cannot certify
///         its share of target_forward_error (no mode can, or the mode given cannot; the message names the
///         split and the first such rank's local message); NotSupported for a target on backend host, a
///         math mode without a sim FFT, or an exchange above 2^31 − 1 elements.
template <Real T>
PencilPlan<T> plan_pencil_c2c(const trncore::mpi::Communicator& comm, std::int64_t grid_rows, std::int64_t grid_cols,
                              const std::vector<std::int64_t>& dims, Direction direction,
                              const PlanOptions& options = {}, bool reverse = false);
/// A pencil r2c plan (input layout reals → output layout half spectrum): parameters (but direction and
/// reverse), options (host or sim; a sim target split over the three stages) and errors as plan_pencil_c2c.
template <Real T>
PencilPlan<T> plan_pencil_r2c(const trncore::mpi::Communicator& comm, std::int64_t grid_rows, std::int64_t grid_cols,
                              const std::vector<std::int64_t>& dims, const PlanOptions& options = {});
/// A pencil c2r plan (output layout half spectrum → input layout reals): parameters (but direction and
/// reverse), options (host or sim; a sim target split over the three stages by the c2r composition) and errors
/// as plan_pencil_c2c.
template <Real T>
PencilPlan<T> plan_pencil_c2r(const trncore::mpi::Communicator& comm, std::int64_t grid_rows, std::int64_t grid_cols,
                              const std::vector<std::int64_t>& dims, const PlanOptions& options = {});

}  // namespace trnfft::mpi
