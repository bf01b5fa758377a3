#pragma once
// Access to the compiled Joe–Kuo table (generated from trnrand/data/new-joe-kuo-6.21201 by
// sobol_table.cmake) and the Sobol direction numbers derived from it.

#include <cstddef>
#include <cstdint>
#include <span>

namespace trnrand::detail {

// Defined in the generated source: the file's numbers in order ("d s a m_1 … m_s" per dimension
// d = 2 … 21201), its size, and the licence text that has to travel with them.
extern const std::uint32_t kJoeKuoTable[];
extern const std::size_t kJoeKuoTableSize;
extern const char kJoeKuoNotice[];

/// The 32 direction numbers of Sobol dimension `dimension` (1-based, 1 … 21201), left-aligned:
/// v[j] = m_{j+1} · 2^(31−j), i.e. the binary fraction m_{j+1} / 2^(j+1) scaled by 2^32.
/// @throws trncore::ParseError if the compiled table is malformed (a broken build, never user input).
void sobol_directions(std::int64_t dimension, std::span<std::uint32_t, 32> v);

}  // namespace trnrand::detail
