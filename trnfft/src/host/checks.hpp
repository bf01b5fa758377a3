#pragma once
// Checks shared by plans and the free functions.

#include <trnfft/types.hpp>
#include <trncore/options.hpp>

namespace trnfft::detail {

/// Valid options for a host transform of precision T: backend host, math mode automatic or T's own,
/// no target. @throws InvalidArgument (invalid options) or NotSupported naming `function`.
template <Real T>
void check_options(const char* function, const trncore::Options& options);

}  // namespace trnfft::detail
