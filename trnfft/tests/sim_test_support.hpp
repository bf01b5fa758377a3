#pragma once
// Shared by the sim backend's tests: sim options and the per-transform error measure the sim bounds are
// stated in (‖ŷ − y‖₂ ≤ bound·‖y‖₂ for each transform of a batch; docs/trnfft.md, "Sim backend").

#include "fft_test_support.hpp"

#include <trnfft/plan.hpp>
#include <trnfft/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

namespace trnfft_test {

inline trncore::Options sim_options(int threads = 1) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.threads = threads;
  return o;
}

/// The sim precisions the tests sweep, in trnfft's spelling since 0.6.0: a math mode in PlanOptions, and
/// bf16_refined as math mode bf16 with PlanOptions::refine; from_options leaves the options' math mode.
enum class SimMode { from_options, fp32, bf16, bf16_refined, compensated, ozaki };

inline std::string_view to_string(SimMode m) {
  switch (m) {
    case SimMode::from_options: return "from_options";
    case SimMode::fp32: return "fp32";
    case SimMode::bf16: return "bf16";
    case SimMode::bf16_refined: return "bf16_refined";
    case SimMode::compensated: return "compensated";
    case SimMode::ozaki: return "ozaki";
  }
  return "?";
}

/// `options` with the math mode (and refine) of `m`.
inline trnfft::PlanOptions with_mode(SimMode m, trnfft::PlanOptions options = sim_options()) {
  switch (m) {
    case SimMode::from_options: break;
    case SimMode::fp32: options.math_mode = trncore::MathMode::fp32; break;
    case SimMode::bf16: options.math_mode = trncore::MathMode::bf16; break;
    case SimMode::bf16_refined:
      options.math_mode = trncore::MathMode::bf16;
      options.refine = true;
      break;
    case SimMode::compensated: options.math_mode = trncore::MathMode::compensated; break;
    case SimMode::ozaki: options.math_mode = trncore::MathMode::ozaki; break;
  }
  return options;
}

/// The plan's a-priori report (mode chosen, bound, target, met): Plan::accuracy(), the bound before a run.
template <class Plan>
trncore::AccuracyReport a_priori(const Plan& plan) {
  return plan.accuracy();
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
