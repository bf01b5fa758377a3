#pragma once
/// @file
/// NeuronCore generations the sim backend can model.

#include <cstdint>
#include <string_view>

namespace trncore::sim {

/// A Trainium generation: trn1 has NeuronCore-v2, trn2 NeuronCore-v3, trn3 the next NeuronCore.
enum class Generation : std::uint8_t { trn1, trn2, trn3 };

/// "trn1", "trn2" or "trn3". Never throws.
std::string_view to_string(Generation generation) noexcept;
/// Parses "trn1", "trn2", "trn3". @throws trncore::ParseError naming the text.
Generation parse_generation(std::string_view text);

}  // namespace trncore::sim
