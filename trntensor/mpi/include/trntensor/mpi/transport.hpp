#pragma once
/// @file
/// The MPI implementation of trntensor's ShardTransport (docs/distributed.md): sharded_einsum's shards run
/// on the ranks of a communicator — shard s on rank s mod P — instead of the threads of one process, with
/// the same results bit for bit.

#include <trntensor/sharded.hpp>

#include <trncore/mpi/communicator.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

namespace trntensor::mpi {

/// A ShardTransport over MPI ranks: `for_each_shard` runs shard s on rank s mod P (each shard exactly once
/// in the job), `share_results` broadcasts every output block from the rank that computed it, and
/// `reduce_sum` adds the partials in ascending shard order with trncore::mpi::ordered_sum — the thread
/// transport's order — so `trntensor::sharded_einsum` returns the same bits on every rank as with
/// ThreadTransport, for any number of ranks (tested). The ShardedTensor and the other operands are whole
/// on every rank (this transport distributes work, not memory: for tensors too large for one process use
/// trntensor::mpi::DistTensor). Every rank must make the same sharded_einsum calls.
class MpiTransport final : public ShardTransport {
 public:
  /// Duplicates `comm` (collective).
  explicit MpiTransport(const trncore::mpi::Communicator& comm);
  /// The rank that runs shard s: s mod P.
  int owner(std::int64_t shard) const noexcept;
  /// Runs work(s) for this rank's shards, then agrees: a trncore::Error (or std::bad_alloc) thrown by any
  /// rank's task is thrown on every rank (trncore::mpi::CollectiveCheck, naming the rank). Collective.
  /// @throws DimensionMismatch on every rank when the ranks pass different shard counts.
  void for_each_shard(std::int64_t shards, const std::function<void(std::int64_t)>& work) override;
  /// out = Σ_s partials[s] in ascending s over every rank's shards (partials[s] is read on its owner only and
  /// must have out.size() elements there). Collective. @throws DimensionMismatch on every rank for a wrong size.
  void reduce_sum(std::span<const std::span<const double>> partials, std::span<double> out) override;
  /// @copydoc reduce_sum(std::span<const std::span<const double>>, std::span<double>)
  void reduce_sum(std::span<const std::span<const float>> partials, std::span<float> out) override;
  /// Broadcasts results[s] from owner(s) to every rank. Collective. @throws DimensionMismatch on every rank
  /// when the ranks' blocks differ in size.
  void share_results(std::span<const std::span<double>> results) override;
  /// @copydoc share_results(std::span<const std::span<double>>)
  void share_results(std::span<const std::span<float>> results) override;

 private:
  std::shared_ptr<trncore::mpi::Communicator> comm_;
};

}  // namespace trntensor::mpi
