#pragma once
/// @file
/// Tensors split along one axis over N shards, and einsum over them: output-parallel when the split label is
/// kept in the output (each shard computes its block), reduce-parallel when it is summed (each shard computes
/// a partial result, then the partials are added in shard order). Where the shards run and how partials
/// travel is a ShardTransport, so the threads used here can be replaced by a distributed engine (MPI ranks:
/// trntensor::mpi::MpiTransport in trntensor_mpi) without touching the contraction code.

#include <trntensor/einsum.hpp>
#include <trntensor/tensor.hpp>

#include <trncore/options.hpp>

#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace trntensor {

/// Where shard work runs and how partial results are combined. Implementations must run every shard's task
/// exactly once and must add partials in ascending shard order (so results do not depend on the transport).
class ShardTransport {
 public:
  virtual ~ShardTransport() = default;
  /// Runs work(s) for every shard s in [0, shards), possibly concurrently; rethrows a task's exception.
  virtual void for_each_shard(std::int64_t shards, const std::function<void(std::int64_t)>& work) = 0;
  ///@{
  /// out[i] = Σ_s partials[s][i], summed in ascending s for every i (one fixed order). A transport that ran
  /// shard s in another process (trntensor::mpi::MpiTransport) reads partials[s] only where s ran.
  virtual void reduce_sum(std::span<const std::span<const double>> partials, std::span<double> out) = 0;
  virtual void reduce_sum(std::span<const std::span<const float>> partials, std::span<float> out) = 0;
  ///@}
  ///@{
  /// Makes every shard's result available to the caller: results[s] is shard s's output block, sized alike
  /// wherever the caller runs, and filled by for_each_shard where shard s ran; afterwards it holds shard s's
  /// values everywhere. The in-process transport ran every shard here: nothing to do (the default).
  virtual void share_results(std::span<const std::span<double>> results) { (void)results; }
  virtual void share_results(std::span<const std::span<float>> results) { (void)results; }
  ///@}
};

/// The in-process transport: shards on up to `threads` threads of the suite's pool (0 = the process default:
/// TRNSCI_NUM_THREADS or the CPUs this process may use), partials added
/// on the calling thread's workers element-block by element-block, each element in shard order.
/// @throws trncore::InvalidArgument for threads < 0.
class ThreadTransport final : public ShardTransport {
 public:
  /// A transport on up to `threads` threads (0 = the process default, as trncore::Options::threads).
  /// @throws trncore::InvalidArgument for threads < 0.
  explicit ThreadTransport(int threads = 0);
  void for_each_shard(std::int64_t shards, const std::function<void(std::int64_t)>& work) override;
  void reduce_sum(std::span<const std::span<const double>> partials, std::span<double> out) override;
  void reduce_sum(std::span<const std::span<const float>> partials, std::span<float> out) override;

 private:
  int threads_;
};

/// A tensor split along `axis` into `shards` contiguous blocks whose extents differ by at most one (the first
/// extent % shards blocks are one longer). Each shard owns a dense copy of its block.
template <class T>
class ShardedTensor {
 public:
  /// @throws trncore::InvalidArgument for an axis outside [0, rank) or shards < 1.
  ShardedTensor(TensorView<const T> full, int axis, int shards);

  /// The axis the tensor is split along.
  int axis() const noexcept { return axis_; }
  /// The number of shards (blocks).
  int shards() const noexcept { return static_cast<int>(blocks_.size()); }
  /// The global shape.
  const Shape& shape() const noexcept { return shape_; }
  /// Shard s's block and where it starts along the axis.
  const Tensor<T>& shard(int s) const { return blocks_.at(static_cast<std::size_t>(s)); }
  /// Where shard s's block starts along the axis (std::out_of_range for s outside [0, shards())).
  std::int64_t offset(int s) const { return offsets_.at(static_cast<std::size_t>(s)); }
  /// The whole tensor, reassembled.
  Tensor<T> gather() const;

 private:
  int axis_;
  Shape shape_;
  std::vector<Tensor<T>> blocks_;
  std::vector<std::int64_t> offsets_;
};

/// einsum with operand `position` given as a ShardedTensor (the others whole; every other axis carrying the
/// split label is sliced to each shard's range). If the split label is in the output, each shard computes
/// its block of the output (output-parallel); otherwise each computes a full-size partial and the transport
/// adds them in shard order (reduce-parallel). Each shard's einsum runs with `options` (its planner fields
/// included), sequentially inside the shard (threads = 1; the transport decides the parallelism).
///
/// Accuracy: output-parallel gives each output element by the same steps as the unsharded einsum when each
/// shard's plan has the same pairwise order (bitwise equal on the host when the split label is a batch or
/// GEMM row label; tested); reduce-parallel adds S partials, each with its einsum bound over K/S terms, so
/// the bound is that of K/S plus γ_{S−1}.
/// @throws trncore::InvalidArgument for a position outside the operands or options invalid; errors of einsum
///         (parsing, shapes — the sharded operand is checked with its global shape; TargetNotMet when a
///         shard's einsum is not certified or misses the target).
template <class T>
Tensor<T> sharded_einsum(std::string_view subscripts, const ShardedTensor<T>& sharded, int position,
                         std::span<const TensorView<const T>> others, ShardTransport& transport,
                         const PlanOptions& options = {});

}  // namespace trntensor
