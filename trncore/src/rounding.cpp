#include <trncore/error.hpp>
#include <trncore/rounding.hpp>

#include <array>
#include <string>
#include <utility>

namespace trncore {

namespace {

constexpr std::array<std::pair<std::string_view, RoundingMode>, 12> kModeNames{{
    {"nearest_even", RoundingMode::nearest_even},
    {"toward_zero", RoundingMode::toward_zero},
    {"up", RoundingMode::up},
    {"down", RoundingMode::down},
    {"to_odd", RoundingMode::to_odd},
    {"stochastic", RoundingMode::stochastic},
    {"rne", RoundingMode::nearest_even},
    {"rz", RoundingMode::toward_zero},
    {"ru", RoundingMode::up},
    {"rd", RoundingMode::down},
    {"ro", RoundingMode::to_odd},
    {"sr", RoundingMode::stochastic},
}};

}  // namespace

std::string_view to_string(RoundingMode mode) noexcept {
  for (const auto& [name, value] : kModeNames)
    if (value == mode) return name;
  return "invalid";
}

std::string_view to_string(Overflow overflow) noexcept {
  switch (overflow) {
    case Overflow::standard: return "standard";
    case Overflow::saturate: return "saturate";
  }
  return "invalid";
}

RoundingMode parse_rounding_mode(std::string_view text) {
  for (const auto& [name, value] : kModeNames)
    if (name == text) return value;
  throw ParseError("trncore::parse_rounding_mode", "unknown rounding mode '" + std::string(text) + "'",
                   "use nearest_even, toward_zero, up, down, to_odd or stochastic", 1, 1);
}

Overflow parse_overflow(std::string_view text) {
  if (text == "standard") return Overflow::standard;
  if (text == "saturate") return Overflow::saturate;
  throw ParseError("trncore::parse_overflow", "unknown overflow policy '" + std::string(text) + "'",
                   "use standard or saturate", 1, 1);
}

void validate(const Rounding& rounding, std::string_view function) {
  if (to_string(rounding.mode) == "invalid")
    throw InvalidArgument(function, "rounding mode value " + std::to_string(static_cast<int>(rounding.mode)) +
                                        " is not a RoundingMode", "pass one of the RoundingMode enumerators");
  if (to_string(rounding.overflow) == "invalid")
    throw InvalidArgument(function, "overflow value " + std::to_string(static_cast<int>(rounding.overflow)) +
                                        " is not an Overflow", "pass Overflow::standard or Overflow::saturate");
  if (rounding.sr_bits < 1 || rounding.sr_bits > 32)
    throw InvalidArgument(function, "sr_bits = " + std::to_string(rounding.sr_bits) + " is outside [1, 32]",
                          "stochastic rounding uses between 1 and 32 random bits");
}

}  // namespace trncore
