#pragma once
/// @file
/// Bulk generation of a RandomBits stream: the words stochastic rounding uses, and the base of trnrand's
/// Philox generator.

#include <trncore/philox.hpp>

#include <cstdint>
#include <span>

namespace trncore {

/// out[j] = bits(first + j) for every j: Philox4x32-10 words in the counter layout of RandomBits
/// (which is cuRAND's Philox4_32_10 layout: key = seed, counter = (position / 4, subsequence)).
/// Sixteen counters at a time with AVX-512 where the CPU has it, split over `threads` threads
/// (0 = the process default, trncore::default_threads(); inputs below 64 Ki words use one). The result never depends on the
/// code path, the thread count or how a range is divided into calls. Thread-safe for distinct outputs.
void fill_random_words(const RandomBits& bits, std::uint64_t first, std::span<std::uint32_t> out, int threads = 0);

}  // namespace trncore
