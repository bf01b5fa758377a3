#pragma once
// Runs f(task) for task in [0, tasks) on up to `threads` threads. Which thread runs which task never
// affects a result in this library: tasks write disjoint outputs and compute them the same way.

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace trncore::detail {

/// threads <= 0 means std::thread::hardware_concurrency().
inline int resolve_threads(int threads) {
  if (threads > 0) return threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

template <class F>
void parallel_for(std::int64_t tasks, int threads, F&& f) {
  const std::int64_t workers = std::min<std::int64_t>(resolve_threads(threads), tasks);
  if (workers <= 1) {
    for (std::int64_t t = 0; t < tasks; ++t) f(t);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
  pool.reserve(static_cast<std::size_t>(workers));
  for (std::int64_t w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      try {
        for (std::int64_t t = w; t < tasks; t += workers) f(t);
      } catch (...) {
        errors[static_cast<std::size_t>(w)] = std::current_exception();
      }
    });
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace trncore::detail
