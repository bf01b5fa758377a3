#include <trncore/detail/enum_names.hpp>

#include <trncore/sim/product_model.hpp>

namespace trncore::sim {

namespace {
constexpr auto kNames =
    trncore::detail::EnumNames<ProductModel, 2>{{{{"exact", ProductModel::exact}, {"bf16", ProductModel::bf16}}}};
}  // namespace

std::string_view to_string(ProductModel model) noexcept { return kNames.name(model); }

ProductModel parse_product_model(std::string_view text) {
  return kNames.parse(text, "trncore::sim::parse_product_model", "product model");
}

}  // namespace trncore::sim
