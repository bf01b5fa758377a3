#include <trncore/detail/enum_names.hpp>

#include <trncore/sim/generation.hpp>

namespace trncore::sim {

namespace {
constexpr auto kNames = trncore::detail::EnumNames<Generation, 3>{
    {{{"trn1", Generation::trn1}, {"trn2", Generation::trn2}, {"trn3", Generation::trn3}}}};
}  // namespace

std::string_view to_string(Generation generation) noexcept { return kNames.name(generation); }

Generation parse_generation(std::string_view text) {
  return kNames.parse(text, "trncore::sim::parse_generation", "generation");
}

}  // namespace trncore::sim
