#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trncore/sim/spec.hpp>

#include <cmath>
#include <cstdio>

namespace trncore {

namespace sim {
ProductModel default_product_model(Generation generation) noexcept { return spec(generation).default_product; }
}  // namespace sim

sim::ProductModel product_model(const Options& o) noexcept {
  return o.product.value_or(sim::default_product_model(o.generation));
}

void validate(const Options& options, std::string_view function) {
  if (options.target_forward_error) {
    const double t = *options.target_forward_error;
    if (!(t > 0.0 && t < 1.0)) {
      char value[32];
      std::snprintf(value, sizeof value, "%g", t);
      throw InvalidArgument(function, std::string("target_forward_error = ") + value + " is not in (0, 1)",
                            "pass a relative error such as 1e-6, or leave it unset for the mode's full precision");
    }
  }
  if (options.threads < 0)
    throw InvalidArgument(function, "threads = " + std::to_string(options.threads) + " is negative",
                          "pass 0 for all hardware threads or a positive count");
  validate(options.rounding, function);
}

std::string to_string(const Options& o) {
  std::string s = "backend=" + std::string(to_string(o.backend)) + " math_mode=" + std::string(to_string(o.math_mode));
  if (o.target_forward_error) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", *o.target_forward_error);
    s += std::string(" target=") + t;
  }
  s += " generation=" + std::string(sim::to_string(o.generation)) +
       " product=" + std::string(sim::to_string(product_model(o))) + (o.product ? "" : " (default)") +
       " rounding=" + std::string(to_string(o.rounding.mode)) + " seed=" + std::to_string(o.seed) +
       " threads=" + std::to_string(o.threads);
  return s;
}

}  // namespace trncore
