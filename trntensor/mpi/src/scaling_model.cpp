// The modelled DF-MP2 scale-out (scaling_model.hpp): every figure modelled, assumptions listed.
#include <trntensor/mpi/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>
#include <trncore/sim/spec.hpp>

#include <cmath>
#include <cstdio>
#include <string>

namespace trntensor::mpi {

namespace {

constexpr const char* kFn = "trntensor::mpi::df_mp2_scaling";

void check(std::int64_t chips, const DfMp2ModelOptions& o) {
  const bool ok = chips >= 1 && o.nocc >= 1 && o.nvir >= 1 && o.naux >= 1 && std::isfinite(o.ozaki_passes) &&
                  o.ozaki_passes > 0 && std::isfinite(o.stage_ops) && o.stage_ops > 0 && o.memory_fraction > 0 &&
                  o.memory_fraction <= 1;
  if (!ok)
    throw trncore::InvalidArgument(kFn,
                                   "chips " + std::to_string(chips) + ", nocc " + std::to_string(o.nocc) + ", nvir " +
                                       std::to_string(o.nvir) + ", naux " + std::to_string(o.naux) + ", ozaki_passes " +
                                       std::to_string(o.ozaki_passes) + ", stage_ops " + std::to_string(o.stage_ops) +
                                       ", memory_fraction " + std::to_string(o.memory_fraction),
                                   "use chips >= 1, sizes >= 1, positive finite rates and 0 < memory_fraction <= 1");
}

std::string num(double x) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", x);
  return s;
}

std::string gib(double bytes) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f GiB", bytes / 1073741824.0);
  return s;
}

}  // namespace

double df_mp2_bytes_per_chip(std::int64_t chips, const DfMp2ModelOptions& o) {
  check(chips, o);
  const double row = static_cast<double>(o.nvir) * static_cast<double>(o.naux) * 8;
  const double own = static_cast<double>((o.nocc + chips - 1) / chips) * row;
  return own + row + static_cast<double>(o.nvir) * static_cast<double>(o.nvir) * 8;
}

std::int64_t df_mp2_min_chips(const DfMp2ModelOptions& o) {
  const double cap = trncore::sim::device_memory_bytes(o.generation) * o.memory_fraction;
  for (std::int64_t p = 1; p <= o.nocc; ++p)
    if (df_mp2_bytes_per_chip(p, o) <= cap) return p;
  return o.nocc + 1;  // even one orbital per chip does not fit
}

trncore::sim::ScalingTable df_mp2_scaling(std::span<const std::int64_t> chips, const DfMp2ModelOptions& o) {
  check(1, o);
  const auto counts =
      chips.empty() ? trncore::sim::default_chip_counts() : std::vector<std::int64_t>(chips.begin(), chips.end());
  const auto& sp = trncore::sim::spec(o.generation);
  const auto& topo = trncore::sim::topology(o.generation);
  const double cores = topo.cores_per_chip.value;
  const double tile_rate = sp.tensor_flops_bf16 * 512.0 / (512.0 + sp.instruction_overhead_cycles) * cores;
  const double npairs = static_cast<double>(o.nocc) * static_cast<double>(o.nocc + 1) / 2;
  const double pair_flops =
      2.0 * static_cast<double>(o.nvir) * static_cast<double>(o.nvir) * static_cast<double>(o.naux);
  const double row_bytes = static_cast<double>(o.nvir) * static_cast<double>(o.naux) * 8;
  const double cap = trncore::sim::device_memory_bytes(o.generation) * o.memory_fraction;
  const auto model = [&](std::int64_t p) {
    check(p, o);
    trncore::sim::ScalingRow r;
    r.chips = p;
    r.grid_rows = p;
    r.n = o.nocc;
    r.flops = npairs * pair_flops;
    const double busiest = std::ceil(npairs / static_cast<double>(p));
    const double products = busiest * pair_flops * o.ozaki_passes / tile_rate;
    const double stage =
        busiest * static_cast<double>(o.nvir) * static_cast<double>(o.nvir) * o.stage_ops / (sp.vector_flops * cores);
    r.compute_seconds = products + stage;
    double comm = 0;
    const auto block = static_cast<std::int64_t>(static_cast<double>((o.nocc + p - 1) / p) * row_bytes);
    for (std::int64_t t = 1; 2 * t <= p; ++t)
      comm += trncore::sim::collective_cost(trncore::sim::Collective::point_to_point, block, {2, t + 1}, o.generation)
                  .seconds;
    if (p > 1)
      comm += trncore::sim::collective_cost(trncore::sim::Collective::allgather, static_cast<std::int64_t>(npairs) * 64,
                                            {p, 0}, o.generation)
                  .seconds;
    r.comm_seconds = comm;
    r.total_seconds = r.compute_seconds + r.comm_seconds;
    r.tflops_per_chip = r.flops / (static_cast<double>(p) * r.total_seconds) / 1e12;
    return r;
  };
  trncore::sim::ScalingTable t;
  t.kind = trncore::sim::ScalingKind::strong;
  t.generation = o.generation;
  const double b_bytes = static_cast<double>(o.nocc) * row_bytes;
  t.title = "DF-MP2 energy (occupied split), strong scaling, nocc " + std::to_string(o.nocc) + ", nvir " +
            std::to_string(o.nvir) + ", naux " + std::to_string(o.naux) + " (B = " + gib(b_bytes) + ") - MODELLED";
  const double one = model(1).total_seconds;
  for (const std::int64_t p : counts) {
    trncore::sim::ScalingRow r = model(p);
    r.efficiency = one / (static_cast<double>(p) * r.total_seconds);
    t.rows.push_back(r);
    const double per = df_mp2_bytes_per_chip(p, o);
    t.assumptions.push_back(std::to_string(p) + " chips: " + gib(per) + " per chip (" +
                            (per <= cap ? "fits" : "does NOT fit") + " " + gib(cap) + " usable)");
  }
  t.assumptions.push_back("fewest chips that hold B: " + std::to_string(df_mp2_min_chips(o)) +
                          " (the one-chip row ignores memory)");
  t.assumptions.push_back("pair products fp64-accurate by Ozaki slicing: " + num(o.ozaki_passes) +
                          " bf16 TensorEngine passes per product (estimate), bf16 rate x 512/(512 + instruction "
                          "overhead) per core, " +
                          std::to_string(static_cast<int>(cores)) + " cores per chip");
  t.assumptions.push_back("energy stage: " + num(o.stage_ops) +
                          " VectorEngine fp32 ops per (a, b) term (estimate: float-float terms and sums)");
  t.assumptions.push_back(
      "communication: floor(p/2) exchange steps, each chip's B block point to point to the chip t "
      "places away (tier of a span of t + 1 chips), then an allgather of 64-byte pair records; "
      "trncore::sim::collective_cost alpha-beta figures (published bandwidths, estimated "
      "latencies and usable fractions)");
  t.assumptions.push_back("no overlap of compute and communication; pairs balanced (busiest chip ceil(pairs/p))");
  return t;
}

}  // namespace trntensor::mpi
