#include <trnsparse/ops.hpp>
#include <trnsparse/sim.hpp>

#include <trncore/detail/checks.hpp>
#include "host/host_checks.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace trnsparse {

std::string BlockDensity::to_string() const {
  char line[200];
  std::snprintf(line, sizeof line, "%lldx%lld blocks: %lld of %lld stored (%.1f%%), fill %.1f%%, <= %lld per block row",
                static_cast<long long>(block_rows), static_cast<long long>(block_cols),
                static_cast<long long>(stored_blocks), static_cast<long long>(total_blocks), 100 * block_density,
                100 * fill, static_cast<long long>(max_blocks_per_row));
  return line;
}

namespace {
// bsr_spmm on either backend, errors naming fn (bsr_spmm or spmm); defined below.
template <class T, class I>
void bsr_spmm_named(const char* fn, T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb,
                    T beta, std::span<T> c, std::int64_t ldc, const trncore::Options& options,
                    trncore::AccuracyReport& report);

template <class T, class I>
BlockDensity density_of(const Bsr<T, I>& b, std::int64_t nonzeros) {
  BlockDensity d;
  d.block_rows = b.block_rows;
  d.block_cols = b.block_cols;
  d.stored_blocks = b.block_count();
  d.total_blocks = b.block_row_count() * b.block_col_count();
  d.nonzeros = nonzeros;
  d.block_density =
      d.total_blocks == 0 ? 0.0 : static_cast<double>(d.stored_blocks) / static_cast<double>(d.total_blocks);
  d.fill = d.stored_blocks == 0 ? 0.0
                                : static_cast<double>(nonzeros) / (static_cast<double>(d.stored_blocks) *
                                                                   static_cast<double>(b.block_rows * b.block_cols));
  for (std::int64_t bi = 0; bi < b.block_row_count(); ++bi)
    d.max_blocks_per_row = std::max<std::int64_t>(
        d.max_blocks_per_row, b.indptr[static_cast<std::size_t>(bi) + 1] - b.indptr[static_cast<std::size_t>(bi)]);
  return d;
}
}  // namespace

template <class T, class I>
Bsr<T, I> to_bsr(const Csr<T, I>& a, std::int64_t block_rows, std::int64_t block_cols, BlockDensity& report) {
  Bsr<T, I> b = to_bsr(a, block_rows, block_cols);
  report = density_of(b, sum_duplicates(a).nnz());
  return b;
}

template <class T, class I>
BlockDensity block_density(const Csr<T, I>& a, std::int64_t block_rows, std::int64_t block_cols) {
  // Built from the pattern only (values are irrelevant), so the cost is that of the structure.
  Csr<float, I> pattern;
  pattern.rows = a.rows;
  pattern.cols = a.cols;
  pattern.indptr = a.indptr;
  pattern.indices = a.indices;
  pattern.values.assign(a.values.size(), 1.0f);
  BlockDensity d;
  (void)to_bsr(pattern, block_rows, block_cols, d);
  return d;
}

template <class T, class I>
void bsr_spmm(T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
              std::span<T> c, std::int64_t ldc, const trncore::Options& options, trncore::AccuracyReport& report) {
  bsr_spmm_named("trnsparse::bsr_spmm", alpha, a, n, b, ldb, beta, c, ldc, options, report);
}

template <class T, class I>
void bsr_spmm(T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
              std::span<T> c, std::int64_t ldc, const trncore::Options& options) {
  trncore::AccuracyReport report;
  bsr_spmm_named("trnsparse::bsr_spmm", alpha, a, n, b, ldb, beta, c, ldc, options, report);
  trncore::require_target_met(report, "trnsparse::bsr_spmm");
}

template <class T, class I>
void spmm(trnblas::Op op, T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
          std::span<T> c, std::int64_t ldc, const trncore::Options& options, trncore::AccuracyReport& report) {
  constexpr const char* fn = "trnsparse::spmm";
  detail::require_op(op, fn);
  if (op != trnblas::Op::no_trans)
    throw trncore::NotSupported(fn, "op = trans on a BSR matrix",
                                "transpose the CSR before to_bsr (transpose(a)), or use spmm on the CSR matrix");
  bsr_spmm_named(fn, alpha, a, n, b, ldb, beta, c, ldc, options, report);
}

template <class T, class I>
void spmm(trnblas::Op op, T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
          std::span<T> c, std::int64_t ldc, const trncore::Options& options) {
  trncore::AccuracyReport report;
  spmm(op, alpha, a, n, b, ldb, beta, c, ldc, options, report);
  trncore::require_target_met(report, "trnsparse::spmm");
}

namespace {

template <class T, class I>
void bsr_spmm_named(const char* fn, T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb,
                    T beta, std::span<T> c, std::int64_t ldc, const trncore::Options& options,
                    trncore::AccuracyReport& report) {
  // Both backends: the block GEMMs are trnblas::gemm on options.backend (host: OpenBLAS, sim: the
  // TensorEngine model), each with its certified bound.
  trncore::validate(options, fn);
  validate(a, fn);
  trncore::detail::check_nonnegative(fn, {{"n", n}});
  detail::require_dense(a.cols, n, ldb, b.size(), "b", fn);
  detail::require_dense(a.rows, n, ldc, c.size(), "c", fn);
  report = trncore::AccuracyReport{};
  report.target = options.target_forward_error;
  const std::int64_t R = a.block_rows, C = a.block_cols;
  trncore::sim::EngineStats stats;
  double eps = 0;
  // The bound's hypotheses: finite inputs (A's stored values, B, C when beta reads it, alpha, beta), every
  // block GEMM certified (its certificate, not its met against the caller's target, which constrains the
  // composed bound), and a finite output.
  std::string uncertified;
  const auto finite = [](T x) { return std::isfinite(x); };
  bool inputs_finite = finite(alpha) && finite(beta) && std::all_of(a.values.begin(), a.values.end(), finite);
  for (std::int64_t i = 0; i < a.cols && inputs_finite; ++i)
    inputs_finite = std::all_of(b.data() + i * ldb, b.data() + i * ldb + n, finite);
  if (beta != T(0))
    for (std::int64_t i = 0; i < a.rows && inputs_finite; ++i)
      inputs_finite = std::all_of(c.data() + i * ldc, c.data() + i * ldc + n, finite);
  if (!inputs_finite) uncertified = "NaN or Inf in the input";
  std::string method;
  std::int64_t gemms = 0, max_blocks = 0;
  for (std::int64_t bi = 0; bi < a.block_row_count(); ++bi) {
    const std::int64_t r0 = bi * R, height = std::min(R, a.rows - r0);
    const auto first = static_cast<std::int64_t>(a.indptr[static_cast<std::size_t>(bi)]);
    const auto last = static_cast<std::int64_t>(a.indptr[static_cast<std::size_t>(bi) + 1]);
    max_blocks = std::max(max_blocks, last - first);
    T* c_rows = c.data() + r0 * ldc;
    if (first == last || n == 0) {
      // No block in this row: C = beta·C (beta = 0 does not read C).
      for (std::int64_t i = 0; i < height; ++i)
        for (std::int64_t j = 0; j < n; ++j) c_rows[i * ldc + j] = beta == T(0) ? T(0) : beta * c_rows[i * ldc + j];
      continue;
    }
    for (std::int64_t blk = first; blk < last; ++blk) {
      const std::int64_t c0 = static_cast<std::int64_t>(a.indices[static_cast<std::size_t>(blk)]) * C;
      const std::int64_t width = std::min(C, a.cols - c0);
      trncore::AccuracyReport block_report;
      // The block is stored R×C row-major (lda = C); its out-of-range padding columns are never read.
      trnblas::gemm<T>(trnblas::Layout::row_major, trnblas::Op::no_trans, trnblas::Op::no_trans, height, n, width,
                       alpha, a.values.data() + blk * R * C, C, b.data() + c0 * ldb, ldb, blk == first ? beta : T(1),
                       c_rows, ldc, options, block_report);
      eps = std::max(eps, block_report.a_priori_bound);
      if (!block_report.certified && uncertified.empty())
        uncertified = "the GEMM of block (" + std::to_string(bi) + ", " +
                      std::to_string(a.indices[static_cast<std::size_t>(blk)]) + ") is not certified: " +
                      (block_report.uncertified_reason.empty() ? std::string("(no reason given)")
                                                               : block_report.uncertified_reason);
      if (block_report.cost) stats += block_report.cost->stats;
      if (method.empty() && !block_report.trajectory.empty()) method = block_report.trajectory.back().description;
      ++gemms;
    }
  }
  if (uncertified.empty())
    for (std::int64_t i = 0; i < a.rows && uncertified.empty(); ++i)
      if (!std::all_of(c.data() + i * ldc, c.data() + i * ldc + n, finite))
        uncertified = "Inf or NaN in the output of finite inputs (overflow)";
  const double bound = std::expm1(static_cast<double>(max_blocks + 1) * std::log1p(eps));
  if (uncertified.empty()) {
    report.certify(bound);
  } else {
    report.a_priori_bound = bound;
    report.uncertify(uncertified);
  }
  report.trajectory.push_back({std::string(fn) + " (" + std::string(trncore::to_string(options.backend)) +
                               "): " + std::to_string(gemms) + " block GEMMs of " + std::to_string(R) + "x" +
                               std::to_string(C) + " x n=" + std::to_string(n) + ", <= " + std::to_string(max_blocks) +
                               " per block row; per block: " + (method.empty() ? std::string("none") : method)});
  report.references.push_back(
      "per-block bounds: docs/trnblas-sim.md; composition over k blocks: (1+eps)^(k+1)-1, docs/trnsparse.md");
  if (options.backend == trncore::Backend::sim) report.cost = trncore::sim::estimate_cost(stats, options.generation);
}

}  // namespace

#define TRNSPARSE_INSTANTIATE_SIM(T, I)                                                                        \
  template BlockDensity block_density(const Csr<T, I>&, std::int64_t, std::int64_t);                           \
  template Bsr<T, I> to_bsr(const Csr<T, I>&, std::int64_t, std::int64_t, BlockDensity&);                      \
  template void bsr_spmm(T, const Bsr<T, I>&, std::int64_t, std::span<const T>, std::int64_t, T, std::span<T>, \
                         std::int64_t, const trncore::Options&, trncore::AccuracyReport&);                     \
  template void bsr_spmm(T, const Bsr<T, I>&, std::int64_t, std::span<const T>, std::int64_t, T, std::span<T>, \
                         std::int64_t, const trncore::Options&);                                               \
  template void spmm(trnblas::Op, T, const Bsr<T, I>&, std::int64_t, std::span<const T>, std::int64_t, T,      \
                     std::span<T>, std::int64_t, const trncore::Options&, trncore::AccuracyReport&);           \
  template void spmm(trnblas::Op, T, const Bsr<T, I>&, std::int64_t, std::span<const T>, std::int64_t, T,      \
                     std::span<T>, std::int64_t, const trncore::Options&);

TRNSPARSE_INSTANTIATE_SIM(float, std::int32_t)
TRNSPARSE_INSTANTIATE_SIM(float, std::int64_t)
TRNSPARSE_INSTANTIATE_SIM(double, std::int32_t)
TRNSPARSE_INSTANTIATE_SIM(double, std::int64_t)

}  // namespace trnsparse
