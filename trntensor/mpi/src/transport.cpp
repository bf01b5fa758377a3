#include <trntensor/mpi/transport.hpp>

#include <trncore/mpi/collective_check.hpp>
#include <trncore/mpi/ordered_sum.hpp>

#include <algorithm>
#include <new>
#include <string>
#include <vector>

namespace trntensor::mpi {

namespace {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::ErrorKind;

template <class T>
void reduce(const trncore::mpi::Communicator& comm, int ranks, std::span<const std::span<const T>> partials,
            std::span<T> out) {
  constexpr std::string_view fn = "trntensor::mpi::MpiTransport::reduce_sum";
  std::vector<std::int64_t> mine;
  std::vector<T> values;
  bool sizes_ok = true;
  for (std::size_t s = static_cast<std::size_t>(comm.rank()); s < partials.size();
       s += static_cast<std::size_t>(ranks)) {
    if (partials[s].size() != out.size()) sizes_ok = false;
    mine.push_back(static_cast<std::int64_t>(s));
    values.insert(values.end(), partials[s].begin(), partials[s].end());
  }
  CollectiveCheck check(comm, fn);
  check.same("shards", static_cast<std::int64_t>(partials.size()));
  check.require(sizes_ok, ErrorKind::dimension_mismatch,
                "a partial computed here does not have the output's " + std::to_string(out.size()) + " elements",
                "pass partials of the output's size");
  check.finish();
  if (!sizes_ok) return;  // unreachable: finish() threw
  const auto sum = trncore::mpi::ordered_sum<T>(comm, std::span<const std::int64_t>(mine), std::span<const T>(values),
                                                static_cast<std::int64_t>(out.size()));
  if (partials.empty()) {
    std::fill(out.begin(), out.end(), T(0));  // as the thread transport: no shards, zeros
    return;
  }
  std::copy(sum.begin(), sum.end(), out.begin());
}

template <class T>
void share(const trncore::mpi::Communicator& comm, int ranks, std::span<const std::span<T>> results) {
  CollectiveCheck check(comm, "trntensor::mpi::MpiTransport::share_results");
  check.same("shards", static_cast<std::int64_t>(results.size()));
  for (std::size_t s = 0; s < results.size(); ++s)
    check.same("size of shard " + std::to_string(s) + "'s block", static_cast<std::int64_t>(results[s].size()));
  check.finish();
  for (std::size_t s = 0; s < results.size(); ++s)
    comm.broadcast(results[s], static_cast<int>(s % static_cast<std::size_t>(ranks)));
}

}  // namespace

MpiTransport::MpiTransport(const trncore::mpi::Communicator& comm)
    : comm_(std::make_shared<trncore::mpi::Communicator>(comm.duplicate())) {}

int MpiTransport::owner(std::int64_t shard) const noexcept { return static_cast<int>(shard % comm_->size()); }

void MpiTransport::for_each_shard(std::int64_t shards, const std::function<void(std::int64_t)>& work) {
  constexpr std::string_view fn = "trntensor::mpi::MpiTransport::for_each_shard";
  {
    CollectiveCheck check(*comm_, fn);
    check.same("shards", shards);
    check.require(shards >= 0, ErrorKind::invalid_argument, "shards = " + std::to_string(shards),
                  "pass a shard count >= 0");
    check.finish();
  }
  // The tasks' own failures are agreed on too, so no rank waits in the next collective for one that threw.
  CollectiveCheck outcome(*comm_, fn);
  outcome.capture([&] {
    try {
      for (std::int64_t s = comm_->rank(); s < shards; s += comm_->size()) work(s);
    } catch (const std::bad_alloc&) {
      throw trncore::ResourceExhausted(fn, "a shard's task ran out of memory", "use more shards or more ranks");
    }
  });
  outcome.finish();
}

void MpiTransport::reduce_sum(std::span<const std::span<const double>> partials, std::span<double> out) {
  reduce<double>(*comm_, comm_->size(), partials, out);
}
void MpiTransport::reduce_sum(std::span<const std::span<const float>> partials, std::span<float> out) {
  reduce<float>(*comm_, comm_->size(), partials, out);
}
void MpiTransport::share_results(std::span<const std::span<double>> results) {
  share<double>(*comm_, comm_->size(), results);
}
void MpiTransport::share_results(std::span<const std::span<float>> results) {
  share<float>(*comm_, comm_->size(), results);
}

}  // namespace trntensor::mpi
