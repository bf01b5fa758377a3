#pragma once
/// @file
/// Distributed multi-dimensional FFTs over MPI, slab decomposition (docs/distributed.md, "trnfft_mpi"):
/// a d-dimensional (d ≥ 2) c2c, r2c or c2r transform whose first dimension is split into contiguous blocks
/// of rows over the ranks of a communicator, computed as local trnfft transforms of the remaining dimensions,
/// an all-to-all transpose, and local transforms of the first dimension.
///
/// Layouts (as FFTW-MPI's, fftw_mpi_local_size_many with FFTW_MPI_DEFAULT_BLOCK): with P ranks and
/// b0 = ceil(n0 / P), rank r owns rows [r·b0, min(n0, (r+1)·b0)) of the first dimension — local_n0 rows
/// starting at local_0_start, row-major, the rest of the array contiguous (the "normal" layout). Ranks past
/// the last block own nothing (local_n0 = 0), e.g. n0 < P. The "transposed" layout (`FFTW_MPI_TRANSPOSED_OUT` /
/// `FFTW_MPI_TRANSPOSED_IN`) splits the second dimension of the complex array instead, b1 = ceil(c1 / P) (c1 = n1, or n1/2 + 1 for
/// a 2-D r2c/c2r), and stores it first: local_n1 × n0 × (the rest), starting at row local_1_start of dimension
/// 1. The transposed output saves one all-to-all; a transposed-output forward followed by a transposed-input
/// backward transform is the usual pairing. Differences from FFTW-MPI: the real side of r2c/c2r is
/// unpadded (local_n0 × n1 × … × `n_{d−1}` reals, as trnfft::plan_dft_r2c out of place), transforms are always
/// out of place, the input is never modified (c2r included), and planning never touches the caller's arrays.
///
/// Conventions as trnfft's (plan.hpp): unnormalised transforms, forward = exp(−2πi·jk/n), r2c keeps `n_{d−1}`/2 + 1
/// outputs along the last dimension, c2r assumes Hermitian input. Local transforms are trnfft plans made with
/// the PlanOptions given: backend host (FFTW; threads, rigor) or sim (the modelled TensorEngine, math_mode;
/// with target_forward_error t each stage gets a share of t so that the composed bound meets t; the execute
/// overloads with a report give the composed certified bound).
///
/// Accuracy: each output is the composition of two exact-arithmetic-equivalent stages (dimensions 1…d−1,
/// then dimension 0; for c2r dimension 0 first), so the normwise error bound is that of a serial row-column
/// FFT, ‖ŷ − y‖₂ ≤ c·u·log2(N)·‖y‖₂ (plan.hpp). Reproducibility: a plan is deterministic; the data movement is
/// exact, so results depend only on the local FFTW plans, whose batch counts (local_n0, local_n1) depend on the
/// rank count — results agree across rank counts within the bound (tested), and bitwise whenever FFTW picks the
/// same codelets for the different batch counts (not guaranteed, not claimed; on 2 ranks the normal-layout c2c
/// and r2c outputs were bitwise FFTW-MPI's at 32³–256³, trnfft_mpi_bench_slab's max_rel_diff).
///
/// Errors: every plan_* and execute call validates with one trncore::mpi::CollectiveCheck before any other
/// communication, so bad input on one rank raises the same trncore::Error on every rank (never a hang).

#include <trnfft/plan.hpp>
#include <trnfft/types.hpp>
#include <trncore/mpi.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace trnfft::mpi {

/// FFTW-MPI's default block distribution of `n` items over `ranks`: blocks of ceil(n / ranks), the last
/// non-empty one shorter, trailing ranks empty. Returns {count, start} of `rank`'s block.
/// @throws trncore::InvalidArgument for n < 0, ranks < 1 or rank outside [0, ranks).
struct Block {
  std::int64_t count = 0;  ///< items this rank owns
  std::int64_t start = 0;  ///< global index of its first item
};
/// See Block.
Block block_of(std::int64_t n, int ranks, int rank);

/// Layout options of a slab plan.
struct SlabOptions {
  /// Input in the transposed layout (local_n1 × n0 × …; FFTW_MPI_TRANSPOSED_IN). Not for r2c.
  bool transposed_in = false;
  /// Output in the transposed layout (FFTW_MPI_TRANSPOSED_OUT). Not for c2r (its output is real).
  bool transposed_out = false;
};

/// Where a slab plan's data lives on this rank (what FFTW-MPI's local_size functions return).
struct SlabLayout {
  std::vector<std::int64_t> dims;  ///< logical transform dimensions n0 … `n_{d−1}` (real lengths for r2c/c2r)
  std::vector<std::int64_t> complex_dims;  ///< the complex array's dimensions (last halved for r2c/c2r)
  std::int64_t local_n0 = 0;               ///< rows of dimension 0 owned in the normal layout
  std::int64_t local_0_start = 0;          ///< first of them
  std::int64_t local_n1 = 0;               ///< rows of (complex) dimension 1 owned in the transposed layout
  std::int64_t local_1_start = 0;          ///< first of them
  std::int64_t input_size = 0;             ///< elements this rank's input holds (T for r2c, std::complex<T> otherwise)
  std::int64_t output_size = 0;            ///< elements this rank's output holds (T for c2r, std::complex<T> otherwise)
  bool transposed_in = false;              ///< input in the transposed layout
  bool transposed_out = false;             ///< output in the transposed layout
};

namespace detail {
template <Real T>
struct SlabState;
}

/// A distributed slab-decomposed transform, planned once (local trnfft plans, work buffers, all-to-all counts
/// and a duplicate of the communicator) and executed many times on any arrays of its layout. Move-only. A
/// default-constructed or moved-from plan is empty (execute throws InvalidArgument on the calling ranks).
/// execute is collective over the plan's communicator; one plan must not run concurrently with itself.
template <Real T>
class SlabPlan {
 public:
  SlabPlan() noexcept;
  /// Takes over `other`'s plan (other becomes empty).
  SlabPlan(SlabPlan&& other) noexcept;
  /// Releases this plan, then takes over `other`'s.
  SlabPlan& operator=(SlabPlan&& other) noexcept;
  SlabPlan(const SlabPlan&) = delete;
  SlabPlan& operator=(const SlabPlan&) = delete;
  ~SlabPlan();

  /// Whether the plan holds a transform.
  explicit operator bool() const noexcept { return state_ != nullptr; }
  /// c2c, r2c or c2r. @throws InvalidArgument on an empty plan (as all accessors).
  Kind kind() const;
  /// forward for r2c, backward for c2r, as created for c2c.
  Direction direction() const;
  /// This rank's layout (local sizes and starts, input and output element counts).
  const SlabLayout& layout() const;
  /// One line: kind, direction, dims, ranks, this rank's local sizes, the layouts.
  std::string description() const;

  /// c2c: transforms this rank's part `in` (layout().input_size elements) into `out` (output_size elements).
  /// Collective. `in` is not modified; in and out must not overlap and must be 16-byte aligned (std::vector,
  /// fftw_malloc) unless empty. @throws (on every rank) InvalidArgument for an empty plan, a plan of another
  /// kind, misaligned or overlapping arrays; DimensionMismatch for a span of another size; CommunicationError.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const;
  /// r2c: real input, unpadded (local_n0 × n1 × … × `n_{d−1}`), complex output. Errors as the c2c form.
  void execute(std::span<const T> in, std::span<std::complex<T>> out) const;
  /// c2r: complex (Hermitian) input, real unpadded output; the input is not modified. Errors as the c2c form.
  void execute(std::span<const std::complex<T>> in, std::span<T> out) const;
  ///@{
  /// The forms above on a sim plan, with the run's composed AccuracyReport: the normwise relative bound
  /// ‖ŷ − y‖₂ ≤ bound·‖y‖₂ of the whole distributed transform, composed from every rank's local certified
  /// bounds (each stage's maximum over ranks; c2c and r2c 1 + δ = (1 + δ_rest)(1 + δ_0), c2r
  /// δ = √2·δ_0 + δ_rest(1 + √2·δ_0), docs/trnfft.md "The bound and how it composes"), certified only when
  /// every rank's local runs are (else uncertified_reason names the lowest such rank and its reason), met
  /// against options.target_forward_error; the same report on every rank, trajectory included (rank 0's
  /// local trajectories, which every rank receives); no engine cost. Never throws TargetNotMet. The forms
  /// without a report on a sim plan throw TargetNotMet on every rank when that report's met is false.
  /// @throws (on every rank) NotSupported for a host plan, else as the forms without a report.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
               trncore::AccuracyReport& report) const;
  void execute(std::span<const T> in, std::span<std::complex<T>> out, trncore::AccuracyReport& report) const;
  void execute(std::span<const std::complex<T>> in, std::span<T> out, trncore::AccuracyReport& report) const;
  ///@}

 private:
  friend struct detail::SlabState<T>;
  explicit SlabPlan(std::unique_ptr<detail::SlabState<T>> state) noexcept;
  std::unique_ptr<detail::SlabState<T>> state_;
};

/// A slab plan of a c2c transform of shape `dims` (d ≥ 2), distributed over `comm`. Collective.
/// @param comm     the ranks that share the array (duplicated into the plan)
/// @param dims     n0 … `n_{d−1}`, each ≥ 1, the same on every rank
/// @param direction forward or backward, the same on every rank
/// @param options  options of the local trnfft plans (backend host; threads, rigor)
/// @param slab     the transposed input/output layouts
/// @throws (on every rank) InvalidArgument for d < 2, an n < 1, a size whose product overflows, invalid
///         options; TargetNotMet when a sim stage cannot certify its share of target_forward_error;
///         DimensionMismatch when ranks pass different dims, direction, layouts or options (backend,
///         math_mode, refine, target_forward_error); NotSupported for a per-rank exchange above 2^31 − 1
///         elements.
template <Real T>
SlabPlan<T> plan_slab_c2c(const trncore::mpi::Communicator& comm, const std::vector<std::int64_t>& dims,
                          Direction direction, const PlanOptions& options = {}, SlabOptions slab = {});

/// A slab plan of an r2c transform of real shape `dims` (d ≥ 2); the complex output's last dimension is
/// `n_{d−1}`/2 + 1. The input must be in the normal layout (transposed_in: NotSupported). Errors as plan_slab_c2c.
template <Real T>
SlabPlan<T> plan_slab_r2c(const trncore::mpi::Communicator& comm, const std::vector<std::int64_t>& dims,
                          const PlanOptions& options = {}, SlabOptions slab = {});

/// A slab plan of a c2r transform producing real shape `dims` (d ≥ 2) from its half spectrum. The output is
/// in the normal layout (transposed_out: NotSupported). Errors as plan_slab_c2c.
template <Real T>
SlabPlan<T> plan_slab_c2r(const trncore::mpi::Communicator& comm, const std::vector<std::int64_t>& dims,
                          const PlanOptions& options = {}, SlabOptions slab = {});

}  // namespace trnfft::mpi
