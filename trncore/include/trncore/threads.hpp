#pragma once
/// @file
/// How many threads the suite uses when a call leaves Options::threads at 0, and where that number comes
/// from. Every parallel loop of every package runs on one process-wide pool of threads that are created
/// once, on first use, and reused by every later call (docs/conventions.md, "Threads").

namespace trncore {

/// The process default thread count: the environment variable TRNSCI_NUM_THREADS when it is set (a
/// positive integer), else the number of CPUs this process may run on — its CPU affinity mask, lowered to
/// the cgroup CPU quota (cgroup v2 cpu.max or v1 cpu.cfs_quota_us, rounded up) when one applies, as in a
/// container. Read once, on the first call; later changes of the environment or the affinity mask are
/// not seen. Thread-safe.
/// @throws trncore::InvalidArgument (from every call) when TRNSCI_NUM_THREADS is set but is not an
///         integer in [1, 1024], naming the text.
int default_threads();

/// The number of CPUs this process may run on (affinity mask and cgroup quota, as default_threads()
/// describes), ignoring TRNSCI_NUM_THREADS. At least 1. Read once. Never throws.
int available_cpus() noexcept;

}  // namespace trncore
