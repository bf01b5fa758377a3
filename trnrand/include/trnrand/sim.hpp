#pragma once
/// @file
/// trnrand's sim backend: the generators as GpSimdEngine integer work on trncore's NeuronCore model,
/// producing exactly the host's bits, with the engine statistics of the kernel on the core.

#include <trnrand/stream.hpp>
#include <trncore/sim/neuron_core.hpp>

#include <cstdint>
#include <span>

namespace trnrand::sim {

/// fill_uint32 on the modelled NeuronCore: counters laid out on 128 partitions × 512 elements per batch
/// (iota), the generator's rounds as GpSimdEngine integer ops on tiles (Philox4x32-10: multiply_high,
/// multiply_low, xor, add; Threefry4x32-20: add, rotate_left, xor), and a strided DMA of the four words
/// of each counter to HBM. out is bitwise equal to trnrand::fill_uint32(s, out); the work is added to
/// core.stats(). Returns skip_ahead(s, out.size()).
/// @throws trncore::ResourceExhausted when the core lacks the SBUF for the working tiles (≤ 13 tiles of
///         2 KiB per partition).
Stream fill_uint32(Stream s, std::span<std::uint32_t> out, trncore::sim::NeuronCore& core);

/// fill_uniform (float) on the modelled NeuronCore: the words of fill_uint32 above, then per 128 × 512
/// tile a GpSimdEngine shift_right by 8 and add (1 for open_closed, 0 for closed_open), a VectorEngine
/// integer→fp32 copy (exact: every value is ≤ 2^24) and an exact multiply by 2^-24. out is bitwise equal
/// to trnrand::fill_uniform(s, out, interval). Returns skip_ahead(s, out.size()).
/// @throws trncore::ResourceExhausted when the core lacks the SBUF for the working tiles.
Stream fill_uniform(Stream s, std::span<float> out, Interval interval, trncore::sim::NeuronCore& core);

/// Normal(mean, stddev) floats by Box–Muller on the modelled NeuronCore, from exactly the words and pairs
/// trnrand::normal(s, out, mean, stddev) uses (u1 ∈ (0, 1] from word 2p, u2 ∈ [0, 1) from word 2p + 1,
/// cosine half to out[2p], sine half to out[2p + 1]; an odd count consumes the last pair). The uniforms are
/// formed as fill_uniform does (bit-identical to host); then ScalarEngine activations r = √(−2·ln u1)
/// (ln, then sqrt with the affine pre-scale −2, exact) and cos/sin(fl32(2π)·u2), VectorEngine products
/// r·cos, r·sin, ·stddev, +mean — every instruction rounded to fp32.
///
/// Not the host's bits: the host evaluates Box–Muller in double and rounds once; here each of the six
/// steps rounds to fp32 as the engines do (and the argument 2π·u2 is itself rounded), so values differ from
/// trnrand::normal in the last bits. Tested bound: |sim − host| ≤ 2^-24·(22·stddev·r + 4·|mean|) + 2^-24·|host|
/// with r = √(−2 ln u1) ≤ 5.77. The law is tested by Kolmogorov–Smirnov against Φ.
/// @throws trncore::InvalidArgument unless mean is finite and stddev finite and ≥ 0;
///         trncore::ResourceExhausted as fill_uniform.
Stream normal(Stream s, std::span<float> out, float mean, float stddev, trncore::sim::NeuronCore& core);

}  // namespace trnrand::sim
