#pragma once
/// @file
/// trnrand's sim backend: the generators as GpSimdEngine integer work on trncore's NeuronCore model,
/// producing exactly the host's bits, with the engine statistics of the kernel on the core.

#include <trnrand/stream.hpp>
#include <trncore/sim/neuron_core.hpp>

#include <cstdint>
#include <span>

namespace trnrand::sim {

/// fill_uint32 on the modelled NeuronCore: Philox4x32-10 counters laid out on 128 partitions × 512
/// elements per batch (iota), ten rounds of GpSimdEngine multiply_high/multiply_low/xor/add on tiles,
/// and a strided DMA of the four words of each counter to HBM. out is bitwise equal to
/// trnrand::fill_uint32(s, out); the work is added to core.stats(). Returns skip_ahead(s, out.size()).
/// @throws trncore::NotSupported for Threefry4x32-20 (not yet expressed as engine ops);
///         trncore::ResourceExhausted when the core lacks the SBUF for the ~14 working tiles (56 KiB per partition).
Stream fill_uint32(Stream s, std::span<std::uint32_t> out, trncore::sim::NeuronCore& core);

}  // namespace trnrand::sim
