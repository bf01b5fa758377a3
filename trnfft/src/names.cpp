// Names of trnfft's enums: one table each serves to_string and parse.
#include <trnfft/types.hpp>
#include <trncore/detail/enum_names.hpp>

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
}  // namespace

std::string_view to_string(Direction direction) noexcept { return kDirections.name(direction); }
std::string_view to_string(Rigor rigor) noexcept { return kRigors.name(rigor); }
std::string_view to_string(ComplexLayout layout) noexcept { return kLayouts.name(layout); }
std::string_view to_string(Kind kind) noexcept { return kKinds.name(kind); }
std::string_view to_string(Norm norm) noexcept { return kNorms.name(norm); }

Direction parse_direction(std::string_view text) {
  return kDirections.parse(text, "trnfft::parse_direction", "direction");
}
Rigor parse_rigor(std::string_view text) { return kRigors.parse(text, "trnfft::parse_rigor", "rigor"); }
ComplexLayout parse_complex_layout(std::string_view text) {
  return kLayouts.parse(text, "trnfft::parse_complex_layout", "complex layout");
}
Kind parse_kind(std::string_view text) { return kKinds.parse(text, "trnfft::parse_kind", "kind"); }
Norm parse_norm(std::string_view text) { return kNorms.parse(text, "trnfft::parse_norm", "norm"); }

}  // namespace trnfft
