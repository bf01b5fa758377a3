#include "qmc/checks.hpp"

#include <trncore/error.hpp>

#include <limits>
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
  if (n < 0) throw trncore::InvalidArgument(function, "n = " + str(n) + " is negative", "pass n >= 0");
  if (ld < dims)
    throw trncore::DimensionMismatch(function,
                                     "ld = " + str(ld) + " is less than " + std::string(dims_name) + " = " + str(dims),
                                     "pass a row stride ld >= " + std::string(dims_name));
  if (n == 0) return;
  if (ld > (std::numeric_limits<std::int64_t>::max() - dims) / n)
    throw trncore::InvalidArgument(function,
                                   "n = " + str(n) + " rows of stride ld = " + str(ld) + " overflow the index range",
                                   "pass a smaller n or ld");
  if (out == nullptr)
    throw trncore::InvalidArgument(function, "out is null with n = " + str(n),
                                   "pass storage for n rows of ld elements");
}

void check_span_rows(std::string_view function, std::size_t size, std::int64_t n, std::int64_t dims) {
  // The division keeps n · dims from overflowing in the second test.
  if ((n > 0 && static_cast<std::uint64_t>(n) > size / static_cast<std::uint64_t>(dims)) ||
      size != static_cast<std::size_t>(n) * static_cast<std::size_t>(dims))
    throw trncore::DimensionMismatch(
        function, "out has " + std::to_string(size) + " elements, not n * dims = " + str(n) + " * " + str(dims),
        "pass a span of exactly n * dims elements");
}

void check_whole_points(std::string_view function, std::size_t size, std::int64_t dims) {
  if (size % static_cast<std::size_t>(dims) != 0)
    throw trncore::DimensionMismatch(
        function, "out has " + std::to_string(size) + " elements, not a multiple of dims() = " + str(dims),
        "pass n * dims() elements for n points");
}

void check_point_size(std::string_view function, std::size_t size, std::int64_t dims) {
  if (size != static_cast<std::size_t>(dims))
    throw trncore::DimensionMismatch(function,
                                     "point has " + std::to_string(size) + " elements but dims() = " + str(dims),
                                     "pass a span of exactly dims() elements");
}

}  // namespace trnrand::detail
