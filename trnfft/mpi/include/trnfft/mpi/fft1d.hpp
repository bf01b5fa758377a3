#pragma once
/// @file
/// Distributed 1-D c2c FFT of N = n0·n1 points for N beyond one rank's memory (docs/distributed.md,
/// "trnfft_mpi"): the six-step (transpose-based four-step) algorithm — view x as an n0 × n1 row-major matrix
/// (x[n1·j0 + j1]), all-to-all transpose, n1 DFTs of length n0 along the columns, multiply by the twiddles
/// ω_N^{j1·k0}, all-to-all transpose, n0 DFTs of length n1 along the rows, all-to-all transpose into natural
/// order — three all-to-alls, local trnfft transforms (host).
///
/// Layout: the input is split in contiguous blocks of whole rows of n1 points, FFTW-MPI's block distribution of
/// n0 rows (block_of(n0, P, rank)): rank r holds x[n1·input_start, n1·(input_start + input_rows)); the output
/// in contiguous blocks of n0 points, the block distribution of n1: X[n0·output_start, n0·(output_start +
/// output_rows)). The two differ (as FFTW-MPI's local_ni/local_no do); both are contiguous, in natural order.
/// Every rank holds O(N/P) points: no rank ever holds the whole array (with the default factorisation, for
/// N with a divisor near √N; a prime N has n0 = 1 and runs on rank 0 alone — correct, not distributed).
///
/// Accuracy: a composition of two FFT stages and one twiddle multiplication: ‖ŷ − y‖₂ ≤ (c·u·log2 N +
/// 3u)·‖y‖₂ to first order (c as plan.hpp). The twiddles are ω_N^m with m = j1·k0 mod N reduced exactly in
/// integers to |m| ≤ N/2, evaluated in double (for float: rounded once). Deterministic; results depend on the
/// rank count only through the local FFTW plans' batch counts (as the slab plan).
/// Errors: one trncore::mpi::CollectiveCheck per call, so bad input on one rank throws the same error on all.

#include <trnfft/mpi/slab.hpp>

namespace trnfft::mpi {

namespace detail {
template <Real T>
struct Fft1dState;
}

/// This rank's part of a distributed 1-D transform.
struct Fft1dLayout {
  std::int64_t n = 0;             ///< transform length N
  std::int64_t n0 = 0;            ///< rows of the input matrix view (the length-n0 DFTs)
  std::int64_t n1 = 0;            ///< columns (the length-n1 DFTs); n0·n1 = N
  std::int64_t input_start = 0;   ///< first input row (x[n1·input_start] is this rank's first point)
  std::int64_t input_rows = 0;    ///< input rows owned; input_size = n1·input_rows points
  std::int64_t output_start = 0;  ///< first output row (X[n0·output_start] first)
  std::int64_t output_rows = 0;   ///< output rows owned; output_size = n0·output_rows points
  std::int64_t input_size = 0;    ///< points of this rank's input
  std::int64_t output_size = 0;   ///< points of this rank's output
};

/// A planned distributed 1-D c2c transform (move-only; execute is collective; not concurrently with itself).
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
  /// This rank's layout. @throws InvalidArgument on an empty plan.
  const Fft1dLayout& layout() const;
  /// Transforms this rank's input block (layout().input_size points) into its output block (output_size
  /// points). Collective; `in` is not modified; in and out must not overlap and be 16-byte aligned.
  /// @throws (on every rank) InvalidArgument for an empty plan, overlapping or misaligned arrays;
  ///         DimensionMismatch for a span of another size; CommunicationError.
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const;

 private:
  friend struct detail::Fft1dState<T>;
  explicit Fft1dPlan(std::unique_ptr<detail::Fft1dState<T>> state) noexcept;
  std::unique_ptr<detail::Fft1dState<T>> state_;
};

/// Plans a distributed 1-D c2c transform of length n over `comm`. Collective.
/// @param comm       the processes of the transform (every one calls)
/// @param n          the transform length (≥ 1)
/// @param direction  forward or backward
/// @param options    the local transforms' plan options (host backend)
/// @param n0  the row count of the matrix view, a divisor of n; 0 picks the largest divisor ≤ √n
/// @throws (on every rank) InvalidArgument for n < 1, n0 not dividing n, invalid options; DimensionMismatch
///         when ranks pass different n, n0 or direction; NotSupported for backend sim or an exchange above
///         2^31 − 1 points per rank.
template <Real T>
Fft1dPlan<T> plan_dft_1d(const trncore::mpi::Communicator& comm, std::int64_t n, Direction direction,
                         const PlanOptions& options = {}, std::int64_t n0 = 0);

}  // namespace trnfft::mpi
