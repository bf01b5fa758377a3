#include <trnsparse/ops.hpp>

#include "host/host_checks.hpp"
#include "host/row_partition.hpp"
#include "structure.hpp"

#include <trncore/detail/parallel.hpp>

#include <algorithm>

namespace trnsparse {
namespace {

// Below this many stored entries a second thread costs more than it saves.
constexpr std::int64_t kMinNnzPerThread = 1 << 15;

template <class T>
void scale_output(T beta, T* y, std::int64_t n) {
  if (beta == T(0))
    std::fill(y, y + n, T(0));
  else if (beta != T(1))
    for (std::int64_t i = 0; i < n; ++i) y[i] *= beta;
}

// y[r] = alpha·(A x)[r] (+ beta·y[r]) for rows [begin, end). A free function on raw pointers, not a
// lambda over the matrix: GCC then keeps the loop's pointers in registers (the lambda form ran ~40%
// slower than Eigen's loop). The only validation before the kernel is O(1) (validate_ends); each row's
// extent and each column index are checked as they are read — predictable branches, where separate
// passes over indptr and indices would add a third to the kernel's memory traffic. beta = 0 is a
// template parameter so the row loop carries no test of it (moving it out took the 3-D Poisson ratio
// to Eigen from 0.87 to 1.15, single-threaded; docs/benchmarks.md).
template <bool BetaZero, class T, class I>
void csr_rows(const I* indptr, const I* indices, const T* values, std::int64_t cols, std::int64_t nnz, T alpha,
              const T* x, T beta, T* y, std::int64_t begin, std::int64_t end, const char* fn) {
  std::int64_t first = indptr[begin];
  if (!detail::row_extent_ok(0, first, nnz)) [[unlikely]]  // begin > 0 here: validate_ends checked indptr[0] = 0
    detail::throw_bad_extent(fn, begin - 1, indptr[begin - 1], first, nnz);
  for (std::int64_t r = begin; r < end; ++r) {
    const std::int64_t stop = indptr[r + 1];
    if (!detail::row_extent_ok(first, stop, nnz)) [[unlikely]]
      detail::throw_bad_extent(fn, r, first, stop, nnz);
    T sum = T(0);
    for (std::int64_t k = first; k < stop; ++k) {
      const I j = indices[k];
      if (!detail::index_in_range(j, cols)) [[unlikely]]
        detail::throw_bad_index(fn, k, j, cols);
      sum += values[k] * x[j];
    }
    if constexpr (BetaZero)
      y[r] = alpha * sum;
    else
      y[r] = alpha * sum + beta * y[r];
    first = stop;
  }
}

}  // namespace

template <class T, class I>
void spmv(trnblas::Op op, T alpha, const Csr<T, I>& a, std::span<const T> x, T beta, std::span<T> y,
          const trncore::Options& options) {
  constexpr const char* fn = "trnsparse::spmv";
  detail::require_host<T>(options, fn);
  detail::require_op(op, fn);
  // Row extents and column indices are checked inside the kernels as they are read (one pass, not three).
  detail::validate_ends(a, fn);
  const bool trans = op != trnblas::Op::no_trans;
  detail::require_length(x.size(), trans ? a.rows : a.cols, "x", fn);
  detail::require_length(y.size(), trans ? a.cols : a.rows, "y", fn);
  detail::require_disjoint<T>(x, "x", y, "y", fn);
  const I* indptr = a.indptr.data();
  const I* indices = a.indices.data();
  const T* values = a.values.data();
  const T* xp = x.data();
  T* yp = y.data();
  if (trans) {
    scale_output(beta, yp, a.cols);
    if (alpha == T(0)) return;
    for (std::int64_t r = 0; r < a.rows; ++r) {
      const T ax = alpha * xp[r];
      if (!detail::row_extent_ok(indptr[r], indptr[r + 1], a.nnz())) [[unlikely]]
        detail::throw_bad_extent(fn, r, indptr[r], indptr[r + 1], a.nnz());
      for (I k = indptr[r]; k < indptr[r + 1]; ++k) {
        if (!detail::index_in_range(indices[k], a.cols)) [[unlikely]]
          detail::throw_bad_index(fn, k, indices[k], a.cols);
        yp[indices[k]] += values[k] * ax;
      }
    }
    return;
  }
  if (alpha == T(0)) {
    scale_output(beta, yp, a.rows);
    return;
  }
  auto rows = [&](std::int64_t begin, std::int64_t end) {
    if (beta == T(0))
      csr_rows<true>(indptr, indices, values, a.cols, a.nnz(), alpha, xp, beta, yp, begin, end, fn);
    else
      csr_rows<false>(indptr, indices, values, a.cols, a.nnz(), alpha, xp, beta, yp, begin, end, fn);
  };
  const std::int64_t workers = std::min<std::int64_t>(trncore::detail::resolve_threads(options.threads),
                                                      std::max<std::int64_t>(1, a.nnz() / kMinNnzPerThread));
  if (workers <= 1) {
    rows(0, a.rows);
    return;
  }
  const auto bounds = detail::balanced_row_ranges(a.indptr, a.rows, workers);
  trncore::detail::parallel_for(
      static_cast<std::int64_t>(bounds.size()) - 1, static_cast<int>(workers),
      [&](std::int64_t t) { rows(bounds[static_cast<std::size_t>(t)], bounds[static_cast<std::size_t>(t) + 1]); });
}

template <class T, class I>
void spmv(trnblas::Op op, T alpha, const Bsr<T, I>& a, std::span<const T> x, T beta, std::span<T> y,
          const trncore::Options& options) {
  constexpr const char* fn = "trnsparse::spmv";
  detail::require_host<T>(options, fn);
  detail::require_op(op, fn);
  validate(a, fn);
  const bool trans = op != trnblas::Op::no_trans;
  detail::require_length(x.size(), trans ? a.rows : a.cols, "x", fn);
  detail::require_length(y.size(), trans ? a.cols : a.rows, "y", fn);
  detail::require_disjoint<T>(x, "x", y, "y", fn);
  const std::int64_t R = a.block_rows, C = a.block_cols;
  const std::int64_t out_n = trans ? a.cols : a.rows;
  // Accumulate op(A)·x into a zeroed buffer, then combine with beta·y, so beta = 0 never reads y.
  std::vector<T> acc(static_cast<std::size_t>(out_n), T(0));
  for (std::int64_t bi = 0; bi < a.block_row_count(); ++bi)
    for (auto b = static_cast<std::int64_t>(a.indptr[static_cast<std::size_t>(bi)]);
         b < a.indptr[static_cast<std::size_t>(bi) + 1]; ++b) {
      const std::int64_t c0 = static_cast<std::int64_t>(a.indices[static_cast<std::size_t>(b)]) * C;
      const T* blk = a.values.data() + b * R * C;
      const std::int64_t height = std::min(R, a.rows - bi * R), width = std::min(C, a.cols - c0);
      for (std::int64_t lr = 0; lr < height; ++lr)
        for (std::int64_t lc = 0; lc < width; ++lc) {
          if (trans)
            acc[static_cast<std::size_t>(c0 + lc)] += blk[lr * C + lc] * x[static_cast<std::size_t>(bi * R + lr)];
          else
            acc[static_cast<std::size_t>(bi * R + lr)] += blk[lr * C + lc] * x[static_cast<std::size_t>(c0 + lc)];
        }
    }
  for (std::int64_t i = 0; i < out_n; ++i) {
    const auto s = static_cast<std::size_t>(i);
    y[s] = beta == T(0) ? alpha * acc[s] : alpha * acc[s] + beta * y[s];
  }
}

template <class T, class I>
void spmm(trnblas::Op op, T alpha, const Csr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
          std::span<T> c, std::int64_t ldc, const trncore::Options& options) {
  constexpr const char* fn = "trnsparse::spmm";
  detail::require_host<T>(options, fn);
  detail::require_op(op, fn);
  validate(a, fn);
  trncore::detail::check_nonnegative(fn, {{"n", n}});
  const bool trans = op != trnblas::Op::no_trans;
  const std::int64_t m = trans ? a.cols : a.rows, k = trans ? a.rows : a.cols;
  detail::require_dense(k, n, ldb, b.size(), "b", fn);
  detail::require_dense(m, n, ldc, c.size(), "c", fn);
  detail::require_disjoint<T>(b, "b", c, "c", fn);
  T* cp = c.data();
  const T* bp = b.data();
  for (std::int64_t i = 0; i < m; ++i) scale_output(beta, cp + i * ldc, n);
  if (alpha == T(0) || n == 0) return;
  if (trans) {
    for (std::int64_t r = 0; r < a.rows; ++r)
      for (auto e = static_cast<std::int64_t>(a.indptr[static_cast<std::size_t>(r)]);
           e < a.indptr[static_cast<std::size_t>(r) + 1]; ++e) {
        const T av = alpha * a.values[static_cast<std::size_t>(e)];
        T* crow = cp + static_cast<std::int64_t>(a.indices[static_cast<std::size_t>(e)]) * ldc;
        const T* brow = bp + r * ldb;
        for (std::int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      }
    return;
  }
  // Row i of C accumulates alpha·a_ie·B(col_e, :) over its entries in storage order: one thread per row.
  auto rows = [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      T* crow = cp + r * ldc;
      for (auto e = static_cast<std::int64_t>(a.indptr[static_cast<std::size_t>(r)]);
           e < a.indptr[static_cast<std::size_t>(r) + 1]; ++e) {
        const T av = alpha * a.values[static_cast<std::size_t>(e)];
        const T* brow = bp + static_cast<std::int64_t>(a.indices[static_cast<std::size_t>(e)]) * ldb;
        for (std::int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      }
    }
  };
  const std::int64_t work =
      trncore::detail::checked_product(fn, {{"nnz", std::max<std::int64_t>(a.nnz(), 1)}, {"n", n}});
  const std::int64_t workers = std::min<std::int64_t>(trncore::detail::resolve_threads(options.threads),
                                                      std::max<std::int64_t>(1, work / kMinNnzPerThread));
  const auto bounds = detail::balanced_row_ranges(a.indptr, a.rows, workers);
  trncore::detail::parallel_for(
      static_cast<std::int64_t>(bounds.size()) - 1, static_cast<int>(workers),
      [&](std::int64_t t) { rows(bounds[static_cast<std::size_t>(t)], bounds[static_cast<std::size_t>(t) + 1]); });
}

#define TRNSPARSE_INSTANTIATE_SPMV(T, I)                                                                              \
  template void spmv(trnblas::Op, T, const Csr<T, I>&, std::span<const T>, T, std::span<T>, const trncore::Options&); \
  template void spmv(trnblas::Op, T, const Bsr<T, I>&, std::span<const T>, T, std::span<T>, const trncore::Options&); \
  template void spmm(trnblas::Op, T, const Csr<T, I>&, std::int64_t, std::span<const T>, std::int64_t, T,             \
                     std::span<T>, std::int64_t, const trncore::Options&);

TRNSPARSE_INSTANTIATE_SPMV(float, std::int32_t)
TRNSPARSE_INSTANTIATE_SPMV(float, std::int64_t)
TRNSPARSE_INSTANTIATE_SPMV(double, std::int32_t)
TRNSPARSE_INSTANTIATE_SPMV(double, std::int64_t)

}  // namespace trnsparse
