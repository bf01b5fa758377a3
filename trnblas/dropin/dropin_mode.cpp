#include "dropin_mode.hpp"

#include <trncore/error.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace trnblas::dropin {

namespace {
constexpr const char* kModes = "host, fp32, bf16, fp16, fp8_e4m3, compensated, ozaki";
void to_stderr(const char* message) { std::fprintf(stderr, "%s\n", message); }
}  // namespace

std::optional<trncore::Options> parse_mode(const char* mode, const char* product, void (*complain)(const char*)) {
  const auto invalid = [&](const char* variable, const char* value, const char* accepted) {
    const std::string m = std::string("libtrnblas_blas: ") + variable + "=\"" + value + "\" is not one of " + accepted +
                          "; running every call on the host (OpenBLAS)";
    complain(m.c_str());
    return std::nullopt;
  };
  // The product model is checked in every mode, so a typo is reported even where it would not matter yet.
  std::optional<trncore::sim::ProductModel> product_model;
  if (product != nullptr && !std::string_view(product).empty()) {
    try {
      product_model = trncore::sim::parse_product_model(product);
    } catch (const trncore::Error&) {
      return invalid("TRNBLAS_PRODUCT_MODEL", product, "bf16, exact");
    }
  }
  if (mode == nullptr || std::string_view(mode).empty() || std::string_view(mode) == "host") return std::nullopt;
  trncore::MathMode m{};
  try {
    m = trncore::parse_math_mode(mode);
  } catch (const trncore::Error&) {
    return invalid("TRNBLAS_MODE", mode, kModes);
  }
  using M = trncore::MathMode;
  if (m != M::fp32 && m != M::bf16 && m != M::fp16 && m != M::fp8_e4m3 && m != M::compensated && m != M::ozaki)
    return invalid("TRNBLAS_MODE", mode, kModes);
  trncore::Options o = trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(m);
  if (product_model) o.with_product(*product_model);
  return o;
}

void note_fallback(const char* what) noexcept {
  static std::atomic<bool> said{false};
  if (!said.exchange(true))
    std::fprintf(stderr, "libtrnblas_blas: %s; this and such calls run on the host (OpenBLAS)\n", what);
}

const std::optional<trncore::Options>& routed_options() {
  static const std::optional<trncore::Options> options =
      parse_mode(std::getenv("TRNBLAS_MODE"), std::getenv("TRNBLAS_PRODUCT_MODEL"), to_stderr);
  return options;
}

}  // namespace trnblas::dropin
