#pragma once
// Element-wise passes over a matrix (gathers, scalings, the output stage) split into blocks of whole rows
// on up to `threads` threads. Each row is computed the same way whichever thread runs it, so results never
// depend on the thread count; small matrices stay on the calling thread.

#include <trncore/detail/parallel.hpp>

#include <algorithm>
#include <cstdint>

namespace trnblas::detail {

/// How many row blocks a rows×cols pass is split into: about 64 Ki elements each at least, at most four
/// per thread (0 threads = the hardware's), at most one per row.
inline std::int64_t row_block_count(std::int64_t rows, std::int64_t cols, int threads) {
  constexpr std::int64_t kMinElementsPerBlock = 1 << 16;  // below this a thread costs more than it saves
  const std::int64_t by_size = rows * std::max<std::int64_t>(cols, 1) / kMinElementsPerBlock;
  const std::int64_t by_threads = 4 * static_cast<std::int64_t>(trncore::detail::resolve_threads(threads));
  return std::clamp<std::int64_t>(std::min(by_size, by_threads), 1, std::max<std::int64_t>(rows, 1));
}

/// Calls body(block, begin, end) for `blocks` consecutive row ranges covering [0, rows), on up to `threads`
/// threads; block indices let callers keep per-block partial results.
template <class Body>
void for_row_blocks(std::int64_t rows, std::int64_t blocks, int threads, Body&& body) {
  const std::int64_t per_block = (rows + blocks - 1) / blocks;
  trncore::detail::parallel_for(blocks, threads, [&](std::int64_t b) {
    const std::int64_t begin = std::min(rows, b * per_block), end = std::min(rows, begin + per_block);
    if (begin < end) body(b, begin, end);
  });
}

}  // namespace trnblas::detail
