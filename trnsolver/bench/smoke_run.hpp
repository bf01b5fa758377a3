#pragma once
// ctest runs every benchmark once as a smoke test with --benchmark_min_time below 0.01 s; the trnsolver
// benchmarks then register small sizes only, so the smoke run checks the code paths in seconds.

#include <cstdlib>
#include <string>

namespace trnsolver_bench {

/// Whether the command line asks for a smoke run (--benchmark_min_time=<t> with t < 0.01).
inline bool smoke_run(int argc, char** argv) {
  const std::string key = "--benchmark_min_time=";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(key, 0) == 0 && std::strtod(arg.c_str() + key.size(), nullptr) < 0.01) return true;
  }
  return false;
}

}  // namespace trnsolver_bench
