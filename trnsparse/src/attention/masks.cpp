#include <trnsparse/attention.hpp>

#include <trncore/detail/checks.hpp>

#include <trnsparse/ops.hpp>

#include <trncore/error.hpp>

#include <algorithm>
#include <string>

namespace trnsparse {
namespace {

void check_geometry(std::int64_t seq_len, std::int64_t block, const char* fn) {
  trncore::detail::check_nonnegative(fn, {{"seq_len", seq_len}});
  if (block < 1)
    throw trncore::InvalidArgument(fn, "block = " + std::to_string(block), "pass a block size >= 1 (128 is the tile)");
}

// Builds a mask from a predicate on (query block, key block).
template <class Keep>
BlockMask build(std::int64_t seq_len, std::int64_t block, const char* fn, Keep keep) {
  check_geometry(seq_len, block, fn);
  BlockMask m;
  m.seq_len = seq_len;
  m.block = block;
  const std::int64_t nb = m.blocks();
  trncore::detail::check_fits_index<std::int32_t>(fn, "blocks", nb);
  m.pattern.rows = m.pattern.cols = nb;
  m.pattern.indptr.assign(static_cast<std::size_t>(nb) + 1, 0);
  for (std::int64_t i = 0; i < nb; ++i) {
    for (std::int64_t j = 0; j < nb; ++j)
      if (keep(i, j)) {
        m.pattern.indices.push_back(static_cast<std::int32_t>(j));
        m.pattern.values.push_back(1.0f);
      }
    trncore::detail::check_fits_index<std::int32_t>(fn, "mask blocks",
                                                    static_cast<std::int64_t>(m.pattern.values.size()));
    m.pattern.indptr[static_cast<std::size_t>(i) + 1] = static_cast<std::int32_t>(m.pattern.values.size());
  }
  return m;
}

}  // namespace

BlockMask local_window_mask(std::int64_t seq_len, std::int64_t block, std::int64_t window, bool causal) {
  constexpr const char* fn = "trnsparse::local_window_mask";
  if (window < 0) throw trncore::InvalidArgument(fn, "window_blocks = " + std::to_string(window), "pass a window >= 0");
  return build(seq_len, block, fn,
               [&](std::int64_t i, std::int64_t j) { return std::abs(i - j) <= window && (!causal || j <= i); });
}

BlockMask dilated_mask(std::int64_t seq_len, std::int64_t block, std::int64_t window, std::int64_t dilation) {
  constexpr const char* fn = "trnsparse::dilated_mask";
  if (window < 0 || dilation < 1)
    throw trncore::InvalidArgument(
        fn, "window_blocks = " + std::to_string(window) + ", dilation = " + std::to_string(dilation),
        "pass window >= 0 and dilation >= 1");
  return build(seq_len, block, fn, [&](std::int64_t i, std::int64_t j) {
    const std::int64_t gap = std::abs(i - j);
    return gap % dilation == 0 && gap <= window * dilation;
  });
}

BlockMask global_tokens_mask(std::int64_t seq_len, std::int64_t block, std::span<const std::int64_t> global_blocks) {
  constexpr const char* fn = "trnsparse::global_tokens_mask";
  check_geometry(seq_len, block, fn);
  BlockMask geometry;
  geometry.seq_len = seq_len;
  geometry.block = block;
  const std::int64_t nb = geometry.blocks();
  trncore::detail::check_fits_index<std::int32_t>(fn, "blocks", nb);
  std::vector<char> is_global(static_cast<std::size_t>(nb), 0);
  for (std::int64_t g : global_blocks) {
    if (g < 0 || g >= nb)
      throw trncore::InvalidArgument(
          fn, "global block " + std::to_string(g) + " is outside [0, " + std::to_string(nb) + ")",
          "list block indices (token index / block)");
    is_global[static_cast<std::size_t>(g)] = 1;
  }
  return build(seq_len, block, fn, [&](std::int64_t i, std::int64_t j) {
    return is_global[static_cast<std::size_t>(i)] || is_global[static_cast<std::size_t>(j)];
  });
}

BlockMask mask_union(const BlockMask& a, const BlockMask& b) {
  constexpr const char* fn = "trnsparse::mask_union";
  trncore::detail::check_equal(fn, {"a.seq_len", a.seq_len}, {"b.seq_len", b.seq_len});
  trncore::detail::check_equal(fn, {"a.block", a.block}, {"b.block", b.block});
  validate(a.pattern, fn);
  validate(b.pattern, fn);
  BlockMask m = a;
  m.pattern = add(1.0f, a.pattern, 1.0f, b.pattern);
  for (float& x : m.pattern.values) x = 1.0f;
  return m;
}

}  // namespace trnsparse
