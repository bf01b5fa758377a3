// The scalar reference of the TensorEngine rules: one element at a time, the product rounded with the
// general-purpose encode()/decode() (not the bit trick the fast path uses), so that the two share as
// little as possible.
#include "sim/matmul_arguments.hpp"

#include <trncore/format.hpp>
#include <trncore/sim/matmul.hpp>

namespace trncore::sim {

namespace {

float round_product_reference(float product, ProductModel model) {
  if (model == ProductModel::exact) return product;
  const std::uint32_t bits = encode(formats::bf16, static_cast<double>(product), Rounding());
  return static_cast<float>(decode(formats::bf16, bits));
}

}  // namespace

void matmul_psum_reference(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda,
                           const float* b, std::int64_t ldb, float* c, std::int64_t ldc, const MatmulOptions& options) {
  detail::check_matmul_arguments("trncore::sim::matmul_psum_reference", m, n, k, a, lda, b, ldb, c, ldc, options);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      float acc = options.accumulate ? c[i * ldc + j] : 0.0f;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const float product = a[i * lda + kk] * b[kk * ldb + j];
        acc = acc + round_product_reference(product, options.product);
      }
      c[i * ldc + j] = detail::canonicalize_nan(acc);
    }
  }
}

}  // namespace trncore::sim
