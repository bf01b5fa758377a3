// Names of trnfft's enums: one table each serves to_string and parse.
#include <trnfft/types.hpp>
#include <trncore/detail/enum_names.hpp>

// SimMode is deprecated; its names stay for one minor.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace trnfft {

namespace {
constexpr auto kDirections =
    trncore::detail::EnumNames<Direction, 2>{{{{"forward", Direction::forward}, {"backward", Direction::backward}}}};
constexpr auto kRigors = trncore::detail::EnumNames<Rigor, 4>{{{{"estimate", Rigor::estimate},
                                                                {"measure", Rigor::measure},
                                                                {"patient", Rigor::patient},
                                                                {"exhaustive", Rigor::exhaustive}}}};
constexpr auto kLayouts = trncore::detail::EnumNames<ComplexLayout, 2>{
    {{{"interleaved", ComplexLayout::interleaved}, {"split", ComplexLayout::split}}}};
constexpr auto kKinds =
    trncore::detail::EnumNames<Kind, 3>{{{{"c2c", Kind::c2c}, {"r2c", Kind::r2c}, {"c2r", Kind::c2r}}}};
constexpr auto kNorms = trncore::detail::EnumNames<Norm, 3>{
    {{{"backward", Norm::backward}, {"ortho", Norm::ortho}, {"forward", Norm::forward}}}};
constexpr auto kSimModes = trncore::detail::EnumNames<SimMode, 6>{{{{"from_options", SimMode::from_options},
                                                                    {"fp32", SimMode::fp32},
                                                                    {"bf16", SimMode::bf16},
                                                                    {"bf16_refined", SimMode::bf16_refined},
                                                                    {"compensated", SimMode::compensated},
                                                                    {"ozaki", SimMode::ozaki}}}};
}  // namespace

std::string_view to_string(Direction direction) noexcept { return kDirections.name(direction); }
std::string_view to_string(Rigor rigor) noexcept { return kRigors.name(rigor); }
std::string_view to_string(ComplexLayout layout) noexcept { return kLayouts.name(layout); }
std::string_view to_string(Kind kind) noexcept { return kKinds.name(kind); }
std::string_view to_string(Norm norm) noexcept { return kNorms.name(norm); }
std::string_view to_string(SimMode mode) noexcept { return kSimModes.name(mode); }

Direction parse_direction(std::string_view text) {
  return kDirections.parse(text, "trnfft::parse_direction", "direction");
}
Rigor parse_rigor(std::string_view text) { return kRigors.parse(text, "trnfft::parse_rigor", "rigor"); }
ComplexLayout parse_complex_layout(std::string_view text) {
  return kLayouts.parse(text, "trnfft::parse_complex_layout", "complex layout");
}
Kind parse_kind(std::string_view text) { return kKinds.parse(text, "trnfft::parse_kind", "kind"); }
Norm parse_norm(std::string_view text) { return kNorms.parse(text, "trnfft::parse_norm", "norm"); }
SimMode parse_sim_mode(std::string_view text) { return kSimModes.parse(text, "trnfft::parse_sim_mode", "sim mode"); }

}  // namespace trnfft
