#include <trncore/error.hpp>
#include <trncore/sim/generation.hpp>

#include <string>

namespace trncore::sim {

std::string_view to_string(Generation generation) noexcept {
  switch (generation) {
    case Generation::trn1: return "trn1";
    case Generation::trn2: return "trn2";
    case Generation::trn3: return "trn3";
  }
  return "invalid";
}

Generation parse_generation(std::string_view text) {
  if (text == "trn1") return Generation::trn1;
  if (text == "trn2") return Generation::trn2;
  if (text == "trn3") return Generation::trn3;
  throw ParseError("trncore::sim::parse_generation", "unknown generation '" + std::string(text) + "'",
                   "use trn1, trn2 or trn3", 1, 1);
}

}  // namespace trncore::sim
