#pragma once
/// @file
/// The modelled TensorEngine's numerics over whole matrices: what a tiled matmul into PSUM returns,
/// computed fast. Sim-backend GEMMs in every library call this; the per-tile engine API is for fused
/// kernels.

#include <trncore/sim/product_model.hpp>

#include <cstdint>

namespace trncore::sim {

/// Options of matmul_psum.
struct MatmulOptions {
  /// How each product A[i,k]·B[k,j] is rounded before it is accumulated (see matmul_psum).
  ProductModel product = ProductModel::bf16;
  /// Continue the accumulation in C (PSUM accumulate flag) instead of starting from +0.
  bool accumulate = false;
  /// Worker threads; 0 = the process default (trncore::default_threads()). Never changes the result.
  int threads = 0;
};

/// C = (accumulate ? C : +0) + A·B with the TensorEngine's per-element rules (DESIGN.md §4.3): for
/// every output element, in ascending k = 0 … K−1,
///
///     p = round_product(A[i,k] · B[k,j]);   acc = fp32_rne(acc + p)
///
/// where round_product is fl32 for ProductModel::exact and bf16_rne∘fl32 for ProductModel::bf16. This
/// is exactly what successive K-tile matmuls into one PSUM tile return, since accumulation continues the
/// same sequence. Inputs are fp32 values; pass values already rounded to the input format being modelled
/// (bf16, fp16, fp8, tf32) — see trncore::convert. Subnormals are kept; inf propagates; every NaN result
/// is returned as the canonical quiet NaN 0x7FC00000 (PSUM NaN payloads are not modelled).
///
/// Layout: row-major A (m×k, lda ≥ k), B (k×n, ldb ≥ n), C (m×n, ldc ≥ n). Unlike the hardware there is no
/// limit on m, n, k: the result is the one the tiled loop would produce.
///
/// Bitwise identical to matmul_psum_reference for all inputs, on every SIMD dispatch target and for any
/// thread count. Thread-safe for distinct C.
/// @throws trncore::InvalidArgument for negative sizes, leading dimensions below the row length, or null
///         pointers with nonzero sizes; the message names the function and the values.
void matmul_psum(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
                 std::int64_t ldb, float* c, std::int64_t ldc, const MatmulOptions& options = {});

/// The scalar reference of the same rules: a plain triple loop, one element at a time, written to be
/// obviously right rather than fast. Same arguments, errors and result as matmul_psum (options.threads
/// is ignored).
void matmul_psum_reference(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda,
                           const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                           const MatmulOptions& options = {});

}  // namespace trncore::sim

namespace trncore::sim::detail {

/// The SIMD code paths of matmul_psum. matmul_psum picks the widest one the CPU has; tests call each.
enum class MatmulTarget : std::uint8_t { generic, avx2, avx512 };

/// Whether this CPU can run `target`.
bool cpu_supports(MatmulTarget target) noexcept;

/// matmul_psum on a given code path. @throws trncore::NotSupported if the CPU lacks it.
void matmul_psum_on(MatmulTarget target, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
                    std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                    const MatmulOptions& options);

}  // namespace trncore::sim::detail
