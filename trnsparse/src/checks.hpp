#pragma once
// Argument checks shared by trnsparse's entry points: message building and index-range casts, so each
// entry point states only what it checks.

#include <trncore/error.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace trnsparse::detail {

/// "name=value" for messages.
inline std::string kv(const char* name, std::int64_t value) { return std::string(name) + "=" + std::to_string(value); }

/// The largest value the index type I can hold, as int64.
template <class I>
constexpr std::int64_t index_max() {
  return static_cast<std::int64_t>(std::numeric_limits<I>::max());
}

/// Throws InvalidArgument when `value` does not fit index type I (used for sizes and nnz, which must be
/// representable because indptr stores them).
template <class I>
void require_fits_index(std::int64_t value, const char* what, const char* function) {
  if (value < 0 || value > index_max<I>())
    throw trncore::InvalidArgument(function,
                                   std::string(what) + " = " + std::to_string(value) +
                                       " does not fit the index type (max " + std::to_string(index_max<I>()) + ")",
                                   "use 64-bit indices (I = std::int64_t)");
}

/// Throws InvalidArgument for a negative size.
inline void require_nonnegative(std::int64_t value, const char* what, const char* function) {
  if (value < 0)
    throw trncore::InvalidArgument(function, std::string(what) + " = " + std::to_string(value) + " is negative",
                                   "pass a size >= 0");
}

/// Throws DimensionMismatch "<what>: <a_name>=a vs <b_name>=b".
inline void require_equal(std::int64_t a, std::int64_t b, const char* a_name, const char* b_name,
                          const char* function) {
  if (a != b)
    throw trncore::DimensionMismatch(function, kv(a_name, a) + " but " + kv(b_name, b),
                                     "pass operands whose shapes conform");
}

/// rows·cols, or InvalidArgument when it overflows int64.
inline std::int64_t checked_product(std::int64_t a, std::int64_t b, const char* function) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out))
    throw trncore::InvalidArgument(
        function, "size product " + std::to_string(a) + " x " + std::to_string(b) + " overflows", "use smaller sizes");
  return out;
}

}  // namespace trnsparse::detail
