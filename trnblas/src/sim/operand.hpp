#pragma once
// op(A) of a BLAS argument as a dense row-major matrix of the caller's element type: the sim kernels slice
// and round from this one layout, whatever the caller's layout and transpose (this models the DMA that
// brings A into SBUF).

#include "sim/buffer.hpp"
#include "sim/row_blocks.hpp"

#include <trnblas/types.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <vector>

namespace trnblas::detail {

/// The rows×cols matrix op(X) where X is stored in `layout` with leading dimension ld (conj_trans is
/// trans for real types), gathered on up to `threads` threads.
template <class T>
Buffer<T> gather_op(trncore::Layout layout, Op op, std::int64_t rows, std::int64_t cols, const T* x, std::int64_t ld,
                    int threads) {
  Buffer<T> out(static_cast<std::size_t>(rows * cols));
  // Element (i, p) of op(X) is X(i, p) or X(p, i); in row-major storage X(r, c) is x[r·ld + c].
  const bool transposed = op != Op::no_trans;
  const bool row_major_access = (layout == trncore::Layout::row_major) != transposed;
  for_row_blocks(rows, row_block_count(rows, cols, threads), threads,
                 [&](std::int64_t, std::int64_t begin, std::int64_t end) {
                   for (std::int64_t i = begin; i < end; ++i)
                     for (std::int64_t p = 0; p < cols; ++p)
                       out[static_cast<std::size_t>(i * cols + p)] = row_major_access ? x[i * ld + p] : x[p * ld + i];
                 });
  return out;
}

}  // namespace trnblas::detail
