#pragma once
/// @file
/// Krylov solvers over distributed vectors (docs/distributed.md, "Krylov solvers over distributed vectors"):
/// the suite's one Krylov stack (trnsolver::cg, gmres, bicgstab, minres, chebyshev, richardson) runs on each
/// process's part of the vectors when KrylovOptions::distributed holds a reduction built here. The operator is
/// the caller's: a LinearOperator over this process's rows that does its own communication (e.g.
/// trnsparse::mpi's row-distributed CSR with its halo exchange).
///
/// Reproducibility: with the parts cut at multiples of DistributedReduction::block_size (aligned_rows()),
/// every inner product and norm is the single-process one bit for bit, so the iterates, residual histories
/// and iteration counts equal a single-process solve with the same operator, for any number of processes —
/// provided the operator's own products are (a row-wise product computes each row the same way on any
/// process). Other splits are reproducible for that split and converge to the same tolerance.

#include <trnsolver/krylov.hpp>

#include <trncore/mpi/communicator.hpp>
#include <trncore/mpi/ranges.hpp>

#include <cstdint>
#include <memory>

namespace trnsolver::mpi {

/// The DistributedReduction of a vector of global_size elements of which this process holds `local_size`
/// starting at global index `offset`, over a duplicate of `comm` (the reduction owns it: keep the returned
/// pointer while solving). Set it as KrylovOptions::distributed on every process. Collective.
/// The reductions go through trncore::mpi::ordered_sum (pieces labelled by global index); the argument check
/// through trncore::mpi::CollectiveCheck.
/// @throws on every process: InvalidArgument for negative sizes or offsets; DimensionMismatch when the
/// processes' global_size differs or their parts do not tile [0, global_size) without overlap (naming the
/// offending part; trncore::mpi::gather_ranges).
std::shared_ptr<const DistributedReduction> distributed_reduction(const trncore::mpi::Communicator& comm,
                                                                  std::int64_t global_size, std::int64_t offset,
                                                                  std::int64_t local_size);

/// A part of a split of n rows over processes (trncore::mpi::Range: begin, count).
using RowRange = trncore::mpi::Range;

/// The block-aligned split of n rows over `parts` processes: contiguous parts in process order, cut at
/// multiples of DistributedReduction::block_size (1024), balanced in whole blocks (the first parts get one
/// block more; the last part ends at n). Parts may be empty when n has fewer blocks than parts. With this split
/// the Krylov solvers reproduce the single-process bits.
/// @throws trncore::InvalidArgument for n < 0, parts < 1 or part outside [0, parts).
RowRange aligned_rows(std::int64_t n, int parts, int part);

}  // namespace trnsolver::mpi
