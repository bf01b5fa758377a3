#pragma once
// Runs f(task) for task in [0, tasks) on up to `threads` threads of the process-wide pool
// (thread_pool.hpp). Which thread runs which task never affects a result in the suite: tasks write
// disjoint outputs and compute them the same way. Public so the sibling packages share one thread helper;
// not part of the API users program against.

#include <trncore/detail/thread_pool.hpp>
#include <trncore/threads.hpp>

#include <algorithm>
#include <cstdint>

namespace trncore::detail {

/// The most threads one call uses, whatever it asks for: more than this only adds scheduling cost.
inline constexpr int kMaxThreadsPerCall = 256;

/// threads <= 0 means trncore::default_threads() (TRNSCI_NUM_THREADS, else the CPUs this process may use).
inline int resolve_threads(int threads) {
  return std::min(kMaxThreadsPerCall, threads > 0 ? threads : default_threads());
}

template <class F>
void parallel_for(std::int64_t tasks, int threads, F&& f) {
  if (tasks <= 0) return;
  const std::int64_t workers = std::min<std::int64_t>(resolve_threads(threads), tasks);
  if (workers <= 1) {
    for (std::int64_t t = 0; t < tasks; ++t) f(t);
    return;
  }
  run_on_pool(tasks, static_cast<int>(workers - 1), TaskRef(f));
}

/// Runs body(begin, end) over [0, n) in ranges whose global starts (offset + begin) are multiples of a chunk
/// size that is itself a multiple of 64, on up to `threads` threads (one below 64 Ki elements per thread).
/// Element-wise work keyed by the global index (offset + i) therefore never depends on the split.
template <class Body>
void for_aligned_ranges(std::int64_t n, std::uint64_t offset, int threads, Body&& body) {
  constexpr std::int64_t kMinElementsPerThread = 1 << 16;
  if (n == 0) return;
  const int workers = static_cast<int>(
      std::min<std::int64_t>(resolve_threads(threads), std::max<std::int64_t>(1, n / kMinElementsPerThread)));
  if (workers <= 1) {
    body(std::int64_t{0}, n);
    return;
  }
  const std::int64_t chunk = std::max<std::int64_t>(kMinElementsPerThread, (n / (4 * workers) + 63) / 64 * 64);
  const auto uchunk = static_cast<std::uint64_t>(chunk);
  const std::int64_t head = static_cast<std::int64_t>((uchunk - offset % uchunk) % uchunk);
  const std::int64_t first = std::min(n, head == 0 ? chunk : head);
  const std::int64_t tasks = 1 + (n - first + chunk - 1) / chunk;
  parallel_for(tasks, workers, [&](std::int64_t t) {
    const std::int64_t begin = t == 0 ? 0 : first + (t - 1) * chunk;
    const std::int64_t end = t == 0 ? first : std::min(n, begin + chunk);
    if (begin < end) body(begin, end);
  });
}

}  // namespace trncore::detail
