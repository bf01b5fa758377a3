#pragma once
// Argument checks and backend dispatch every trnrand entry point shares (docs/trncore.md, "Certificates:
// the contract every package keeps": invalid options and enum values are InvalidArgument, a backend a call
// lacks is NotSupported). Private to trnrand.

#include <trncore/options.hpp>
#include <trncore/sim/neuron_core.hpp>
#include <trnrand/stream.hpp>

#include <span>
#include <string_view>

namespace trnrand::detail {

/// trncore::validate(options, function), then check_generator. @throws trncore::InvalidArgument naming
/// `function`.
void check_call(std::string_view function, const trncore::Options& options, const Stream& s);
/// @throws trncore::InvalidArgument naming `function` unless s.generator is a Generator value.
void check_generator(std::string_view function, const Stream& s);
/// @throws trncore::InvalidArgument naming `function` unless interval is an Interval value.
void check_interval(std::string_view function, Interval interval);
/// Whether the call runs on Backend::sim. With a non-empty `why` (the call has no sim kernel: why not),
/// Backend::sim throws trncore::NotSupported naming `function`, the backend and the alternative.
bool on_sim(std::string_view function, const trncore::Options& options, std::string_view why = {});
/// fill_uint32 on the host after the caller's checks: out[j] = word(s, j), split over `threads` threads.
void fill_words(const Stream& s, std::span<std::uint32_t> out, int threads);
/// The NeuronCore a sim-backend call runs on: options.generation with options.product.
trncore::sim::NeuronCore core_for(const trncore::Options& options);

}  // namespace trnrand::detail
