#pragma once
/// @file
/// Distributed 1-D FFTs for N beyond one rank's memory (docs/distributed.md, "trnfft_mpi"): c2c, and r2c/c2r of
/// even length, with host (FFTW) or sim (the modelled TensorEngine) local transforms.
///
/// **c2c** (plan_dft_1d), the six-step (transpose-based four-step) algorithm: view x as an n0 × n1 row-major
/// matrix (x[n1·j0 + j1]), all-to-all transpose, n1 DFTs of length n0 along the columns, multiply by the
/// twiddles ω_N^{j1·k0}, all-to-all transpose, n0 DFTs of length n1 along the rows, all-to-all transpose into
/// natural order — three all-to-alls, local trnfft transforms.
///
/// **r2c** (plan_dft_r2c_1d, N even, M = N/2 = n0·n1): the N reals are read as M complex points
/// z[j] = x[2j] + i·x[2j+1] (no data movement: a rank's block of reals is a block of z), the distributed M-point
/// c2c above gives Z, and the split step X[k] = ½(Z[k] + conj Z[M−k]) − ½i·ω_N^k·(Z[k] − conj Z[M−k]),
/// k = 0…M (Z[M] ≡ Z[0]), gives the half spectrum. Z[M−k] lives on a "mirror" rank: one MPI_Alltoallv of the
/// mirrored points, planned once (counts and index lists) at plan time. **c2r** (plan_dft_c2r_1d) is the inverse:
/// the mirror exchange, Z'[k] = (X[k] + conj X[M−k]) + i·ω_N^{−k}·(X[k] − conj X[M−k]) for k = 0…M−1 (the
/// imaginary parts of X[0] and X[M] are ignored), the backward M-point c2c (factorised n1 × n0, so that it maps
/// the spectrum's blocks onto the reals' blocks), unpacking z into x. Odd N is refused (NotSupported): the
/// packing needs N even.
///
/// Layouts (every block contiguous, in natural order; no rank ever holds the whole array — with the default
/// factorisation, for lengths with a divisor near √(complex length); a prime complex length has n0 = 1 and
/// its input on rank 0 alone: correct, not distributed):
/// - c2c input: x[n1·input_start, n1·(input_start + input_rows)) with {input_rows, input_start} =
///   block_of(n0, P, rank) (FFTW-MPI's block distribution of n0 rows); output: X[n0·output_start,
///   n0·(output_start + output_rows)) with block_of(n1, P, rank). The two differ (as FFTW-MPI's local_ni/local_no).
/// - r2c input: the reals x[2·n1·input_start, 2·n1·(input_start + input_rows)) (the c2c input blocks of z);
///   output: the half spectrum X[n0·output_start, n0·(output_start + output_rows)), and the rank holding
///   X[M−1] (the last rank with a non-empty block) also holds the Nyquist point X[M] at its end (Fft1dLayout::nyquist).
/// - c2r: input in r2c's output layout, output in r2c's input layout (for the same n and n0), so
///   c2r(r2c(x)) = N·x block by block. Fft1dLayout::input_offset/output_offset/input_size/output_size give every
///   rank's element range directly.
///
/// Conventions as trnfft's (plan.hpp): unnormalised, forward = exp(−2πi·jk/N), r2c keeps N/2 + 1 outputs, c2r
/// assumes Hermitian input (it transforms the Hermitian part, as FFTW) and never modifies its input.
///
/// Accuracy (normwise, ‖ŷ − y‖₂ ≤ δ·‖y‖₂; r2c relative to the half spectrum; u the unit roundoff of T):
/// - twiddle multiply: the twiddles are ω_N^m with m reduced exactly in integers to |m| ≤ N/2, evaluated in long
///   double and rounded once to T (|ŵ − w| ≤ u_w = u + 2^−61), then one complex product, |fl(a·ŵ) − a·ŵ| ≤ √5·u·|a·ŵ|
///   (Brent, Percival, Zimmermann, Math. Comp. 76 (2007) 1469–1481, for the product without FMA; trnsci builds
///   with -ffp-contract=off), so τ = u_w + √5·u·(1 + u_w) ≈ 3.24u per point, on a unit-modulus factor.
/// - c2c: 1 + δ = (1 + δ_columns)(1 + τ)(1 + δ_rows) (docs/trnfft.md, "The bound and how it composes", items 3–4).
/// - r2c: δ = 2√2·(δ_c + c_p·(1 + δ_c)), c2r: δ = 2√2·c_p + δ_c·(1 + 2√2·c_p), with δ_c the M-point c2c's bound
///   and c_p = 3u + τ the split step's rounding per output relative to |Z[k]| + |Z[M−k]| (item 7; derivation
///   in src/fft1d.cpp).
/// - host plans: FFTW's stages are within c·u·log2 of their lengths (plan.hpp), no certified bound; sim plans
///   certify δ from every rank's local certified bounds (the execute overloads with a report).
/// Reproducibility: a plan is deterministic (repeated runs are bitwise equal; a sim report is the same on every
/// rank). Across rank counts (the factorisation does not depend on P): sim modes fp32, bf16 and compensated give the
/// same bits on any number of ranks (tested 1–4; each batch member is computed independently of the batch count,
/// the twiddles and the split step are pointwise, the data movement exact); host and sim ozaki agree within the
/// bound — host was bitwise equal on 1–4 ranks in the tests but it is not guaranteed (FFTW's codelets may depend on
/// the batch count), ozaki differs (its GEMM splitting depends on the batch, and its data-dependent local bounds
/// make the reported bound differ slightly with P).
///
/// Errors: every plan_* and execute call validates with one trncore::mpi::CollectiveCheck before any other
/// communication, so bad input on one rank throws the same trncore::Error on every rank (never a hang).

#include <trnfft/mpi/slab.hpp>

namespace trnfft::mpi {

namespace detail {
template <Real T>
struct Fft1dState;
}

/// This rank's part of a distributed 1-D transform. For r2c/c2r, n0, n1 and the row fields refer to the
/// M = N/2-point complex view; the element fields count reals on the real side, complex points on the spectrum.
struct Fft1dLayout {
  std::int64_t n = 0;   ///< transform length N (real length for r2c/c2r)
  std::int64_t n0 = 0;  ///< rows of the complex input view (the length-n0 DFTs)
  std::int64_t n1 = 0;  ///< columns (the length-n1 DFTs); n0·n1 = N (c2c) or N/2 (r2c, c2r)
  std::int64_t input_start =
      0;  ///< first row of this rank's input block (c2c, r2c: of n0 rows of n1; c2r: of n1 rows of n0)
  std::int64_t input_rows = 0;    ///< rows of the input block
  std::int64_t output_start = 0;  ///< first row of the output block (c2c, r2c: of n1 rows of n0; c2r: of n0 rows of n1)
  std::int64_t output_rows = 0;   ///< rows of the output block
  std::int64_t input_size = 0;    ///< elements of this rank's input (T for r2c, std::complex<T> otherwise)
  std::int64_t output_size = 0;   ///< elements of this rank's output (T for c2r, std::complex<T> otherwise)
  std::int64_t input_offset = 0;  ///< global index of this rank's first input element
  std::int64_t output_offset = 0;  ///< global index of this rank's first output element
  /// r2c: this rank's output, c2r: its input, ends with the Nyquist point X[N/2] (exactly one rank: the last
  /// with a non-empty spectrum block). Always false for c2c.
  bool nyquist = false;
};

/// A planned distributed 1-D transform (c2c, r2c or c2r): local trnfft plans, twiddles, work buffers, the
/// all-to-all counts and mirror-exchange lists, and a duplicate of the communicator. Move-only; a
/// default-constructed or moved-from plan is empty (its calls throw InvalidArgument on the calling rank).
/// execute is collective over the plan's communicator; one plan must not run concurrently with itself.
template <Real T>
class Fft1dPlan {
 public:
  Fft1dPlan() noexcept;
  /// Takes over `other`'s plan (other becomes empty).
  Fft1dPlan(Fft1dPlan&& other) noexcept;
  /// Releases this plan, then takes over `other`'s.
  Fft1dPlan& operator=(Fft1dPlan&& other) noexcept;
  Fft1dPlan(const Fft1dPlan&) = delete;
  Fft1dPlan& operator=(const Fft1dPlan&) = delete;
  ~Fft1dPlan();
  /// Whether the plan holds a transform.
  explicit operator bool() const noexcept { return state_ != nullptr; }
  /// c2c, r2c or c2r. @throws InvalidArgument on an empty plan (as all accessors).
  Kind kind() const;
  /// forward for r2c, backward for c2r, as planned for c2c.
  Direction direction() const;
  /// This rank's layout.
  const Fft1dLayout& layout() const;

  /// c2c: transforms this rank's input block (layout().input_size points) into its output block (output_size
  /// points). Collective; `in` is not modified; in and out must not overlap and be 16-byte aligned (std::vector,
  /// fftw_malloc) unless empty.
  /// @throws (on every rank) InvalidArgument for an empty plan (calling rank only), a plan of another kind,
  ///         overlapping or misaligned arrays; DimensionMismatch for a span of another size; TargetNotMet for a
  ///         sim plan whose composed report is not met; CommunicationError.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const;
  /// r2c: this rank's block of reals (input_size) into its block of the half spectrum (output_size, incl. X[N/2]
  /// on the Nyquist rank). Errors as the c2c form.
  void execute(std::span<const T> in, std::span<std::complex<T>> out) const;
  /// c2r: this rank's block of the (Hermitian) half spectrum into its block of reals; the input is not
  /// modified. Errors as the c2c form.
  void execute(std::span<const std::complex<T>> in, std::span<T> out) const;
  ///@{
  /// The forms above on a sim plan, with the run's composed AccuracyReport: the normwise bound of the whole
  /// distributed transform (file comment), each local stage's bound being its maximum over the ranks, composed
  /// with the twiddle and split-step roundings; certified only when every rank's local runs are (else
  /// uncertified_reason names the lowest such rank and its reason); met against options.target_forward_error;
  /// the same report on every rank, trajectory included (rank 0's local trajectories). Never throws
  /// TargetNotMet.
  /// @throws (on every rank) NotSupported for a host plan (FFTW certifies no bound), else as the forms above.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
               trncore::AccuracyReport& report) const;
  void execute(std::span<const T> in, std::span<std::complex<T>> out, trncore::AccuracyReport& report) const;
  void execute(std::span<const std::complex<T>> in, std::span<T> out, trncore::AccuracyReport& report) const;
  ///@}

 private:
  friend struct detail::Fft1dState<T>;
  explicit Fft1dPlan(std::unique_ptr<detail::Fft1dState<T>> state) noexcept;
  std::unique_ptr<detail::Fft1dState<T>> state_;
};

/// Plans a distributed 1-D c2c transform of length n over `comm`. Collective.
/// @param comm       the processes of the transform (every one calls; duplicated into the plan)
/// @param n          the transform length (≥ 1)
/// @param direction  forward or backward
/// @param options    the local transforms' plan options: backend host (FFTW; threads, rigor) or sim (math_mode;
///                   a target_forward_error t is split among the stages so that the composed bound meets t)
/// @param n0  the row count of the matrix view, a divisor of n; 0 picks the largest divisor ≤ √n
/// @throws (on every rank) InvalidArgument for n < 1, n0 not dividing n, an invalid direction or options;
///         TargetNotMet for a sim target below the twiddle (and split-step) roundings or that no mode certifies;
///         DimensionMismatch when ranks pass different n, n0, direction or options (backend, math_mode, refine,
///         target); NotSupported for an exchange above 2^31 − 1 points per rank.
template <Real T>
Fft1dPlan<T> plan_dft_1d(const trncore::mpi::Communicator& comm, std::int64_t n, Direction direction,
                         const PlanOptions& options = {}, std::int64_t n0 = 0);

/// Plans a distributed 1-D r2c transform of n reals (n even) over `comm`: M = n/2 complex points factorised
/// n0 × n1, layouts as the file comment. Collective.
/// @param comm     the processes of the transform (every one calls; duplicated into the plan)
/// @param n        the number of reals N, even, ≥ 2
/// @param options  the local transforms' plan options, as plan_dft_1d (a sim target t is met by the composed
///                 bound, the split step included)
/// @param n0  the row count of the M-point view, a divisor of n/2; 0 picks the largest divisor ≤ √(n/2)
/// @throws (on every rank) NotSupported for odd n; otherwise as plan_dft_1d (n ≥ 2; n0 must divide n/2;
///         DimensionMismatch for different n or n0 across ranks).
template <Real T>
Fft1dPlan<T> plan_dft_r2c_1d(const trncore::mpi::Communicator& comm, std::int64_t n, const PlanOptions& options = {},
                             std::int64_t n0 = 0);

/// Plans a distributed 1-D c2r transform producing n reals (n even) from the half spectrum in the layout of
/// plan_dft_r2c_1d(comm, n, ·, n0)'s output; its output is in that r2c plan's input layout. Collective.
/// Internally the backward M-point core is factorised n1 × n0 (layout().n0, n1 still report r2c's).
/// @param comm     the processes of the transform (every one calls; duplicated into the plan)
/// @param n        the number of reals N produced, even, ≥ 2
/// @param options  the local transforms' plan options, as plan_dft_r2c_1d
/// @param n0       as plan_dft_r2c_1d: the same n0 gives the matching layouts
/// @throws (on every rank) as plan_dft_r2c_1d.
template <Real T>
Fft1dPlan<T> plan_dft_c2r_1d(const trncore::mpi::Communicator& comm, std::int64_t n, const PlanOptions& options = {},
                             std::int64_t n0 = 0);

}  // namespace trnfft::mpi
