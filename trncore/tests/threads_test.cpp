// The process-wide pool (parallel_for over run_on_pool) and the default thread count. Oracles: a serial
// loop over the same tasks; the kernel's affinity mask (sched_getaffinity) for the CPU count; the
// environment the test is launched with (ctest sets TRNSCI_NUM_THREADS for the *_env cases).
#include <trncore/detail/parallel.hpp>
#include <trncore/threads.hpp>

#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using trncore::detail::parallel_for;
using trncore::detail::threads_started;

TEST(ThreadPool, EveryTaskRunsExactlyOnceForEveryThreadCount) {
  for (const std::int64_t tasks : {0, 1, 2, 3, 7, 64, 1000}) {
    for (const int threads : {0, 1, 2, 3, 8}) {
      std::vector<int> runs(static_cast<std::size_t>(tasks), 0);
      parallel_for(tasks, threads, [&](std::int64_t t) { ++runs[static_cast<std::size_t>(t)]; });
      for (std::int64_t t = 0; t < tasks; ++t)
        ASSERT_EQ(runs[static_cast<std::size_t>(t)], 1) << "task " << t << " of " << tasks << ", threads " << threads;
    }
  }
}

TEST(ThreadPool, AcceptsConstCallables) {
  std::vector<std::atomic<int>> runs(9);
  const auto body = [&](std::int64_t t) { ++runs[static_cast<std::size_t>(t)]; };
  parallel_for(9, 3, body);
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
}

TEST(ThreadPool, RepeatedCallsCreateNoThreads) {
  // Warm the pool up to 4 workers, then 1000 calls at 2 and 4 threads must reuse them.
  parallel_for(4, 4, [](std::int64_t) {});
  const auto before = threads_started();
  std::atomic<std::int64_t> sum{0};
  for (int call = 0; call < 1000; ++call) parallel_for(4, call % 2 == 0 ? 2 : 4, [&](std::int64_t t) { sum += t; });
  EXPECT_EQ(threads_started(), before);
  EXPECT_EQ(sum.load(), 1000 * 6);
}

TEST(ThreadPool, FirstExceptionPropagatesAndThePoolStaysUsable) {
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(100, 3,
                            [&](std::int64_t t) {
                              ++ran;
                              if (t == 5) throw std::runtime_error("task 5");
                            }),
               std::runtime_error);
  EXPECT_GE(ran.load(), 6);
  std::vector<int> out(50, 0);
  parallel_for(50, 3, [&](std::int64_t t) { out[static_cast<std::size_t>(t)] = static_cast<int>(t); });
  std::vector<int> want(50);
  std::iota(want.begin(), want.end(), 0);
  EXPECT_EQ(out, want);
}

TEST(ThreadPool, NestedCallsComplete) {
  // A task that runs its own parallel loop must not wait on a pool busy with its parent.
  std::vector<std::int64_t> sums(8, 0);
  parallel_for(8, 4, [&](std::int64_t outer) {
    std::vector<std::int64_t> inner(16, 0);
    parallel_for(16, 4, [&](std::int64_t t) { inner[static_cast<std::size_t>(t)] = outer * t; });
    sums[static_cast<std::size_t>(outer)] = std::accumulate(inner.begin(), inner.end(), std::int64_t{0});
  });
  for (std::int64_t o = 0; o < 8; ++o) EXPECT_EQ(sums[static_cast<std::size_t>(o)], o * 120);
}

TEST(ThreadPool, ConcurrentCallersEachGetTheirOwnResult) {
  std::vector<std::thread> callers;
  std::vector<std::int64_t> totals(4, 0);
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&, c] {
      for (int rep = 0; rep < 200; ++rep) {
        std::vector<std::int64_t> part(10, 0);
        parallel_for(10, 3, [&](std::int64_t t) { part[static_cast<std::size_t>(t)] = t + c; });
        totals[static_cast<std::size_t>(c)] += std::accumulate(part.begin(), part.end(), std::int64_t{0});
      }
    });
  for (auto& t : callers) t.join();
  for (int c = 0; c < 4; ++c) EXPECT_EQ(totals[static_cast<std::size_t>(c)], 200 * (45 + 10 * c));
}

TEST(ThreadPool, WorksInAForkedChild) {
  parallel_for(4, 4, [](std::int64_t) {});  // the parent's pool has threads the child will not have
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::atomic<int> sum{0};
    parallel_for(10, 3, [&](std::int64_t t) { sum += static_cast<int>(t); });
    _exit(sum.load() == 45 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(DefaultThreads, AvailableCpusIsWithinTheAffinityMask) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  EXPECT_GE(trncore::available_cpus(), 1);
  EXPECT_LE(trncore::available_cpus(), CPU_COUNT(&set));
}

// The *_env cases run in processes ctest starts with TRNSCI_NUM_THREADS set (tests/CMakeLists.txt); in
// the ordinary run the variable is unset and default_threads() is available_cpus().
TEST(DefaultThreads, FollowsTheEnvironment) {
  const char* env = std::getenv("TRNSCI_NUM_THREADS");
  if (env == nullptr) {
    EXPECT_EQ(trncore::default_threads(), trncore::available_cpus());
  } else if (std::string(env) == "3") {
    EXPECT_EQ(trncore::default_threads(), 3);
    EXPECT_EQ(trncore::detail::resolve_threads(0), 3);
    EXPECT_EQ(trncore::detail::resolve_threads(5), 5);
  } else {
    trnsci_testing::expect_error<trncore::InvalidArgument>(
        [] { trncore::default_threads(); }, "trncore::default_threads", {"TRNSCI_NUM_THREADS='", env, "[1, 1024]"});
  }
}

}  // namespace
