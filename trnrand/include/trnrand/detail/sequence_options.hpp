#pragma once
/// @file
/// The options struct Sobol and Halton sequences share (trnrand::SobolOptions and trnrand::HaltonOptions are
/// instances): trncore::Options plus a scramble and a starting index. Included by sobol.hpp and halton.hpp.

#include <trncore/options.hpp>

#include <cstdint>

namespace trnrand::detail {

/// trncore::Options (seed selects the randomisation and is ignored for Scramble::none; stream and threads
/// are not used — the sequences are produced in order, split them over workers with skip; backend must be
/// Backend::host) plus the sequence's scramble and first index.
template <class Scramble>
struct SequenceOptions : trncore::OptionsFor<SequenceOptions<Scramble>> {
  /// From a plain trncore::Options (the sequence's defaults for scramble and skip).
  using trncore::OptionsFor<SequenceOptions>::OptionsFor;
  Scramble scramble = Scramble::none;  ///< randomisation; none gives the published sequence
  std::int64_t skip = 0;               ///< index of the first point produced (each sequence states its range)

  /// The defaults: plain sequence, seed 0, skip 0, host backend.
  SequenceOptions() = default;
};

}  // namespace trnrand::detail
