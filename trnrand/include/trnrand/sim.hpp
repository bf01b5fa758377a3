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

}  // namespace trnrand::sim
