#pragma once
/// @file
/// Where a computational call runs (DESIGN.md §1).

#include <cstdint>
#include <string_view>

namespace trncore {

/// host: the fast high-precision CPU path (OpenBLAS, LAPACKE, FFTW, SuiteSparse, Eigen).
/// sim: the Trainium-native tile algorithm executed bit-exactly on trncore's NeuronCore model.
enum class Backend : std::uint8_t { host, sim };

/// "host" or "sim". Never throws.
std::string_view to_string(Backend backend) noexcept;
/// Parses to_string's names. @throws trncore::ParseError naming the text and the accepted names.
Backend parse_backend(std::string_view text);

}  // namespace trncore
