#pragma once
// Argument checks every trnrand entry point shares (docs/trncore.md, "Certificates: the contract every
// package keeps": invalid enum values and negative thread counts are InvalidArgument). Private to trnrand.

#include <trnrand/stream.hpp>

namespace trnrand::detail {

/// @throws trncore::InvalidArgument naming `function` unless threads >= 0 (0 = hardware concurrency).
void check_threads(const char* function, int threads);
/// @throws trncore::InvalidArgument naming `function` unless s.generator is a Generator value.
void check_generator(const char* function, const Stream& s);
/// @throws trncore::InvalidArgument naming `function` unless interval is an Interval value.
void check_interval(const char* function, Interval interval);

}  // namespace trnrand::detail
