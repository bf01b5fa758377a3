#pragma once
/// @file
/// Batched GEMM on the host backend (OpenBLAS CBLAS, one ?gemm per entry): C_i := alpha·op(A_i)·op(B_i)
/// + beta·C_i for i < batch, all entries with one set of sizes, leading dimensions and scalars.
///
/// Accuracy: per entry, gemm's host bound γ_{k+2}·(|alpha||op(A_i)||op(B_i)| + |beta||C_i|)
/// componentwise (Higham, ASNA 2nd ed., §3.5; 4u for u with complex data).
/// Errors: as gemm on the host (gemm.hpp), and InvalidArgument for a negative batch or stride, a null
/// pointer array or entry with nonzero sizes, or any C_i sharing storage with any A_j, B_j or another
/// C_j (the check is exact per element run, so disjoint blocks of one big matrix pass). NotSupported for
/// the sim backend (its gemm is not batched yet), a math mode other than automatic or the data's own
/// precision, or a target_forward_error.

#include <trnblas/types.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <type_traits>

namespace trnblas {

/// Pointer-array form: a[i], b[i], c[i] address entry i (as cublas<t>gemmBatched). Entries may share A or
/// B storage (read only); the arrays a, b, c may be null only when batch = 0.
template <class T>
void gemm_batched(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
                  std::type_identity_t<T> alpha, const T* const* a, std::int64_t lda, const T* const* b,
                  std::int64_t ldb, std::type_identity_t<T> beta, T* const* c, std::int64_t ldc, std::int64_t batch,
                  const trncore::Options& options = {});

/// Strided form: entry i of X is at x + i·stride_x (as cublas<t>gemmStridedBatched). Strides are
/// elements, ≥ 0; stride_a = 0 or stride_b = 0 reuses one operand for every entry.
template <class T>
void gemm_strided_batched(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
                          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, std::int64_t stride_a,
                          const T* b, std::int64_t ldb, std::int64_t stride_b, std::type_identity_t<T> beta, T* c,
                          std::int64_t ldc, std::int64_t stride_c, std::int64_t batch,
                          const trncore::Options& options = {});

}  // namespace trnblas
