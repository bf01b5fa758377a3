// sharded_einsum on MPI ranks (MpiTransport) against the same call on the in-process thread transport — the
// oracle, itself tested against the unsharded einsum: the same bits on every rank, for shard counts below,
// equal to and above the rank count, output-parallel and reduce-parallel, float and double.
#include <trntensor/mpi/transport.hpp>

#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using trncore::mpi::Communicator;
using trntensor::Shape;
using trntensor::Tensor;

namespace {

template <class T>
Tensor<T> filled(const Shape& shape, double phase) {
  Tensor<T> t(shape);
  auto& v = t.values();
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<T>(std::sin(0.37 * static_cast<double>(i) + phase));
  return t;
}

template <class T>
void expect_same_as_threads(const std::string& subscripts, const Tensor<T>& a, int axis, int shards,
                            const Tensor<T>& b) {
  const auto comm = Communicator::world();
  const trntensor::ShardedTensor<T> sharded(a.view(), axis, shards);
  const std::vector<trntensor::TensorView<const T>> others{b.view()};
  trntensor::ThreadTransport threads(1);
  const auto want = trntensor::sharded_einsum<T>(subscripts, sharded, 0, others, threads);
  trntensor::mpi::MpiTransport ranks(comm);
  const auto got = trntensor::sharded_einsum<T>(subscripts, sharded, 0, others, ranks);
  EXPECT_EQ(got.shape(), want.shape());
  EXPECT_EQ(got.values(), want.values()) << subscripts << " axis " << axis << " shards " << shards;
}

}  // namespace

TEST(MpiTransport, ShardedEinsumIsBitwiseTheThreadTransports) {
  for (int shards : {1, 2, 3, 5, 7}) {
    // Output-parallel: the split label i is in the output.
    expect_same_as_threads<double>("ij,jk->ik", filled<double>({13, 29}, 0.1), 0, shards,
                                   filled<double>({29, 11}, 0.2));
    expect_same_as_threads<float>("ij,jk->ik", filled<float>({13, 29}, 0.3), 0, shards, filled<float>({29, 11}, 0.4));
    // Reduce-parallel: the split label j is summed.
    expect_same_as_threads<double>("ij,jk->ik", filled<double>({13, 29}, 0.5), 1, shards,
                                   filled<double>({29, 11}, 0.6));
    expect_same_as_threads<float>("ij,jk->ik", filled<float>({13, 29}, 0.7), 1, shards, filled<float>({29, 11}, 0.8));
  }
  // A batch label split (bij,bjk->bik over b) with more shards than rows of some ranks.
  expect_same_as_threads<double>("bij,bjk->bik", filled<double>({6, 4, 5}, 0.9), 0, 6, filled<double>({6, 5, 3}, 1.0));
}

TEST(MpiTransport, EveryShardRunsOnceOnItsOwner) {
  const auto comm = Communicator::world();
  trntensor::mpi::MpiTransport t(comm);
  const std::int64_t shards = 11;
  std::vector<std::int64_t> ran;
  t.for_each_shard(shards, [&](std::int64_t s) { ran.push_back(s); });
  for (auto s : ran) EXPECT_EQ(t.owner(s), comm.rank());
  const auto all = comm.allgatherv(std::span<const std::int64_t>(ran));
  std::vector<std::int64_t> sorted(all);
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int64_t> expected(shards);
  for (std::int64_t s = 0; s < shards; ++s) expected[static_cast<std::size_t>(s)] = s;
  EXPECT_EQ(sorted, expected);
}

TEST(MpiTransport, AFailingShardOrADifferentCountFailsOnEveryRank) {
  const auto comm = Communicator::world();
  trntensor::mpi::MpiTransport t(comm);
  // Shard 0 (rank 0's) throws; every rank gets the error.
  try {
    t.for_each_shard(3, [](std::int64_t s) {
      if (s == 0) throw trncore::InvalidArgument("test::shard", "shard 0 failed", "none");
    });
    ADD_FAILURE() << "no exception";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("on rank 0"), std::string::npos) << e.what();
  }
  if (comm.size() > 1) {
    EXPECT_THROW(t.for_each_shard(comm.rank() == 0 ? 4 : 5, [](std::int64_t) {}), trncore::DimensionMismatch);
  }
  EXPECT_EQ(comm.allreduce_max(1), 1);  // nobody is left waiting
}
