#pragma once
// Argument checks shared by matmul_psum and its reference: one statement of what a valid call is.

#include <trncore/error.hpp>
#include <trncore/sim/matmul.hpp>

#include <bit>
#include <cstdint>
#include <string>

namespace trncore::sim::detail {

inline void check_matmul_arguments(const char* function, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
                                   std::int64_t lda, const float* b, std::int64_t ldb, const float* c, std::int64_t ldc,
                                   const MatmulOptions& options) {
  const auto sizes = "m = " + std::to_string(m) + ", n = " + std::to_string(n) + ", k = " + std::to_string(k);
  if (m < 0 || n < 0 || k < 0) throw InvalidArgument(function, "negative size: " + sizes, "pass sizes >= 0");
  const auto check_ld = [&](const char* name, std::int64_t ld, std::int64_t row_length, const char* row) {
    if (ld < std::max<std::int64_t>(row_length, 1))
      throw InvalidArgument(function,
                            std::string(name) + " = " + std::to_string(ld) + " is less than max(1, " + row + " = " +
                                std::to_string(row_length) + ")",
                            "row-major storage needs a leading dimension of at least the row length");
  };
  check_ld("lda", lda, k, "k");
  check_ld("ldb", ldb, n, "n");
  check_ld("ldc", ldc, n, "n");
  if ((a == nullptr && m > 0 && k > 0) || (b == nullptr && k > 0 && n > 0) || (c == nullptr && m > 0 && n > 0))
    throw InvalidArgument(function, "null matrix pointer with " + sizes, "pass storage for every nonempty matrix");
  if (to_string(options.product) == "invalid")
    throw InvalidArgument(
        function, "product model value " + std::to_string(static_cast<int>(options.product)) + " is not a ProductModel",
        "pass ProductModel::exact or ProductModel::bf16");
}

// The canonical quiet NaN every NaN result is returned as.
inline constexpr std::uint32_t kCanonicalNan = 0x7FC00000u;

inline float canonicalize_nan(float x) noexcept { return x != x ? std::bit_cast<float>(kCanonicalNan) : x; }

}  // namespace trncore::sim::detail
