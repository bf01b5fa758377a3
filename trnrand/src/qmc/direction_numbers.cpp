#include "qmc/direction_numbers.hpp"

#include <trncore/error.hpp>

#include <string>
#include <vector>

namespace trnrand::detail {

namespace {

constexpr std::int64_t kLastDimension = 21201;
constexpr std::uint32_t kMaxDegree = 18;  // the largest degree in D(6); a larger one means a corrupt table

// Offset in kJoeKuoTable of the record of each dimension d = 2 … 21201 (index d − 2). Records have
// variable length (3 + s numbers), so they are located once, on first use; the walk also checks the
// table, since a truncated or reordered table would silently produce a wrong sequence.
const std::vector<std::size_t>& record_offsets() {
  static const std::vector<std::size_t> offsets = [] {
    std::vector<std::size_t> result;
    result.reserve(kLastDimension - 1);
    std::size_t at = 0;
    for (std::int64_t d = 2; d <= kLastDimension; ++d) {
      const auto fail = [&](const std::string& what) {
        // Line numbers are those of new-joe-kuo-6.21201: dimension d is on line d (line 1 is the header).
        throw trncore::ParseError("trnrand::Sobol",
                                  "compiled Joe-Kuo table is malformed at dimension " + std::to_string(d) + ": " + what,
                                  "rebuild trnrand from an unmodified trnrand/data/new-joe-kuo-6.21201", d, 1);
      };
      if (at + 3 > kJoeKuoTableSize) fail("table ends early");
      if (kJoeKuoTable[at] != static_cast<std::uint32_t>(d))
        fail("record names dimension " + std::to_string(kJoeKuoTable[at]));
      const std::uint32_t s = kJoeKuoTable[at + 1];
      if (s < 1 || s > kMaxDegree) fail("degree " + std::to_string(s));
      if (at + 3 + s > kJoeKuoTableSize) fail("table ends early");
      result.push_back(at);
      at += 3 + s;
    }
    if (at != kJoeKuoTableSize)
      throw trncore::ParseError(
          "trnrand::Sobol", "compiled Joe-Kuo table has " + std::to_string(kJoeKuoTableSize - at) + " extra numbers",
          "rebuild trnrand from an unmodified data file", kLastDimension, 1);
    return result;
  }();
  return offsets;
}

}  // namespace

void sobol_directions(std::int64_t dimension, std::span<std::uint32_t, 32> v) {
  // Dimension 1 is van der Corput: every m_j = 1.
  if (dimension == 1) {
    for (int j = 0; j < 32; ++j) v[j] = std::uint32_t{1} << (31 - j);
    return;
  }
  const std::uint32_t* record = kJoeKuoTable + record_offsets()[static_cast<std::size_t>(dimension - 2)];
  const int s = static_cast<int>(record[1]);
  const std::uint32_t a = record[2];
  for (int j = 0; j < s; ++j) v[j] = record[3 + j] << (31 - j);
  // The recurrence of Sobol (1967) / Bratley–Fox (1988), written on left-aligned numbers:
  // v_j = c_1 v_{j−1} ⊕ … ⊕ c_{s−1} v_{j−s+1} ⊕ v_{j−s} ⊕ (v_{j−s} >> s), where c_k is bit s−1−k of a.
  for (int j = s; j < 32; ++j) {
    std::uint32_t x = v[j - s] ^ (v[j - s] >> s);
    for (int k = 1; k < s; ++k)
      if ((a >> (s - 1 - k)) & 1u) x ^= v[j - k];
    v[j] = x;
  }
}

}  // namespace trnrand::detail
