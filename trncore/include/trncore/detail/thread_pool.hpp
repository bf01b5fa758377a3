#pragma once
// The one pool of worker threads behind trncore::detail::parallel_for. Threads are created on demand (the
// most ever requested at once, minus the caller) and live until the process ends, so a loop that runs
// parallel_for thousands of times creates them once. Public so sibling packages share it; not API.

#include <cstdint>
#include <memory>
#include <type_traits>

namespace trncore::detail {

/// A non-owning reference to a callable `void(std::int64_t task)`, so the pool needs no allocation per
/// call. The callable must outlive the run() it is passed to (it always does: run() returns after it).
class TaskRef {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cv_t<F>, TaskRef>) explicit TaskRef(F& f) noexcept
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, std::int64_t task) { (*static_cast<F*>(object))(task); }) {}
  void operator()(std::int64_t task) const { call_(object_, task); }

 private:
  void* object_;
  void (*call_)(void*, std::int64_t);
};

/// Runs body(t) for every t in [0, tasks) on the calling thread and up to `helpers` pool threads, and
/// returns when all have finished. Tasks are handed out in increasing order to whichever thread is free;
/// callers make results independent of that (each task writes its own outputs, computed one way). The
/// first exception a task throws is rethrown here after the others finish; tasks not yet started are
/// skipped. Safe to call from several threads at once and from inside a task (the caller always works on
/// its own tasks, so a nested call cannot wait for a busy pool).
void run_on_pool(std::int64_t tasks, int helpers, TaskRef body);

/// How many threads the pool has created since the process started (a measurement for benchmarks and
/// tests: a loop of parallel calls must not raise it after the first).
std::uint64_t threads_started() noexcept;

}  // namespace trncore::detail
