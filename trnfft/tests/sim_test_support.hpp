#pragma once
// Shared by the sim backend's tests: sim options and the per-transform error measure the sim bounds are
// stated in (‖ŷ − y‖₂ ≤ bound·‖y‖₂ for each transform of a batch; docs/trnfft.md, "Sim backend").

#include "fft_test_support.hpp"

#include <trncore/options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace trnfft_test {

inline trncore::Options sim_options(int threads = 1) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.threads = threads;
  return o;
}

/// Largest per-transform relative 2-norm error of `got` (batch rows of `len`) against `want`.
template <class A>
double max_row_error(const std::vector<A>& got, const std::vector<cld>& want, std::int64_t len) {
  double worst = 0;
  for (std::size_t b = 0; b * static_cast<std::size_t>(len) < want.size(); ++b) {
    long double num = 0, den = 0;
    for (std::int64_t k = 0; k < len; ++k) {
      const std::size_t i = b * static_cast<std::size_t>(len) + static_cast<std::size_t>(k);
      num += std::norm(cld(got[i]) - want[i]);
      den += std::norm(want[i]);
    }
    worst = std::max(worst, static_cast<double>(den > 0 ? std::sqrt(num / den) : std::sqrt(num)));
  }
  return worst;
}

}  // namespace trnfft_test
