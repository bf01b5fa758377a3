// The process-wide worker pool (trncore/detail/thread_pool.hpp).
//
// One queue of jobs; a job is one run_on_pool() call, living on its caller's stack. Pool threads take the
// oldest job that still wants helpers and draw task indices from its atomic counter; the caller draws from
// the same counter, then withdraws the job from the queue and waits until every helper that joined has
// left it. Workers sleep on a condition variable between jobs.
#include <trncore/detail/thread_pool.hpp>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace trncore::detail {
namespace {

struct Job {
  TaskRef body;
  std::int64_t tasks;
  int helpers_wanted;
  int helpers_joined = 0;  // guarded by the pool mutex
  int helpers_active = 0;  // guarded by the pool mutex
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;

  Job(TaskRef b, std::int64_t t, int h) : body(b), tasks(t), helpers_wanted(h) {}

  // Runs tasks until none is left; after a failure the rest are drawn but skipped.
  void work() {
    for (std::int64_t t = next.fetch_add(1, std::memory_order_relaxed); t < tasks;
         t = next.fetch_add(1, std::memory_order_relaxed)) {
      if (failed.load(std::memory_order_relaxed)) continue;
      try {
        body(t);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    }
  }
  bool wants_helper() const { return helpers_joined < helpers_wanted && next.load(std::memory_order_relaxed) < tasks; }
};

class ThreadPool {
 public:
  void run(std::int64_t tasks, int helpers, TaskRef body) {
    Job job(body, tasks, helpers);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      while (static_cast<int>(threads_.size()) < helpers) {
        threads_.emplace_back([this] { serve(); });
        started_.fetch_add(1, std::memory_order_relaxed);
      }
      queue_.push_back(&job);
    }
    if (helpers == 1)
      work_ready_.notify_one();
    else
      work_ready_.notify_all();
    job.work();
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const auto it = std::find(queue_.begin(), queue_.end(), &job);
      if (it != queue_.end()) queue_.erase(it);
      job_done_.wait(lock, [&] { return job.helpers_active == 0; });
    }
    if (job.error) std::rethrow_exception(job.error);
  }

  std::uint64_t started() const noexcept { return started_.load(std::memory_order_relaxed); }

 private:
  // A pool thread: joins jobs until the process ends (the pool is never destroyed; see instance()).
  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      Job* job = nullptr;
      work_ready_.wait(lock, [&] {
        for (Job* j : queue_)
          if (j->wants_helper()) {
            job = j;
            return true;
          }
        return false;
      });
      ++job->helpers_joined;
      ++job->helpers_active;
      lock.unlock();
      job->work();
      lock.lock();
      if (--job->helpers_active == 0) job_done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable job_done_;
  std::deque<Job*> queue_;
  std::vector<std::thread> threads_;
  std::atomic<std::uint64_t> started_{0};
};

// Never destroyed: pool threads may still be asleep in it while static destructors run at exit, and a
// static destructor elsewhere may still run a parallel loop. A forked child (where only the forking
// thread exists) gets a fresh pool; the parent's is abandoned there without touching its locks.
std::atomic<ThreadPool*> g_pool{nullptr};
std::atomic<std::uint64_t> g_started_before_fork{0};
std::atomic<ThreadPool*> g_abandoned{nullptr};  // keeps an abandoned pool reachable (no leak report)

ThreadPool& instance() {
  ThreadPool* pool = g_pool.load(std::memory_order_acquire);
  if (pool) return *pool;
  static std::once_flag at_fork;
  std::call_once(at_fork, [] {
    pthread_atfork(nullptr, nullptr, [] {
      ThreadPool* old = g_pool.load(std::memory_order_relaxed);
      if (old) g_started_before_fork.fetch_add(old->started(), std::memory_order_relaxed);
      g_abandoned.store(old, std::memory_order_relaxed);
      g_pool.store(nullptr, std::memory_order_relaxed);
    });
  });
  auto* fresh = new ThreadPool;
  if (g_pool.compare_exchange_strong(pool, fresh, std::memory_order_acq_rel)) return *fresh;
  delete fresh;
  return *pool;
}

}  // namespace

void run_on_pool(std::int64_t tasks, int helpers, TaskRef body) { instance().run(tasks, helpers, body); }

std::uint64_t threads_started() noexcept {
  const ThreadPool* pool = g_pool.load(std::memory_order_acquire);
  return g_started_before_fork.load(std::memory_order_relaxed) + (pool ? pool->started() : 0);
}

}  // namespace trncore::detail
