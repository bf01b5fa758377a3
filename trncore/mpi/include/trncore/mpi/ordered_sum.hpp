#pragma once
/// @file
/// The suite's reproducible reduction (docs/distributed.md, "Reproducibility"): partial results are indexed
/// by *global block*, not by rank, and summed in ascending block order on every rank — so the sum is the
/// same bits for any number of ranks and any assignment of blocks to ranks, and equals a serial loop over
/// the blocks.

#include <trncore/mpi/communicator.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace trncore::mpi {

/// Σ_b partial_b over every rank's blocks, in ascending global block index, left to right:
/// s = p_{b0}; s += p_{b1}; … (elementwise), returned on every rank. Collective.
///
/// @param comm      every rank of it calls
/// @param blocks    the global indices of this rank's blocks (any order, disjoint across ranks; may be empty)
/// @param partials  blocks.size()·len values: block blocks[0]'s vector, then blocks[1]'s, …
/// @param len       the length of each block's vector (the same on every rank)
/// @returns the sum, len values (zeros when no rank has a block)
/// @throws trncore::InvalidArgument on every rank when a block index is negative or claimed twice, or
/// partials.size() ≠ blocks.size()·len; DimensionMismatch when ranks pass different len.
/// Communication: an allgather of every partial (Σ blocks·len values per rank), so it suits small vectors
/// (Gram matrices, norms, k×k products), not matrices the size of the problem.
template <class T>
std::vector<T> ordered_sum(const Communicator& comm, std::span<const std::int64_t> blocks, std::span<const T> partials,
                           std::int64_t len);

/// @cond
// Instantiated in ordered_sum.cpp for float and double.
extern template std::vector<float> ordered_sum(const Communicator&, std::span<const std::int64_t>,
                                               std::span<const float>, std::int64_t);
extern template std::vector<double> ordered_sum(const Communicator&, std::span<const std::int64_t>,
                                                std::span<const double>, std::int64_t);
/// @endcond

}  // namespace trncore::mpi
