// trncore::default_threads and available_cpus (trncore/threads.hpp): the affinity mask, the cgroup CPU
// quota and TRNSCI_NUM_THREADS, each read once.
#include <trncore/error.hpp>
#include <trncore/threads.hpp>

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

namespace trncore {
namespace {

constexpr int kMaxEnvThreads = 1024;

int affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return count;
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// ceil(quota / period) of one cgroup directory, or nothing when it sets no limit or cannot be read.
std::optional<int> quota_cpus(long long quota, long long period) {
  if (quota <= 0 || period <= 0) return std::nullopt;
  return static_cast<int>(std::max<long long>(1, (quota + period - 1) / period));
}

// cgroup v2: cpu.max ("max 100000" or "<quota> <period>") in this process's cgroup and each ancestor up to
// the root of the unified hierarchy; the tightest applies.
std::optional<int> cgroup_v2_cpus(const std::string& relative) {
  std::optional<int> best;
  std::string path = relative;
  for (;;) {
    std::ifstream in("/sys/fs/cgroup" + path + "/cpu.max");
    std::string quota;
    long long period = 0;
    if (in >> quota >> period && quota != "max") {
      char* end = nullptr;
      const long long q = std::strtoll(quota.c_str(), &end, 10);
      if (end && *end == '\0')
        if (const auto cpus = quota_cpus(q, period)) best = best ? std::min(*best, *cpus) : *cpus;
    }
    if (path.empty() || path == "/") break;
    const auto slash = path.find_last_of('/');
    path = slash == std::string::npos || slash == 0 ? std::string("/") : path.substr(0, slash);
  }
  return best;
}

// cgroup v1: cpu.cfs_quota_us / cpu.cfs_period_us of the cpu controller (at the process's path, else the
// mount's root, which is what a container usually sees).
std::optional<int> cgroup_v1_cpus(const std::string& relative) {
  for (const std::string& dir : {"/sys/fs/cgroup/cpu" + relative, std::string("/sys/fs/cgroup/cpu")}) {
    std::ifstream q(dir + "/cpu.cfs_quota_us"), p(dir + "/cpu.cfs_period_us");
    long long quota = 0, period = 0;
    if (q >> quota && p >> period) return quota_cpus(quota, period);
  }
  return std::nullopt;
}

std::optional<int> cgroup_cpus() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  std::optional<int> result;
  while (std::getline(in, line)) {
    // "hierarchy-id:controllers:path"; v2 is "0::/path".
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    std::optional<int> cpus;
    if (line.compare(0, first, "0") == 0 && controllers.empty())
      cpus = cgroup_v2_cpus(path);
    else if (("," + controllers + ",").find(",cpu,") != std::string::npos)
      cpus = cgroup_v1_cpus(path);
    if (cpus) result = result ? std::min(*result, *cpus) : *cpus;
  }
  return result;
}

struct DefaultThreads {
  int cpus = 1;
  int threads = 1;
  std::string env_error;  // nonempty: TRNSCI_NUM_THREADS is set to something unusable
};

const DefaultThreads& defaults() {
  static const DefaultThreads d = [] {
    DefaultThreads r;
    r.cpus = affinity_cpus();
    if (const auto quota = cgroup_cpus()) r.cpus = std::max(1, std::min(r.cpus, *quota));
    r.threads = r.cpus;
    if (const char* env = std::getenv("TRNSCI_NUM_THREADS")) {
      errno = 0;
      char* end = nullptr;
      const long v = std::strtol(env, &end, 10);
      if (end == env || *end != '\0' || errno != 0 || v < 1 || v > kMaxEnvThreads)
        r.env_error = env;
      else
        r.threads = static_cast<int>(v);
    }
    return r;
  }();
  return d;
}

}  // namespace

int default_threads() {
  const DefaultThreads& d = defaults();
  if (!d.env_error.empty())
    throw InvalidArgument(
        "trncore::default_threads",
        "TRNSCI_NUM_THREADS='" + d.env_error + "' is not an integer in [1, " + std::to_string(kMaxEnvThreads) + "]",
        "set TRNSCI_NUM_THREADS to a positive thread count, or unset it to use the " + std::to_string(d.cpus) +
            " CPUs this process may run on");
  return d.threads;
}

int available_cpus() noexcept { return defaults().cpus; }

}  // namespace trncore
