#include <trnsolver/mpi/krylov.hpp>

#include <trncore/mpi/collective_check.hpp>
#include <trncore/mpi/ordered_sum.hpp>
#include <trncore/mpi/ranges.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace trnsolver::mpi {

namespace {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

std::shared_ptr<const DistributedReduction> distributed_reduction(const Communicator& comm, std::int64_t global_size,
                                                                  std::int64_t offset, std::int64_t local_size) {
  constexpr std::string_view function = "trnsolver::mpi::distributed_reduction";
  CollectiveCheck check(comm, function);
  check.same("global_size", global_size);
  check.require(global_size >= 0 && offset >= 0 && local_size >= 0, ErrorKind::invalid_argument,
                "global_size = " + str(global_size) + ", offset = " + str(offset) + ", local_size = " + str(local_size),
                "pass sizes and offsets >= 0");
  check.finish();
  trncore::mpi::gather_ranges(comm, function, "parts", global_size, {offset, local_size});

  // The reduction keeps its own communicator: the caller's may be gone before the last solve.
  auto owned = std::make_shared<Communicator>(comm.duplicate());
  auto d = std::make_shared<DistributedReduction>();
  d->global_size = global_size;
  d->offset = offset;
  d->sum_double = [owned](std::span<const std::int64_t> labels, std::span<const double> pieces, std::int64_t len) {
    return trncore::mpi::ordered_sum<double>(*owned, labels, pieces, len);
  };
  d->sum_float = [owned](std::span<const std::int64_t> labels, std::span<const float> pieces, std::int64_t len) {
    return trncore::mpi::ordered_sum<float>(*owned, labels, pieces, len);
  };
  d->max = [owned](double value) { return owned->allreduce_max(value); };
  d->agree = [owned](std::string_view fn, std::exception_ptr problem,
                     std::span<const std::pair<std::string_view, std::int64_t>> must_agree) {
    CollectiveCheck agreement(*owned, fn);
    agreement.capture([&] {
      if (problem) std::rethrow_exception(problem);
    });
    for (const auto& [name, value] : must_agree) agreement.same(name, value);
    agreement.finish();
  };
  return d;
}

RowRange aligned_rows(std::int64_t n, int parts, int part) {
  constexpr std::string_view function = "trnsolver::mpi::aligned_rows";
  if (n < 0) throw trncore::InvalidArgument(function, "n = " + str(n) + " is negative", "pass n >= 0");
  if (parts < 1 || part < 0 || part >= parts)
    throw trncore::InvalidArgument(function, "part " + str(part) + " of " + str(parts) + " parts",
                                   "pass parts >= 1 and part in [0, parts)");
  constexpr std::int64_t block = DistributedReduction::block_size;
  const std::int64_t blocks = (n + block - 1) / block;
  auto first_block = [&](std::int64_t p) { return p * (blocks / parts) + std::min<std::int64_t>(p, blocks % parts); };
  const std::int64_t begin = std::min(n, first_block(part) * block);
  const std::int64_t end = std::min(n, first_block(part + 1) * block);
  return {begin, end - begin};
}

}  // namespace trnsolver::mpi
