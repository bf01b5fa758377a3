#include "convert/kernels.hpp"
#include "convert/simd_kernels.hpp"
#include <trncore/detail/parallel.hpp>

#include <trncore/random_words.hpp>

#include <algorithm>
#include <cstring>

namespace trncore {

namespace {

namespace k = detail::convert_kernels;

template <bool Avx512>
void fill_range(const RandomBits& bits, std::uint64_t first, std::uint32_t* out, std::int64_t begin, std::int64_t end) {
  alignas(64) std::uint32_t words[k::kBlock];
  std::int64_t i = begin;
  while (i < end) {
    const std::uint64_t global = first + static_cast<std::uint64_t>(i);
    const std::int64_t skip = static_cast<std::int64_t>(global % k::kBlock);
    if constexpr (Avx512) {
      // Whole blocks are written straight into the output; partial first/last blocks go through words.
      const std::int64_t blocks = (end - i) / k::kBlock;
      if (skip == 0 && blocks > 0) {
        k::random_blocks_avx512(bits.seed, bits.stream, global / k::kBlock, blocks, out + i);
        i += blocks * k::kBlock;
        continue;
      }
    }
    const std::int64_t count = std::min<std::int64_t>(k::kBlock - skip, end - i);
    k::random_block(bits.seed, bits.stream, global / k::kBlock, words);
    std::memcpy(out + i, words + skip, static_cast<std::size_t>(count) * sizeof(std::uint32_t));
    i += count;
  }
}

}  // namespace

void fill_random_words(const RandomBits& bits, std::uint64_t first, std::span<std::uint32_t> out, int threads) {
  const bool avx512 = __builtin_cpu_supports("avx512f");
  detail::for_aligned_ranges(static_cast<std::int64_t>(out.size()), first, threads,
                             [&](std::int64_t begin, std::int64_t end) {
                               if (avx512)
                                 fill_range<true>(bits, first, out.data(), begin, end);
                               else
                                 fill_range<false>(bits, first, out.data(), begin, end);
                             });
}

}  // namespace trncore
