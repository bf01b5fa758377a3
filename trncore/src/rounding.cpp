#include <trncore/detail/enum_names.hpp>

#include <trncore/error.hpp>
#include <trncore/rounding.hpp>

#include <string>

namespace trncore {

namespace {

// The first name of each mode is its to_string; the short IEEE-style aliases parse too.
constexpr detail::EnumNames<RoundingMode, 12> kModeNames{{{
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
}}};

constexpr detail::EnumNames<Overflow, 2> kOverflowNames{
    {{{"standard", Overflow::standard}, {"saturate", Overflow::saturate}}}};

}  // namespace

std::string_view to_string(RoundingMode mode) noexcept { return kModeNames.name(mode); }

std::string_view to_string(Overflow overflow) noexcept { return kOverflowNames.name(overflow); }

RoundingMode parse_rounding_mode(std::string_view text) {
  return kModeNames.parse(text, "trncore::parse_rounding_mode", "rounding mode");
}

Overflow parse_overflow(std::string_view text) {
  return kOverflowNames.parse(text, "trncore::parse_overflow", "overflow policy");
}

void validate(const Rounding& rounding, std::string_view function) {
  if (to_string(rounding.mode) == "invalid")
    throw InvalidArgument(
        function, "rounding mode value " + std::to_string(static_cast<int>(rounding.mode)) + " is not a RoundingMode",
        "pass one of the RoundingMode enumerators");
  if (to_string(rounding.overflow) == "invalid")
    throw InvalidArgument(
        function, "overflow value " + std::to_string(static_cast<int>(rounding.overflow)) + " is not an Overflow",
        "pass Overflow::standard or Overflow::saturate");
  if (rounding.sr_bits < 1 || rounding.sr_bits > 32)
    throw InvalidArgument(function, "sr_bits = " + std::to_string(rounding.sr_bits) + " is outside [1, 32]",
                          "stochastic rounding uses between 1 and 32 random bits");
}

}  // namespace trncore
