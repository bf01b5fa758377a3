// The modelled scale-out of the distributed 1-D FFT (scaling_model.hpp).
#include <trnfft/mpi/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>
#include <trncore/sim/spec.hpp>

#include "plan_support.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace trnfft::mpi {

namespace {

void check(const char* function, std::int64_t n, std::int64_t chips, const FftModelOptions& o) {
  if (n < 2 || chips < 1 || o.radix < 2 || !(o.bytes_per_point > 0) || !std::isfinite(o.bytes_per_point))
    throw trncore::InvalidArgument(function,
                                   "n = " + std::to_string(n) + ", chips = " + std::to_string(chips) +
                                       ", radix = " + std::to_string(o.radix) +
                                       ", bytes_per_point = " + std::to_string(o.bytes_per_point),
                                   "pass n ≥ 2, chips ≥ 1, radix ≥ 2 and a positive finite bytes_per_point");
}

// One FFT stage of length m over `points` points: s GEMM passes of radix ⌈m^{1/s}⌉.
double stage_seconds(std::int64_t m, double points, const FftModelOptions& o, double tensor, double hbm) {
  if (m <= 1) return 0.0;
  const auto s = static_cast<std::int64_t>(
      std::ceil(std::log(static_cast<double>(m)) / std::log(static_cast<double>(o.radix)) - 1e-12));
  const auto passes = std::max<std::int64_t>(1, s);
  const double radix = std::ceil(std::pow(static_cast<double>(m), 1.0 / static_cast<double>(passes)) - 1e-9);
  const double per_pass = std::max(8.0 * radix * points / tensor, 2.0 * points * o.bytes_per_point / hbm);
  return static_cast<double>(passes) * per_pass;
}

}  // namespace

trncore::sim::ScalingRow model_fft_1d(std::int64_t n, std::int64_t chips, const FftModelOptions& options) {
  check("trnfft::mpi::model_fft_1d", n, chips, options);
  const auto& core = trncore::sim::spec(options.generation);
  const auto& topo = trncore::sim::topology(options.generation);
  const double cores = topo.cores_per_chip.value;
  const double tensor = core.tensor_flops_fp32 * cores, vector = core.vector_flops * cores,
               hbm = core.hbm_bytes_per_s * cores;
  const auto n0 = detail::default_n0(n), n1 = n / n0;
  const double points = std::ceil(static_cast<double>(n) / static_cast<double>(chips));  // busiest chip
  const double bytes = points * options.bytes_per_point;
  trncore::sim::ScalingRow row;
  row.chips = chips;
  row.grid_rows = chips;
  row.grid_cols = 1;
  row.n = n;
  row.flops = 5.0 * static_cast<double>(n) * std::log2(static_cast<double>(n));
  row.compute_seconds =
      stage_seconds(n0, points, options, tensor, hbm) + stage_seconds(n1, points, options, tensor, hbm) +
      std::max(6.0 * points / vector, 2.0 * bytes / hbm) + 3.0 * (chips > 1 ? 2.0 * bytes / hbm : 0.0);
  if (chips > 1) {
    const auto a2a = trncore::sim::collective_cost(trncore::sim::Collective::all_to_all,
                                                   static_cast<std::int64_t>(bytes), {chips, 0}, options.generation);
    row.comm_seconds = 3.0 * a2a.seconds;
  }
  row.total_seconds = row.compute_seconds + row.comm_seconds;
  row.tflops_per_chip = row.flops / (static_cast<double>(chips) * row.total_seconds) / 1e12;
  if (chips == 1) {
    row.efficiency = 1.0;
  } else {
    const auto one = model_fft_1d(n, 1, options);
    row.efficiency = one.total_seconds / (static_cast<double>(chips) * row.total_seconds);
  }
  return row;
}

trncore::sim::ScalingTable fft_1d_scaling(std::span<const std::int64_t> chips, std::int64_t n,
                                          const FftModelOptions& options) {
  const auto counts =
      chips.empty() ? trncore::sim::default_chip_counts() : std::vector<std::int64_t>(chips.begin(), chips.end());
  trncore::sim::ScalingTable t;
  t.title = "trnfft_mpi distributed 1-D FFT (six-step, three all-to-alls), strong scaling, N = " + std::to_string(n) +
            " complex points (modelled)";
  t.kind = trncore::sim::ScalingKind::strong;
  t.generation = options.generation;
  for (auto p : counts) t.rows.push_back(model_fft_1d(n, p, options));
  const auto n0 = detail::default_n0(n);
  t.assumptions = {
      "MODELLED, not measured: first-order alpha-beta communication and engine-rate compute",
      "algorithm: fft1d.hpp's six-step FFT, N = n0 x n1 with n0 = " + std::to_string(n0) +
          ", n1 = " + std::to_string(n / n0) + "; points spread evenly (busiest chip rounded up)",
      "communication: 3 all-to-alls of N*" + std::to_string(static_cast<int>(options.bytes_per_point)) +
          "/p bytes per chip, trncore::sim::collective_cost (automatic algorithm; link latencies and usable "
          "fractions are estimates: docs/distributed.md)",
      "local FFT stages as DFT-as-GEMM passes of radix <= " + std::to_string(options.radix) +
          " at the TensorEngine fp32 rate (8*radix flops per point per pass; estimate of the sim backend's method)",
      "each pass, the twiddle pass (6 VectorEngine flops per point) and each all-to-all's pack/unpack moves the "
      "chip's points through HBM once each way; a pass costs max(engine time, HBM time); no overlap",
      "compute and communication not overlapped; credited work 5*N*log2(N)",
      "memory per chip about 3*N*bytes/p (data and two work buffers): 2^30 complex fp32 points need 24 GiB on one "
      "chip"};
  return t;
}

}  // namespace trnfft::mpi
