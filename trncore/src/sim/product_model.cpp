#include <trncore/error.hpp>
#include <trncore/sim/product_model.hpp>

#include <string>

namespace trncore::sim {

std::string_view to_string(ProductModel model) noexcept {
  switch (model) {
    case ProductModel::exact: return "exact";
    case ProductModel::bf16: return "bf16";
  }
  return "invalid";
}

ProductModel parse_product_model(std::string_view text) {
  if (text == "exact") return ProductModel::exact;
  if (text == "bf16") return ProductModel::bf16;
  throw ParseError("trncore::sim::parse_product_model", "unknown product model '" + std::string(text) + "'",
                   "use exact or bf16", 1, 1);
}

}  // namespace trncore::sim
