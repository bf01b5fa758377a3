#pragma once
// op(A) of a BLAS argument as a dense row-major matrix of doubles: the sim kernels slice and round
// from this one layout, whatever the caller's layout and transpose. Every float and double value is
// exact in double, so nothing is lost here (this models the DMA that brings A into SBUF).

#include <trnblas/types.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <vector>

namespace trnblas::detail {

/// The rows×cols matrix op(X) where X is stored in `layout` with leading dimension ld (conj_trans is
/// trans for real types).
template <class T>
std::vector<double> gather_op(trncore::Layout layout, Op op, std::int64_t rows, std::int64_t cols, const T* x,
                              std::int64_t ld) {
  std::vector<double> out(static_cast<std::size_t>(rows * cols));
  // Element (i, p) of op(X) is X(i, p) or X(p, i); in row-major storage X(r, c) is x[r·ld + c].
  const bool transposed = op != Op::no_trans;
  const bool row_major_access = (layout == trncore::Layout::row_major) != transposed;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t p = 0; p < cols; ++p)
      out[static_cast<std::size_t>(i * cols + p)] =
          static_cast<double>(row_major_access ? x[i * ld + p] : x[p * ld + i]);
  return out;
}

}  // namespace trnblas::detail
