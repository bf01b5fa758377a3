#include "sim/blocked_cholesky.hpp"
#include "internal_gemm.hpp"

#include "sim/blocked_lu.hpp"  // kLuBlock: one TensorEngine tile of 128 partitions

#include <trnblas/gemm.hpp>
#include <trnblas/level3.hpp>

#include <algorithm>
#include <cmath>

namespace trnsolver::detail {

namespace {

// The kb×kb diagonal block at (k, k), unblocked (left-looking within the block). 0 or the failing order.
std::int64_t diagonal_block(float* a, std::int64_t lda, std::int64_t k, std::int64_t kb) {
  const auto at = [&](std::int64_t i, std::int64_t j) -> float& { return a[(k + i) + (k + j) * lda]; };
  for (std::int64_t j = 0; j < kb; ++j) {
    float d = at(j, j);
    for (std::int64_t p = 0; p < j; ++p) d -= at(j, p) * at(j, p);
    if (!(d > 0.0f)) return k + j + 1;  // not positive (or NaN): stop, as potrf
    const float l = std::sqrt(d);
    at(j, j) = l;
    for (std::int64_t i = j + 1; i < kb; ++i) {
      float s = at(i, j);
      for (std::int64_t p = 0; p < j; ++p) s -= at(i, p) * at(j, p);
      at(i, j) = s / l;
    }
  }
  return 0;
}

}  // namespace

std::int64_t blocked_cholesky(std::int64_t n, float* a, std::int64_t lda, const trncore::Options& gemm_options) {
  using trncore::Layout;
  trncore::Options host;  // the triangular solves: fp32 on the host (one thread per column block is enough)
  host.threads = gemm_options.threads;
  for (std::int64_t k = 0; k < n; k += kLuBlock) {
    const std::int64_t kb = std::min(kLuBlock, n - k), rest = n - k - kb;
    if (const std::int64_t info = diagonal_block(a, lda, k, kb); info != 0) return info;
    if (rest == 0) break;
    float* l11 = a + k + k * lda;
    float* l21 = a + (k + kb) + k * lda;
    // L21 = A21·L11⁻ᵀ.
    trnblas::trsm<float>(Layout::col_major, trnblas::Side::right, trnblas::Uplo::lower, trnblas::Op::trans,
                         trnblas::Diag::non_unit, rest, kb, 1.0f, l11, lda, l21, lda, host);
    // A22 −= L21·L21ᵀ, lower triangle only, one block column at a time (the TensorEngine's share).
    for (std::int64_t j = 0; j < rest; j += kLuBlock) {
      const std::int64_t jb = std::min(kLuBlock, rest - j);
      trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::trans, rest - j,
                                              jb, kb, -1.0f, l21 + j, lda, l21 + j, lda, 1.0f,
                                              a + (k + kb + j) + (k + kb + j) * lda, lda, gemm_options);
    }
  }
  return 0;
}

}  // namespace trnsolver::detail
