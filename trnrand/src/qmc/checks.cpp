#include "qmc/checks.hpp"

#include <trncore/detail/checks.hpp>
#include <trncore/error.hpp>

#include <string>

namespace trnrand::detail {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

void check_qmc_options(std::string_view function, const trncore::Options& options) {
  trncore::validate(options, function);
  if (options.backend == trncore::Backend::sim)
    throw trncore::NotSupported(function, "Backend::sim has no kernel for quasi-random sequences",
                                "use Backend::host (the default)");
}

void check_dims(std::string_view function, std::int64_t dims, std::int64_t max_dims, std::string_view hint) {
  if (dims < 1 || dims > max_dims)
    throw trncore::InvalidArgument(function, "dims = " + str(dims) + " is outside [1, " + str(max_dims) + "]", hint);
}

void check_scramble(std::string_view function, std::string_view name, int value, std::string_view type,
                    std::string_view accepted) {
  if (name == "invalid")
    throw trncore::InvalidArgument(function,
                                   "scramble value " + std::to_string(value) + " is not a " + std::string(type),
                                   "pass " + std::string(accepted));
}

void check_rows(std::string_view function, std::int64_t n, std::int64_t dims, std::string_view dims_name,
                const void* out, std::int64_t ld) {
  trncore::detail::check_nonnegative(function, {{"n", n}});
  if (ld < dims)
    throw trncore::DimensionMismatch(function,
                                     "ld = " + str(ld) + " is less than " + std::string(dims_name) + " = " + str(dims),
                                     "pass a row stride ld >= " + std::string(dims_name));
  // Element i·ld + d < n·ld for every i < n and d < dims ≤ ld: the product bounds every index.
  trncore::detail::check_pointer(function, "out", out,
                                 trncore::detail::checked_product(function, {{"n", n}, {"ld", ld}}));
}

void check_span_rows(std::string_view function, std::size_t size, std::int64_t n, std::int64_t dims) {
  const std::int64_t need = trncore::detail::checked_product(function, {{"n", n}, {"dims", dims}});
  trncore::detail::check_equal(function, {"out.size()", static_cast<std::int64_t>(size)}, {"n * dims", need});
}

void check_whole_points(std::string_view function, std::size_t size, std::int64_t dims) {
  if (size % static_cast<std::size_t>(dims) != 0)
    throw trncore::DimensionMismatch(
        function, "out has " + std::to_string(size) + " elements, not a multiple of dims() = " + str(dims),
        "pass n * dims() elements for n points");
}

void check_point_size(std::string_view function, std::size_t size, std::int64_t dims) {
  trncore::detail::check_equal(function, {"point.size()", static_cast<std::int64_t>(size)}, {"dims()", dims});
}

}  // namespace trnrand::detail
