// to_string/parse for the QMC option enums: one name table per enum serves both directions.
#include <trnrand/halton.hpp>
#include <trnrand/sobol.hpp>

#include <trncore/error.hpp>

#include <array>
#include <string>
#include <utility>

namespace trnrand {

namespace {

template <class E, std::size_t N>
using Names = std::array<std::pair<std::string_view, E>, N>;

// The first entry for a value is its to_string; later ones are accepted aliases.
constexpr Names<SobolScramble, 4> kSobolNames{
    {{"none", SobolScramble::none},
     {"linear_matrix_digital_shift", SobolScramble::linear_matrix_digital_shift},
     {"owen", SobolScramble::owen},
     {"lms", SobolScramble::linear_matrix_digital_shift}}};

constexpr Names<HaltonScramble, 2> kHaltonNames{
    {{"none", HaltonScramble::none}, {"random_permutation", HaltonScramble::random_permutation}}};

template <class E, std::size_t N>
std::string_view name_of(const Names<E, N>& names, E value) noexcept {
  for (const auto& [name, v] : names)
    if (v == value) return name;
  return "invalid";
}

template <class E, std::size_t N>
E parse_name(const Names<E, N>& names, std::string_view text, const char* function) {
  for (const auto& [name, v] : names)
    if (name == text) return v;
  std::string accepted;
  for (const auto& entry : names) accepted += (accepted.empty() ? "" : ", ") + std::string(entry.first);
  throw trncore::ParseError(function, "'" + std::string(text) + "' is not a scramble name", "use one of " + accepted, 1,
                            1);
}

}  // namespace

std::string_view to_string(SobolScramble scramble) noexcept { return name_of(kSobolNames, scramble); }

SobolScramble parse_sobol_scramble(std::string_view text) {
  return parse_name(kSobolNames, text, "trnrand::parse_sobol_scramble");
}

std::string_view to_string(HaltonScramble scramble) noexcept { return name_of(kHaltonNames, scramble); }

HaltonScramble parse_halton_scramble(std::string_view text) {
  return parse_name(kHaltonNames, text, "trnrand::parse_halton_scramble");
}

}  // namespace trnrand
