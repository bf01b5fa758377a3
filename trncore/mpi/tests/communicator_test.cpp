// The RAII layer's typed calls, checked against values every rank can compute on its own.
#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <numeric>

using trncore::mpi::Communicator;

namespace {

// Rank r contributes r + 1 values r·100 + i: sizes differ per rank, rank 0's is never empty.
std::vector<double> contribution(int r) {
  std::vector<double> v(static_cast<std::size_t>(r + 1));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = r * 100.0 + static_cast<double>(i);
  return v;
}

}  // namespace

TEST(Communicator, OwnsADuplicateWithTheWorldsRankAndSize) {
  auto comm = Communicator::world();
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(comm.rank(), rank);
  EXPECT_EQ(comm.size(), size);
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(comm.native(), MPI_COMM_WORLD, &result);
  EXPECT_EQ(result, MPI_CONGRUENT);  // same group, different context: the library's messages never match the caller's
  auto moved = std::move(comm);
  EXPECT_EQ(moved.size(), size);
  EXPECT_EQ(comm.native(), MPI_COMM_NULL);
}

TEST(Communicator, BroadcastCarriesEveryElementType) {
  auto comm = Communicator::world();
  std::vector<std::complex<double>> z(5);
  std::vector<std::int64_t> k(3);
  std::vector<float> f(0);
  if (comm.rank() == comm.size() - 1) {
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = {1.0 + static_cast<double>(i), -0.5};
    k = {-1, 1LL << 40, 7};
  }
  comm.broadcast(std::span(z), comm.size() - 1);
  comm.broadcast(std::span(k), comm.size() - 1);
  comm.broadcast(std::span(f), 0);
  for (std::size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], std::complex<double>(1.0 + static_cast<double>(i), -0.5));
  EXPECT_EQ(k, (std::vector<std::int64_t>{-1, 1LL << 40, 7}));
}

TEST(Communicator, AllgathervAndGathervConcatenateInRankOrder) {
  auto comm = Communicator::world();
  const auto mine = contribution(comm.rank());
  std::vector<double> expected;
  for (int r = 0; r < comm.size(); ++r) {
    const auto c = contribution(r);
    expected.insert(expected.end(), c.begin(), c.end());
  }
  EXPECT_EQ(comm.allgatherv(std::span<const double>(mine)), expected);
  const auto at_root = comm.gatherv(std::span<const double>(mine), comm.size() / 2);
  if (comm.rank() == comm.size() / 2) {
    EXPECT_EQ(at_root, expected);
  } else
    EXPECT_TRUE(at_root.empty());
  const std::vector<double> none;
  EXPECT_TRUE(comm.allgatherv(std::span<const double>(none)).empty());
}

TEST(Communicator, AlltoallvDeliversEachPairsMessage) {
  auto comm = Communicator::world();
  const int me = comm.rank(), p = comm.size();
  // Rank s sends (s + d) % 3 copies of the value 10·s + d to rank d.
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p));
  std::vector<std::int64_t> data;
  for (int d = 0; d < p; ++d) {
    counts[static_cast<std::size_t>(d)] = (me + d) % 3;
    data.insert(data.end(), static_cast<std::size_t>((me + d) % 3), 10 * me + d);
  }
  const auto got = comm.alltoallv(std::span<const std::int64_t>(data), counts);
  std::vector<std::int64_t> expected;
  for (int s = 0; s < p; ++s) expected.insert(expected.end(), static_cast<std::size_t>((s + me) % 3), 10 * s + me);
  EXPECT_EQ(got, expected);
  const std::vector<std::int64_t> wrong(static_cast<std::size_t>(p + 1), 0);
  EXPECT_THROW(comm.alltoallv(std::span<const std::int64_t>(data), wrong), trncore::InvalidArgument);
}

TEST(Communicator, ExactReductionsAndPredicates) {
  auto comm = Communicator::world();
  EXPECT_EQ(comm.allreduce_max(static_cast<std::int64_t>(comm.rank())), comm.size() - 1);
  EXPECT_EQ(comm.allreduce_min(-1.5 * comm.rank()), -1.5 * (comm.size() - 1));
  EXPECT_TRUE(comm.all_of(true));
  EXPECT_EQ(comm.all_of(comm.rank() != 0), false);
  EXPECT_EQ(comm.any_of(comm.rank() == comm.size() - 1), true);
  EXPECT_FALSE(comm.any_of(false));
}

TEST(Communicator, PointToPointRingAndNonBlocking) {
  auto comm = Communicator::world();
  const int p = comm.size(), me = comm.rank();
  const int next = (me + 1) % p, prev = (me + p - 1) % p;
  std::vector<float> out(4, static_cast<float>(me)), in(4, -1.0f);
  {
    auto r = comm.irecv(std::span(in), prev, 3);
    auto s = comm.isend(std::span<const float>(out), next, 3);
    r.wait();
  }  // s waits in its destructor
  for (float v : in) EXPECT_EQ(v, static_cast<float>(prev));
  if (p > 1) {
    if (me == 0) comm.send(std::span<const float>(out), 1, 9);
    if (me == 1) {
      comm.recv(std::span(in), 0, 9);
      EXPECT_EQ(in[0], 0.0f);
    }
  }
}

TEST(Communicator, SplitGroupsByColorAndRanksByKey) {
  auto comm = Communicator::world();
  auto half = comm.split(comm.rank() % 2, -comm.rank());  // reversed order inside each half
  const int same_color = (comm.size() - comm.rank() % 2 + 1) / 2;
  EXPECT_EQ(half.size(), same_color);
  // The highest world rank of my color is rank 0 of the split.
  const int highest = comm.size() - 1 - ((comm.size() - 1 - comm.rank() % 2) % 2);
  EXPECT_EQ(half.rank(), (highest - comm.rank()) / 2);
}
