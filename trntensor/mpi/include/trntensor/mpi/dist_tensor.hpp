#pragma once
/// @file
/// Tensors distributed over the ranks of an MPI communicator, each rank owning only its block along one
/// axis, redistribution between split axes (all-to-all), and einsum over distributed operands with a plan
/// that lists its communication steps and their bytes. The MPI counterpart of trntensor::ShardedTensor /
/// sharded_einsum (<trntensor/sharded.hpp>), where every shard lives in one process: here a shard is a rank.

#include <trntensor/plan.hpp>
#include <trntensor/tensor.hpp>

#include <trncore/mpi.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace trntensor::mpi {

using trncore::mpi::Range;

/// Rank `rank`'s share of n indices over `ranks` ranks: n / ranks, the first n % ranks ranks one more.
Range even_range(std::int64_t n, int ranks, int rank) noexcept;

/// A tensor of global shape `shape()` split along `axis()`: rank r owns the indices `ranges()[r]` of that
/// axis as a dense row-major block (`local()`, the global shape with that extent replaced by the range's
/// count); no rank holds the rest. axis() = −1 marks a replicated tensor (every rank holds the same whole
/// tensor: reduce-parallel einsum outputs, small operands). The communicator must outlive the tensor.
template <class T>
class DistTensor {
 public:
  /// Collective. `local` is this rank's block for `mine` (for axis = −1: the whole tensor).
  /// @throws on every rank (trncore::mpi::CollectiveCheck): DimensionMismatch when the global shapes or
  ///         axes differ across ranks, the ranges do not tile the axis (any order of ranks, empty ranges
  ///         allowed), or local's shape is not the block's; InvalidArgument for an axis outside [−1, rank).
  DistTensor(const trncore::mpi::Communicator& comm, Shape shape, int axis, Range mine, Tensor<T> local);

  /// Collective: the even split along `axis` (even_range), each rank evaluating f only on its own block's
  /// global indices. @throws as the constructor.
  static DistTensor from_function(const trncore::mpi::Communicator& comm, Shape shape, int axis,
                                  const std::function<T(std::span<const std::int64_t>)>& f);

  /// The communicator.
  const trncore::mpi::Communicator& comm() const noexcept { return *comm_; }
  /// The split axis, −1 when replicated.
  int axis() const noexcept { return axis_; }
  /// The global shape.
  const Shape& shape() const noexcept { return shape_; }
  /// Every rank's range along the split axis, in rank order (empty for a replicated tensor).
  const std::vector<Range>& ranges() const noexcept { return ranges_; }
  /// This rank's range (the whole axis 0 for a replicated tensor of rank ≥ 1).
  Range range() const;
  /// This rank's block.
  const Tensor<T>& local() const noexcept { return local_; }
  /// Collective: the whole tensor on every rank (allgather; for tests and small tensors only).
  Tensor<T> gather_all() const;

 private:
  const trncore::mpi::Communicator* comm_;
  Shape shape_;
  int axis_;
  std::vector<Range> ranges_;
  Tensor<T> local_;
};

/// One communication step of a distributed einsum.
struct CommStep {
  std::string what;        ///< e.g. "redistribute operand 1 from label j to label i (all-to-all)"
  std::int64_t bytes = 0;  ///< bytes that cross between ranks, summed over all ranks (exact, from the ranges)
};

/// How a distributed einsum runs: the split label, output- or reduce-parallel, the communication steps with
/// their bytes, and this rank's local contraction plan.
struct DistEinsumPlan {
  std::string subscripts;            ///< the expression
  std::string split_label;           ///< the label the work is split over ("" when nothing is split)
  bool output_parallel = true;       ///< the split label is in the output (else the partials are summed)
  int ranks = 1;                     ///< communicator size
  std::vector<CommStep> steps;       ///< communication in execution order
  std::string local_plan;            ///< ContractionPlan::to_string of this rank's local einsum
  std::int64_t total_bytes() const;  ///< Σ steps' bytes
  std::string to_string() const;     ///< readable: label, mode, steps with bytes, local plan
};

/// Collective: x split along `axis` with the even ranges (or replicated for axis = −1), by one all-to-all
/// (split → split), local slicing (replicated → split) or an allgather (split → replicated). Values are
/// copied exactly.
/// @param x     the distributed tensor (every rank passes its block)
/// @param axis  the axis to split along, or −1 for replicated
/// @param bytes when non-null, receives the bytes that crossed between ranks (all ranks).
/// @throws trncore::InvalidArgument for an axis outside [−1, rank) (the same on every rank: it is checked
///         against the global rank, which agrees).
template <class T>
DistTensor<T> redistribute(const DistTensor<T>& x, int axis, std::int64_t* bytes = nullptr);

/// einsum over distributed operands (numpy semantics, trntensor::einsum on each rank's local operands).
/// The split label is that of the first split operand. Other operands: split along it with the same ranges
/// — used as they are; split otherwise — redistributed (all-to-all) to the split label when they carry it,
/// else gathered to every rank (allgather); replicated — sliced locally to the rank's range of the label.
/// If the split label is in the output (output-parallel) each rank computes its block of the output (split
/// along the label's output axis, same ranges); otherwise (reduce-parallel) each computes a partial and the
/// partials are added in ascending order of the ranges' begin (trncore::mpi::ordered_sum), the output
/// replicated. Every step and its bytes are in `plan` (when non-null), identical on every rank except
/// local_plan. Accuracy: output-parallel elements are computed by the local einsum over every contracted
/// index (einsum's bound; bitwise the one-process einsum where the local plan has the same pairwise order,
/// as sharded_einsum); reduce-parallel adds ≤ P partials (einsum's bound over each range plus γ_{P−1}),
/// bitwise the partial einsums over the ranges added in range order. The local einsums' bits, like einsum's,
/// follow OpenBLAS's thread count (run one thread per rank for results independent of the CPU binding).
/// @throws on every rank: trncore::InvalidArgument for no operands, null operands, operands on different
///         communicators (sizes) or invalid options; errors of parse_subscripts (shapes) and einsum, through
///         trncore::mpi::CollectiveCheck.
template <class T>
DistTensor<T> einsum(std::string_view subscripts, std::span<const DistTensor<T>* const> operands,
                     const PlanOptions& options = {}, DistEinsumPlan* plan = nullptr);

}  // namespace trntensor::mpi
