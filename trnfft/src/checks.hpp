#pragma once
// Option checks shared by plan creation and the free functions.

#include <trnfft/types.hpp>

namespace trnfft::detail {

/// Valid plan options for precision T: trncore::validate, then per backend — host: math mode automatic or
/// T's own, no target, no refine; sim: a math mode with a sim FFT, refine only with bf16 (the target is
/// checked by the sim planner, which knows the bound). @throws InvalidArgument (invalid options) or
/// NotSupported naming `function`.
template <Real T>
void check_options(const char* function, const PlanOptions& options);

}  // namespace trnfft::detail
