#pragma once
/// @file
/// trnrand's sim backend: the generators as GpSimdEngine integer work on trncore's NeuronCore model,
/// producing exactly the host's bits, and the uniform and normal transforms as Vector/ScalarEngine
/// instructions, with the engine statistics of each kernel on the core.
///
/// The ordinary calls run these kernels with options.backend = trncore::Backend::sim (trnrand::fill_uint32,
/// fill_uint64, fill_uniform(float), normal(float), normal_engine_order; stream.hpp, distributions.hpp),
/// on a core they make and discard, with bitwise the same results. The entry points here, which take a
/// caller's NeuronCore, are for composing your own kernel on a core you own: reading the kernels' engine
/// statistics (core.stats(), core.report()), sharing the core's SBUF with your own tiles, or modelling
/// another core.

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
/// @throws trncore::InvalidArgument when s.generator is not a Generator value;
///         trncore::ResourceExhausted when the core lacks the SBUF for the working tiles (≤ 13 tiles of
///         2 KiB per partition).
Stream fill_uint32(Stream s, std::span<std::uint32_t> out, trncore::sim::NeuronCore& core);

/// fill_uniform (float) on the modelled NeuronCore: the words of fill_uint32 above, then per 128 × 512
/// tile a GpSimdEngine shift_right by 8 and add (1 for open_closed; nothing for closed_open), a VectorEngine
/// integer→fp32 copy (exact: every value is ≤ 2^24) and an exact multiply by 2^-24. Every step is exact, so
/// out is bitwise equal to trnrand::fill_uniform(s, out, interval) (for any thread count of the host fill).
/// Returns skip_ahead(s, out.size()); the work is added to core.stats().
/// @throws trncore::InvalidArgument for an interval that is not an Interval value or a stream whose generator
///         is not a Generator value;
///         trncore::ResourceExhausted when the core lacks the SBUF for the working tiles (at most 13
///         tiles of 2 KiB per partition at a time, as for fill_uint32).
Stream fill_uniform(Stream s, std::span<float> out, Interval interval, trncore::sim::NeuronCore& core);

/// Normal(mean, stddev) floats by Box–Muller on the modelled NeuronCore, from exactly the words
/// trnrand::normal(s, out, mean, stddev) uses (value i: u1 ∈ (0, 1] from word 2i, u2 ∈ [0, 1) from word
/// 2i + 1, the cosine half). Per tile of values: GpSimdEngine k1 = (w_{2i} >> 8) + 1 and m = (w_{2i+1} >> 8)
/// − 2^23; VectorEngine copies to fp32 (exact); ScalarEngine a = ln(2^-24·k1) = ln u1 and r = √(−2a) (exact
/// pre-scales), t = fl(fl(π)·2^-23·m) = 2πu2 − π up to rounding (so |t| ≤ π) as the pre-scale of cos;
/// VectorEngine products cos t·r, ·(−stddev) and + mean — every instruction rounded to fp32, the
/// transcendental ones correctly rounded (trncore/correctly_rounded.hpp).
///
/// Bits: out is bitwise equal to trnrand::normal_engine_order(s, out, mean, stddev) (the same roundings on
/// the host, any thread count). It is not bitwise equal to trnrand::normal, which evaluates Box–Muller in
/// double and rounds once — no sequence of fp32 engine instructions can reproduce that rounding. Accuracy:
/// |out[i] − z_i| ≤ 2^-24·(9.11·stddev·r + |out[i]|) + 2^-147 for z_i the exact Box–Muller value of the
/// same words, r = √(−2 ln u1) ≤ 5.77 (docs/trnrand.md derives it); hence |out[i] − normal()'s value| ≤
/// that + 2^-24·|normal()'s value|. The law is tested by Kolmogorov–Smirnov against Φ. Returns the stream
/// skip_ahead(s, 2n), as normal() does; the work is added to core.stats().
/// @throws trncore::InvalidArgument unless mean is finite and stddev finite and ≥ 0, or for an invalid
///         generator;
///         trncore::ResourceExhausted as fill_uniform.
Stream normal(Stream s, std::span<float> out, float mean, float stddev, trncore::sim::NeuronCore& core);

}  // namespace trnrand::sim
