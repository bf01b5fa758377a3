// CollectiveCheck: a problem on one rank becomes the same exception on every rank, without a hang.
#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <string>

using namespace trncore::mpi;

TEST(CollectiveCheck, PassesWhenEveryRankAgrees) {
  auto comm = Communicator::world();
  CollectiveCheck check(comm, "test::f");
  check.same("n", 12).require(true, ErrorKind::invalid_argument, "never", "never");
  EXPECT_NO_THROW(check.finish());
}

TEST(CollectiveCheck, OneRanksProblemIsThrownOnEveryRank) {
  auto comm = Communicator::world();
  const int bad = comm.size() - 1;
  CollectiveCheck check(comm, "test::f");
  check.require(comm.rank() != bad, ErrorKind::not_supported, "x = 3 is not supported", "pass x = 2");
  try {
    check.finish();
    FAIL() << "no exception";
  } catch (const trncore::NotSupported& e) {
    EXPECT_EQ(e.function(), "test::f");
    EXPECT_NE(std::string(e.what()).find("on rank " + std::to_string(bad) + ": x = 3 is not supported"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.hint(), "pass x = 2");
  }
  // The communicator is still usable: nobody is left inside a collective.
  EXPECT_EQ(comm.allreduce_max(1), 1);
}

TEST(CollectiveCheck, DisagreeingValuesNameEachRank) {
  auto comm = Communicator::world();
  CollectiveCheck check(comm, "test::g");
  check.same("k", comm.rank() == 0 ? 5 : 5 + comm.rank());
  if (comm.size() == 1) {
    EXPECT_NO_THROW(check.finish());
    return;
  }
  try {
    check.finish();
    FAIL() << "no exception";
  } catch (const trncore::DimensionMismatch& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'k' differs across ranks: rank 0 has 5, rank 1 has 6"), std::string::npos) << what;
  }
}

TEST(CollectiveCheck, CaptureKeepsTheLocalErrorsClassAndFunction) {
  auto comm = Communicator::world();
  CollectiveCheck check(comm, "test::h");
  check.capture([&] {
    if (comm.rank() == 0) throw trncore::DimensionMismatch("inner::check", "lda = 2 < 3", "raise lda");
  });
  try {
    check.finish();
    FAIL() << "no exception";
  } catch (const trncore::DimensionMismatch& e) {
    EXPECT_EQ(e.function(), "test::h");
    EXPECT_NE(std::string(e.what()).find("on rank 0: inner::check: lda = 2 < 3"), std::string::npos) << e.what();
  }
}

// Every class capture keeps travels as itself: the last rank throws it, every rank raises the same class.
TEST(CollectiveCheck, CaptureKeepsEveryErrorKind) {
  auto comm = Communicator::world();
  const bool last = comm.rank() == comm.size() - 1;
  const auto expect_kind = [&](auto thrower, auto expect) {
    CollectiveCheck check(comm, "test::k");
    check.capture([&] {
      if (last) thrower();
    });
    try {
      check.finish();
      ADD_FAILURE() << "no exception";
    } catch (const trncore::Error& e) {
      EXPECT_TRUE(expect(e)) << e.what();
    }
  };
  expect_kind([] { throw trncore::NotSupported("f", "p", "h"); },
              [](const trncore::Error& e) { return dynamic_cast<const trncore::NotSupported*>(&e) != nullptr; });
  expect_kind([] { throw trncore::ResourceExhausted("f", "p", "h"); },
              [](const trncore::Error& e) { return dynamic_cast<const trncore::ResourceExhausted*>(&e) != nullptr; });
  expect_kind([] { throw trncore::TargetNotMet("f", "p", "h"); },
              [](const trncore::Error& e) { return dynamic_cast<const trncore::TargetNotMet*>(&e) != nullptr; });
  expect_kind([] { throw trncore::InvalidArgument("f", "p", "h"); },
              [](const trncore::Error& e) { return dynamic_cast<const trncore::InvalidArgument*>(&e) != nullptr; });
}

TEST(CollectiveCheck, ARankCheckingDifferentArgumentsFails) {
  auto comm = Communicator::world();
  CollectiveCheck check(comm, "test::i");
  if (comm.rank() == 0)
    check.same("m", 1);
  else
    check.same("n", 1);
  if (comm.size() == 1) {
    EXPECT_NO_THROW(check.finish());
  } else
    EXPECT_THROW(check.finish(), trncore::InvalidArgument);
}
