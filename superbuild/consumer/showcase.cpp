// The suite's showcase: what ci/demo runs against an installed prefix. It prints every installed
// package's version and what it runs on, and runs a real computation from each library that has one.
// Exits non-zero if a linked library disagrees with the version its installed CMake config declared.
#include <trnblas/trnblas.hpp>
#include <trncore/trncore.hpp>
#include <trnfft/trnfft.hpp>
#include <trnrand/trnrand.hpp>
#include <trnsolver/trnsolver.hpp>
#include <trnsparse/trnsparse.hpp>
#include <trntensor/trntensor.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

struct Package {
  std::string_view name;
  std::string_view linked_version;
  std::string_view config_version;
  std::string (*build_info)();
};

}  // namespace

int main() {
  const Package packages[] = {
      {"trncore", trncore::version(), TRNCORE_CONFIG_VERSION, trncore::build_info},
      {"trnrand", trnrand::version(), TRNRAND_CONFIG_VERSION, trnrand::build_info},
      {"trnfft", trnfft::version(), TRNFFT_CONFIG_VERSION, trnfft::build_info},
      {"trnblas", trnblas::version(), TRNBLAS_CONFIG_VERSION, trnblas::build_info},
      {"trnsolver", trnsolver::version(), TRNSOLVER_CONFIG_VERSION, trnsolver::build_info},
      {"trnsparse", trnsparse::version(), TRNSPARSE_CONFIG_VERSION, trnsparse::build_info},
      {"trntensor", trntensor::version(), TRNTENSOR_CONFIG_VERSION, trntensor::build_info},
  };

  std::printf("trnsci showcase\n\nInstalled packages:\n");
  int mismatches = 0;
  for (const Package& p : packages) {
    const bool agrees = p.linked_version == p.config_version;
    mismatches += agrees ? 0 : 1;
    std::printf("  %-10s %-8s %s\n", std::string(p.name).c_str(), std::string(p.linked_version).c_str(),
                agrees ? "" : "(MISMATCH with installed CMake config)");
  }
  std::printf("\nWhat each library runs on:\n");
  for (const Package& p : packages) std::printf("  %s\n", p.build_info().c_str());

  if (mismatches != 0) {
    std::fprintf(stderr, "showcase: %d package(s) disagree with their installed config version\n", mismatches);
    return 1;
  }
  return 0;
}
