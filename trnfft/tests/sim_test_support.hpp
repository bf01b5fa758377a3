#pragma once
// Shared by the sim backend's tests: sim options and the per-transform error measure the sim bounds are
// stated in (‖ŷ − y‖₂ ≤ bound·‖y‖₂ for each transform of a batch; docs/trnfft.md, "Sim backend").

#include "fft_test_support.hpp"

#include <trnfft/plan.hpp>
#include <trnfft/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace trnfft_test {

inline trncore::Options sim_options(int threads = 1) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.threads = threads;
  return o;
}

/// A sim precision the tests sweep: PlanOptions::math_mode, with PlanOptions::refine for bf16's refinement
/// step (bf16_refined). automatic leaves the choice to the plan (with a target, the cheapest mode meeting it).
struct SimPrecision {
  trncore::MathMode math_mode = trncore::MathMode::automatic;
  bool refine = false;
};
inline constexpr SimPrecision kFp32{trncore::MathMode::fp32};
inline constexpr SimPrecision kBf16{trncore::MathMode::bf16};
inline constexpr SimPrecision kBf16Refined{trncore::MathMode::bf16, true};
inline constexpr SimPrecision kCompensated{trncore::MathMode::compensated};
inline constexpr SimPrecision kOzaki{trncore::MathMode::ozaki};
inline constexpr SimPrecision kAutomatic{};

/// The name the sim plan's description gives the precision: the math mode's, bf16_refined for bf16 with refine.
inline std::string to_string(SimPrecision p) {
  return p.refine ? std::string(trncore::to_string(p.math_mode)) + "_refined"
                  : std::string(trncore::to_string(p.math_mode));
}

/// `options` with the math mode and refine of `p`.
inline trnfft::PlanOptions with_mode(SimPrecision p, trnfft::PlanOptions options = sim_options()) {
  options.math_mode = p.math_mode;
  options.refine = p.refine;
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
