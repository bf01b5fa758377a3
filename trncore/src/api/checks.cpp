// The shared argument checks (trncore/detail/checks.hpp).
#include <trncore/detail/checks.hpp>

#include <algorithm>

namespace trncore::detail {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
std::string str(std::int64_t v) { return std::to_string(v); }

// Whether lines × ld elements of elem_size bytes exceed int64.
bool extent_overflows(std::int64_t lines, std::int64_t ld, std::size_t elem_size) {
  if (lines <= 0 || ld <= 0) return false;
  const auto bytes_per_line = static_cast<std::uint64_t>(ld) * std::max<std::size_t>(1, elem_size);
  if (bytes_per_line / std::max<std::size_t>(1, elem_size) != static_cast<std::uint64_t>(ld)) return true;
  return static_cast<std::uint64_t>(lines) > static_cast<std::uint64_t>(kMax) / bytes_per_line;
}

}  // namespace

void check_nonnegative(std::string_view function, std::initializer_list<Named> sizes) {
  if (std::none_of(sizes.begin(), sizes.end(), [](const Named& s) { return s.value < 0; })) return;
  std::string list;
  for (const Named& s : sizes) list += (list.empty() ? "" : ", ") + std::string(s.name) + " = " + str(s.value);
  throw InvalidArgument(function, "negative size " + list, "pass sizes >= 0");
}

void check_pointer(std::string_view function, std::string_view name, const void* p, std::int64_t need) {
  if (p == nullptr && need > 0)
    throw InvalidArgument(function, std::string(name) + " is null for " + str(need) + " elements",
                          "pass " + std::string(name) + "'s storage");
}

void check_span(std::string_view function, std::string_view name, std::size_t have, std::int64_t need) {
  if (need > 0 && have < static_cast<std::uint64_t>(need))
    throw DimensionMismatch(
        function, std::string(name) + " has " + std::to_string(have) + " elements but " + str(need) + " are needed",
        "pass " + std::string(name) + " with at least " + str(need) + " elements");
}

void check_equal(std::string_view function, Named a, Named b) {
  if (a.value != b.value)
    throw DimensionMismatch(
        function, std::string(a.name) + " = " + str(a.value) + " but " + std::string(b.name) + " = " + str(b.value),
        "pass operands whose " + std::string(a.name) + " and " + std::string(b.name) + " agree");
}

void check_square(std::string_view function, std::string_view name, std::int64_t rows, std::int64_t cols) {
  if (rows != cols)
    throw DimensionMismatch(function, std::string(name) + " is " + str(rows) + "x" + str(cols) + ", not square",
                            "pass a square " + std::string(name));
}

void check_matrix(std::string_view function, std::string_view name, Layout layout, std::int64_t rows, std::int64_t cols,
                  const void* p, std::int64_t ld, std::size_t elem_size) {
  const std::string n(name);
  if (rows < 0 || cols < 0)
    throw InvalidArgument(function, "negative size " + n + " " + str(rows) + "x" + str(cols), "pass sizes >= 0");
  const bool rm = layout == Layout::row_major;
  const std::int64_t need = std::max<std::int64_t>(1, rm ? cols : rows);
  if (ld < need)
    throw DimensionMismatch(function,
                            "ld" + n + " = " + str(ld) + " is less than " + str(need) + " (" +
                                std::string(to_string(layout)) + ", " + n + " " + str(rows) + "x" + str(cols) + ")",
                            "pass ld" + n + " >= " + str(need));
  const std::int64_t lines = rm ? rows : cols;
  if (extent_overflows(lines, ld, elem_size))
    throw InvalidArgument(function,
                          n + "'s storage extent " + str(lines) + " x ld" + n + " = " + str(ld) + " overflows int64",
                          "pass smaller sizes");
  if (p == nullptr && rows > 0 && cols > 0)
    throw InvalidArgument(function, n + " is null for a " + str(rows) + "x" + str(cols) + " operand",
                          "pass " + n + "'s storage");
}

void check_vector(std::string_view function, std::string_view name, std::int64_t n, const void* p, std::int64_t inc,
                  std::size_t elem_size) {
  const std::string nm(name);
  if (n < 0) throw InvalidArgument(function, "negative size " + nm + " n = " + str(n), "pass n >= 0");
  const std::string inc_name = "inc" + nm;
  if (inc == 0)
    throw InvalidArgument(function, inc_name + " = 0",
                          "pass a nonzero " + inc_name + " (a negative one walks " + nm + " backwards, as in BLAS)");
  if (n == 0) return;
  const std::int64_t step = inc == std::numeric_limits<std::int64_t>::min() ? kMax : (inc < 0 ? -inc : inc);
  if (n > 1 && extent_overflows(n - 1, step, elem_size))
    throw InvalidArgument(function,
                          nm + "'s storage extent (n - 1) x |" + inc_name + "| with n = " + str(n) + ", " + inc_name +
                              " = " + str(inc) + " overflows int64",
                          "pass smaller sizes");
  if (p == nullptr)
    throw InvalidArgument(function, nm + " is null for n = " + str(n) + " elements", "pass " + nm + "'s storage");
}

std::int64_t checked_product(std::string_view function, std::initializer_list<Named> factors) {
  std::int64_t product = 1;
  for (const Named& f : factors) {
    if (f.value < 0) check_nonnegative(function, factors);
    if (f.value != 0 && product > kMax / f.value) {
      std::string list;
      for (const Named& g : factors) list += (list.empty() ? "" : " x ") + std::string(g.name) + " = " + str(g.value);
      throw InvalidArgument(function, "the product " + list + " overflows int64", "pass smaller sizes");
    }
    product *= f.value;
  }
  return product;
}

void check_threads(std::string_view function, int threads) {
  if (threads < 0)
    throw InvalidArgument(function, "threads = " + std::to_string(threads) + " is negative",
                          "pass threads >= 1, or 0 for the process default (TRNSCI_NUM_THREADS or the CPUs available)");
}

}  // namespace trncore::detail
