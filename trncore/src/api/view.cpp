#include <trncore/view.hpp>

#include <limits>

namespace trncore::detail {

namespace {
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
}

void check_matrix(std::string_view function, std::int64_t rows, std::int64_t cols, std::int64_t ld, Layout layout,
                  bool null_data) {
  if (rows < 0 || cols < 0)
    throw InvalidArgument(function, "negative size " + std::to_string(rows) + "x" + std::to_string(cols),
                          "pass sizes >= 0");
  const std::int64_t line = layout == Layout::row_major ? cols : rows;
  const std::int64_t lines = layout == Layout::row_major ? rows : cols;
  if (ld < 1 || ld < line)
    throw DimensionMismatch(function,
                            "ld = " + std::to_string(ld) + " is less than " +
                                (layout == Layout::row_major ? "cols = " : "rows = ") + std::to_string(line) + " (" +
                                std::string(to_string(layout)) + ")",
                            "pass ld >= max(1, " + std::string(layout == Layout::row_major ? "cols" : "rows") + ")");
  if (lines > 0 && ld > kMax / lines)
    throw InvalidArgument(
        function, "the storage extent " + std::to_string(lines) + " x ld = " + std::to_string(ld) + " overflows int64",
        "pass smaller sizes");
  if (null_data && rows > 0 && cols > 0)
    throw InvalidArgument(function, "null data for a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix",
                          "pass the matrix's storage");
}

void check_vector(std::string_view function, std::int64_t size, std::int64_t inc, bool null_data) {
  if (size < 0) throw InvalidArgument(function, "negative size " + std::to_string(size), "pass size >= 0");
  if (inc == 0) throw InvalidArgument(function, "inc = 0", "pass a nonzero increment");
  const std::int64_t step = inc < 0 ? (inc == std::numeric_limits<std::int64_t>::min() ? kMax : -inc) : inc;
  if (size > 1 && step > kMax / (size - 1))
    throw InvalidArgument(function,
                          "the storage extent (size - 1) x |inc| = " + std::to_string(size - 1) + " x " +
                              std::to_string(step) + " overflows int64",
                          "pass a smaller size or increment");
  if (null_data && size > 0)
    throw InvalidArgument(function, "null data for a vector of size " + std::to_string(size), "pass the storage");
}

}  // namespace trncore::detail
