#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trncore/sim/spec.hpp>

#include <cmath>
#include <string>

namespace trncore {

namespace sim {
ProductModel default_product_model(Generation generation) noexcept { return spec(generation).default_product; }
}  // namespace sim

sim::ProductModel product_model(const Options& o) noexcept {
  return o.product.value_or(sim::default_product_model(o.generation));
}

namespace {

// An enum value outside its declared set (static_cast<Backend>(7)) has no name in its table.
template <class E>
void check_enum(E value, std::string_view name, std::string_view field, std::string_view accepted,
                std::string_view function) {
  if (name != "invalid") return;
  throw InvalidArgument(
      function,
      std::string(field) + " = " + std::to_string(static_cast<long long>(value)) + " is not one of its enum's values",
      "use " + std::string(accepted));
}

}  // namespace

void validate(const Options& options, std::string_view function) {
  if (options.target_forward_error) {
    const double t = *options.target_forward_error;
    if (!(t > 0.0 && t < 1.0))
      throw InvalidArgument(function, "target_forward_error = " + detail::sci(t) + " is not in (0, 1)",
                            "pass a relative error such as 1e-6, or leave it unset for the mode's full precision");
  }
  if (options.threads < 0)
    throw InvalidArgument(function, "threads = " + std::to_string(options.threads) + " is negative",
                          "pass 0 for all hardware threads or a positive count");
  check_enum(options.backend, to_string(options.backend), "options.backend", "Backend::host or Backend::sim", function);
  check_enum(options.math_mode, to_string(options.math_mode), "options.math_mode", "a trncore::MathMode enumerator",
             function);
  check_enum(options.generation, sim::to_string(options.generation), "options.generation",
             "a trncore::sim::Generation enumerator", function);
  if (options.product)
    check_enum(*options.product, sim::to_string(*options.product), "options.product",
               "a trncore::sim::ProductModel enumerator", function);
  validate(options.rounding, function);
}

std::string to_string(const Options& o) {
  std::string s = "backend=" + std::string(to_string(o.backend)) + " math_mode=" + std::string(to_string(o.math_mode));
  if (o.target_forward_error) s += " target=" + detail::sci(*o.target_forward_error);
  s += " generation=" + std::string(sim::to_string(o.generation)) +
       " product=" + std::string(sim::to_string(product_model(o))) + (o.product ? "" : " (default)") +
       " rounding=" + std::string(to_string(o.rounding.mode)) + " seed=" + std::to_string(o.seed) +
       " threads=" + std::to_string(o.threads);
  return s;
}

}  // namespace trncore
