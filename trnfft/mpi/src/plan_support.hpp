#pragma once
// Internal to trnfft_mpi (not installed): what the distributed plans share beyond the composed report — the
// planning check of the options, the empty-plan check, and the six-step factorisation.

#include <trnfft/plan.hpp>
#include <trncore/mpi.hpp>

#include <bit>
#include <cstdint>
#include <memory>
#include <string>

namespace trnfft::mpi::detail {

/// Records in `check` that the options deciding which collectives execute runs (the backend) and how the
/// composed report is formed (math_mode, refine, target_forward_error) agree on every rank — else a sim
/// rank would wait in the report's collectives for a host rank — and validates them on this rank.
inline void check_plan_options(trncore::mpi::CollectiveCheck& check, const PlanOptions& options, const char* function) {
  check.same("options.backend", static_cast<std::int64_t>(options.backend));
  check.same("options.math_mode", static_cast<std::int64_t>(options.math_mode));
  check.same("options.refine", options.refine ? 1 : 0);
  check.same("options.target_forward_error",
             options.target_forward_error ? std::bit_cast<std::int64_t>(*options.target_forward_error) : -1);
  check.capture([&] { trncore::validate(options, function); });
}

/// The plan state behind a public plan object, or InvalidArgument naming `function` when the plan is empty
/// (default-constructed or moved from); `makers` names the functions that make one.
template <class S>
const S& require_plan(const std::unique_ptr<S>& s, const char* function, const char* makers) {
  if (!s)
    throw trncore::InvalidArgument(function, "the plan is empty (default-constructed or moved from)",
                                   std::string("make it with ") + makers);
  return *s;
}

/// The six-step 1-D transform's default row count n0: the largest divisor of n not above √n (1 for a prime n).
inline std::int64_t default_n0(std::int64_t n) {
  std::int64_t best = 1;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) best = d;
  return best;
}

}  // namespace trnfft::mpi::detail
