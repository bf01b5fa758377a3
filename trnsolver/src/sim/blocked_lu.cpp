#include "sim/blocked_lu.hpp"
#include "internal_gemm.hpp"

#include <trnblas/gemm.hpp>
#include <trnblas/level3.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace trnsolver::detail {

namespace {

// Columns [j0, j1) of rows [j0, n), unblocked: pivots searched in each column and whole rows (all n
// columns) swapped, so the blocks left and right of the panel follow.
std::int64_t unblocked(std::int64_t n, float* a, std::int64_t lda, std::int64_t j0, std::int64_t j1, bool pivoting,
                       std::vector<std::int64_t>& ipiv) {
  const auto at = [&](std::int64_t i, std::int64_t j) -> float& { return a[i + j * lda]; };
  std::int64_t info = 0;
  for (std::int64_t j = j0; j < j1; ++j) {
    std::int64_t p = j;
    if (pivoting)
      for (std::int64_t i = j + 1; i < n; ++i)
        if (std::abs(at(i, j)) > std::abs(at(p, j))) p = i;
    ipiv[static_cast<std::size_t>(j)] = p + 1;
    if (p != j)
      for (std::int64_t c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
    const float pivot = at(j, j);
    if (pivot == 0.0f) {
      if (info == 0) info = j + 1;
      continue;
    }
    for (std::int64_t i = j + 1; i < n; ++i) at(i, j) /= pivot;
    for (std::int64_t c = j + 1; c < j1; ++c) {
      const float u = at(j, c);
      for (std::int64_t i = j + 1; i < n; ++i) at(i, c) -= at(i, j) * u;
    }
  }
  return info;
}

// A panel of columns [j0, j1) factored recursively (left half, its triangular solve and GEMM update of the
// right half, right half), so most of the panel's work is fp32 GEMM rather than rank-1 updates. One
// thread: the panel's rounding never depends on the thread count.
std::int64_t panel(std::int64_t n, float* a, std::int64_t lda, std::int64_t j0, std::int64_t j1, bool pivoting,
                   std::vector<std::int64_t>& ipiv, const trncore::Options& host, bool* certified) {
  constexpr std::int64_t kUnblocked = 16;
  if (j1 - j0 <= kUnblocked) return unblocked(n, a, lda, j0, j1, pivoting, ipiv);
  const std::int64_t mid = j0 + (j1 - j0) / 2, w = mid - j0, right = j1 - mid;
  std::int64_t info = panel(n, a, lda, j0, mid, pivoting, ipiv, host, certified);
  trnblas::trsm<float>(trncore::Layout::col_major, trnblas::Side::left, trnblas::Uplo::lower, trnblas::Op::no_trans,
                       trnblas::Diag::unit, w, right, 1.0f, a + j0 + j0 * lda, lda, a + j0 + mid * lda, lda, host);
  if (n - mid > 0)
    trnsolver::detail::internal_gemm<float>(trncore::Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans,
                                            n - mid, right, w, -1.0f, a + mid + j0 * lda, lda, a + j0 + mid * lda, lda,
                                            1.0f, a + mid + mid * lda, lda, host, certified);
  const std::int64_t right_info = panel(n, a, lda, mid, j1, pivoting, ipiv, host, certified);
  return info != 0 ? info : right_info;
}

}  // namespace

std::int64_t blocked_lu(std::int64_t n, float* a, std::int64_t lda, bool pivoting, std::vector<std::int64_t>& ipiv,
                        const trncore::Options& gemm_options, bool* gemms_certified) {
  using trncore::Layout;
  ipiv.assign(static_cast<std::size_t>(n), 0);
  // Panels and the small triangular solves run in fp32 on the host, on one thread.
  trncore::Options host;
  host.threads = 1;
  std::int64_t info = 0;
  for (std::int64_t k = 0; k < n; k += kLuBlock) {
    const std::int64_t kb = std::min(kLuBlock, n - k), rest = n - k - kb;
    const std::int64_t panel_info = panel(n, a, lda, k, k + kb, pivoting, ipiv, host, gemms_certified);
    if (info == 0 && panel_info != 0) info = panel_info;
    if (rest == 0) break;
    // U12 = L11⁻¹ A12, then A22 −= L21 U12 (the TensorEngine's share: 2·rest²·kb of the flops).
    trncore::Options solve_options = host;
    solve_options.threads = gemm_options.threads;
    trnblas::trsm<float>(Layout::col_major, trnblas::Side::left, trnblas::Uplo::lower, trnblas::Op::no_trans,
                         trnblas::Diag::unit, kb, rest, 1.0f, a + k + k * lda, lda, a + k + (k + kb) * lda, lda,
                         solve_options);
    trnsolver::detail::internal_gemm<float>(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, rest, rest,
                                            kb, -1.0f, a + (k + kb) + k * lda, lda, a + k + (k + kb) * lda, lda, 1.0f,
                                            a + (k + kb) + (k + kb) * lda, lda, gemm_options, gemms_certified);
  }
  return info;
}

}  // namespace trnsolver::detail
