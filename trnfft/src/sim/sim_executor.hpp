#pragma once
// What the frontend's option checks need from the sim backend.

#include "sim/common.hpp"

#include <trnfft/types.hpp>

#include <optional>

namespace trnfft::detail::sim {

/// The precision options.math_mode and options.refine ask for; nullopt for automatic (the executor picks:
/// the default, or the cheapest meeting the target). @throws NotSupported for a math mode without a sim
/// FFT, InvalidArgument for refine with a math mode other than bf16, naming `function`.
std::optional<Precision> requested_precision(const char* function, const PlanOptions& options);

}  // namespace trnfft::detail::sim
