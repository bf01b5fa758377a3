#pragma once
/// @file
/// How the modelled TensorEngine rounds each product before accumulating it (DESIGN.md §4.3).

#include <cstdint>
#include <string_view>

namespace trncore::sim {

/// The TensorEngine's product rounding, a model parameter because the hardware's is not documented.
enum class ProductModel : std::uint8_t {
  /// p = fl32(a·b): exact for bf16/fp16/fp8 inputs unless the product leaves fp32's normal range.
  exact,
  /// p = bf16_rne(fl32(a·b)): the product is rounded to bf16 before accumulation. Default for trn1/trn2:
  /// published measurements on both chips found Ozaki-split products gained nothing over plain BF16,
  /// which is what this rounding predicts (see docs/numerics.md).
  bf16,
};

/// "exact" or "bf16". Never throws.
std::string_view to_string(ProductModel model) noexcept;
/// Parses "exact" or "bf16". @throws trncore::ParseError naming the text.
ProductModel parse_product_model(std::string_view text);

}  // namespace trncore::sim
