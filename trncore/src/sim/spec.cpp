// Values and sources: docs/numerics.md, "The NeuronCore spec table". Per-core figures are the published
// per-chip figures divided by the chip's NeuronCore count (2 on Trainium, 8 on Trainium2 and Trainium3).
#include <trncore/sim/spec.hpp>

namespace trncore::sim {

namespace {

constexpr double kSystolicMacsPerCycle = 128.0 * 128.0;
constexpr double kKiB = 1024.0;

constexpr GenerationSpec make(Generation g, std::int64_t sbuf_kib, double bf16, double fp8, double fp32, double vector,
                              double scalar, double hbm) {
  return {g,
          128,
          static_cast<std::int64_t>(sbuf_kib * kKiB),
          16 * 1024,
          8,
          128,
          128,
          512,
          bf16 / (2.0 * kSystolicMacsPerCycle),
          bf16,
          fp8,
          fp32,
          vector,
          scalar,
          vector,  // GpSimd: no published rate; assumed equal to the VectorEngine's
          hbm,
          64.0,  // no published figure; an estimate of instruction issue/drain overhead
          ProductModel::bf16};
}

// Trainium (trn1), NeuronCore-v2: chip 190 TFLOPS bf16/fp16/cFP8/tf32, 47.5 TFLOPS fp32, 2 cores, HBM
// 820 GB/s (decimal, as the NKI Trainium/Inferentia2 architecture guide states it); core VectorEngine
// 2.3 TFLOPS, ScalarEngine 2.9 TFLOPS fp32; SBUF 24 MiB = 128 × 192 KiB.
constexpr GenerationSpec kTrn1 = make(Generation::trn1, 192, 95e12, 95e12, 23.75e12, 2.3e12, 2.9e12, 820e9 / 2);
// Trainium2 (trn2), NeuronCore-v3: core 79 TFLOPS bf16/fp16/tf32, 158 TFLOPS cFP8; chip 181 TFLOPS fp32,
// 2.9 TB/s HBM, 8 cores; 28 MiB of on-chip SRAM per core, SBUF 128 × 224 KiB (DESIGN.md §4.2).
constexpr GenerationSpec kTrn2 = make(Generation::trn2, 224, 79e12, 158e12, 181e12 / 8, 2.3e12, 2.9e12, 2.9e12 / 8);
// Trainium3 (trn3), NeuronCore-v4: chip 671 TFLOPS bf16/fp16/tf32, 2517 TFLOPS MXFP8, 183 TFLOPS fp32,
// 4.9 TB/s HBM (the Trainium3 page; the NKI Trainium3 guide says 4.7), 8 cores; SBUF 32 MiB per core
// (NeuronCore-v4 page and NKI Trainium3 guide) = 128 × 256 KiB.
constexpr GenerationSpec kTrn3 =
    make(Generation::trn3, 256, 671e12 / 8, 2517e12 / 8, 183e12 / 8, 2.3e12, 2.9e12, 4.9e12 / 8);

}  // namespace

double tensor_macs_per_cycle(const GenerationSpec& s, const FormatSpec& format) noexcept {
  const double flops = format.width() == 8                                   ? s.tensor_flops_fp8
                       : format.mantissa_bits == formats::fp32.mantissa_bits ? s.tensor_flops_fp32
                                                                             : s.tensor_flops_bf16;
  return flops / 2.0 / s.clock_hz;
}

double vector_elements_per_cycle(const GenerationSpec& s) noexcept { return s.vector_flops / s.clock_hz; }
double scalar_elements_per_cycle(const GenerationSpec& s) noexcept { return s.scalar_flops / s.clock_hz; }
double gpsimd_elements_per_cycle(const GenerationSpec& s) noexcept { return s.gpsimd_ops / s.clock_hz; }

const GenerationSpec& spec(Generation generation) noexcept {
  switch (generation) {
    case Generation::trn1: return kTrn1;
    case Generation::trn3: return kTrn3;
    case Generation::trn2: break;
  }
  return kTrn2;
}

}  // namespace trncore::sim
