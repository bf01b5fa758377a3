#pragma once
// One table of names per enum gives both to_string and parse, so the two can never disagree. Public so
// the sibling packages use the same helper; not part of the API users program against.

#include <trncore/error.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace trncore::detail {

template <class E, std::size_t N>
struct EnumNames {
  std::array<std::pair<std::string_view, E>, N> entries;  // the first entry of a value is its name

  constexpr std::string_view name(E value) const noexcept {
    for (const auto& [text, v] : entries)
      if (v == value) return text;
    return "invalid";
  }

  // Throws ParseError("<function>: unknown <what> '<text>': use <a>, <b> or <c>").
  E parse(std::string_view text, const char* function, const char* what) const {
    for (const auto& [name_text, v] : entries)
      if (name_text == text) return v;
    std::string accepted;
    for (std::size_t i = 0; i < N; ++i) {
      if (i > 0) accepted += i + 1 == N ? " or " : ", ";
      accepted += entries[i].first;
    }
    throw ParseError(function, std::string("unknown ") + what + " '" + std::string(text) + "'", "use " + accepted, 1,
                     1);
  }
};

}  // namespace trncore::detail
