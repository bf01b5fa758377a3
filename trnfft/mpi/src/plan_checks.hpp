#pragma once
// Internal to trnfft_mpi (not installed): the planning checks every distributed plan shares.

#include <trnfft/plan.hpp>
#include <trncore/mpi.hpp>

#include <bit>
#include <cstdint>

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

}  // namespace trnfft::mpi::detail
