// The modelled scale-out of HPL-MxP and of the kernel randomized SVD (scaling_model.hpp): compute from the
// NeuronCore spec table, communication from trncore's chip-to-chip link model. Modelled, never measured.
#include <trnsolver/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>
#include <trncore/sim/spec.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace trnsolver {

namespace {

using trncore::InvalidArgument;
using trncore::sim::Collective;
using trncore::sim::Generation;

bool valid(Generation g) noexcept { return g == Generation::trn1 || g == Generation::trn2 || g == Generation::trn3; }

std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept { return (a + b - 1) / b; }

// One chip's rates, from the spec table (per core × cores per chip).
struct Chip {
  double tensor_bf16;  // FLOP/s on full 128x128x512 tiles (the spec rate × tile efficiency)
  double tensor_fp32;  // FLOP/s for fp32 inputs, same efficiency
  double vector;       // fp32 element ops/s of all VectorEngines
  double vector_core;  // one core's VectorEngine
  double scalar;       // ScalarEngine element ops/s of all cores
  double hbm;          // bytes/s
  double entries;      // TensorEngine output entries/s of a short-contraction pass (128 per cycle per core)
  double cores;
  double tile_efficiency;
};

Chip chip(Generation g) {
  const trncore::sim::GenerationSpec& s = trncore::sim::spec(g);
  const double cores = trncore::sim::topology(g).cores_per_chip.value;
  const double n = static_cast<double>(s.max_n);
  const double eff = n / (n + s.instruction_overhead_cycles);
  return {cores * s.tensor_flops_bf16 * eff,
          cores * s.tensor_flops_fp32 * eff,
          cores * s.vector_flops,
          s.vector_flops,
          cores * s.scalar_flops,
          cores * s.hbm_bytes_per_s,
          cores * static_cast<double>(s.max_m) * s.clock_hz * eff,
          cores,
          eff};
}

double coll(Collective c, double bytes, std::int64_t chips, std::int64_t span, Generation g) {
  if (chips <= 1 || bytes <= 0.0) return 0.0;  // one chip, or nothing to send (an empty panel): no message
  return trncore::sim::collective_cost(c, static_cast<std::int64_t>(std::llround(bytes)), {chips, span}, g).seconds;
}

// trncore::mpi::ordered_sum of `blocks` partials of `block_bytes` over a group (zero-byte collectives still
// pay their latency, as the routine calls them).
double ordered_sum(std::int64_t blocks, double block_bytes, std::int64_t chips, std::int64_t span, Generation g) {
  if (chips <= 1) return 0.0;
  return trncore::sim::ordered_sum_cost(blocks, static_cast<std::int64_t>(std::llround(block_bytes)), {chips, span}, g)
      .seconds;
}

void require(bool ok, const char* function, const std::string& problem, const std::string& hint) {
  if (!ok) throw InvalidArgument(function, problem, hint);
}

std::string num(double v) {
  char b[48];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

void check_hpl(const char* f, const HplMxpModelOptions& o) {
  require(valid(o.generation), f,
          "options.generation value " + std::to_string(static_cast<int>(o.generation)) + " is not a Generation",
          "pass Generation::trn1, trn2 or trn3");
  require(o.block >= 1, f, "options.block = " + std::to_string(o.block) + " is below 1", "pass a block size >= 1");
  require(o.refinement_iterations >= 0, f,
          "options.refinement_iterations = " + std::to_string(o.refinement_iterations) + " is negative",
          "pass 0 or more GMRES-IR iterations");
  require(std::isfinite(o.fp64_emulation_ops) && o.fp64_emulation_ops > 0, f,
          "options.fp64_emulation_ops = " + num(o.fp64_emulation_ops) + " is not positive and finite",
          "pass the fp32 ops per emulated fp64 flop (e.g. 20)");
  require(std::isfinite(o.bytes_per_entry) && o.bytes_per_entry > 0, f,
          "options.bytes_per_entry = " + num(o.bytes_per_entry) + " is not positive and finite",
          "pass the bytes held per matrix entry (e.g. 10)");
  require(std::isfinite(o.memory_fraction) && o.memory_fraction > 0 && o.memory_fraction <= 1, f,
          "options.memory_fraction = " + num(o.memory_fraction) + " is outside (0, 1]",
          "pass the fraction of device memory the matrix may use");
}

void check_rsvd(const char* f, const KernelRsvdModelOptions& o) {
  require(valid(o.generation), f,
          "options.generation value " + std::to_string(static_cast<int>(o.generation)) + " is not a Generation",
          "pass Generation::trn1, trn2 or trn3");
  require(o.rank >= 1, f, "options.rank = " + std::to_string(o.rank) + " is below 1", "pass k >= 1");
  require(o.oversampling >= 0, f, "options.oversampling = " + std::to_string(o.oversampling) + " is negative",
          "pass p >= 0");
  require(o.power_iterations >= 0, f,
          "options.power_iterations = " + std::to_string(o.power_iterations) + " is negative", "pass q >= 0");
  require(o.dimension >= 1 && o.dimension <= 126, f,
          "options.dimension = " + std::to_string(o.dimension) + " is outside [1, 126]",
          "the augmented coordinates (d + 2) must fit the TensorEngine's 128 partitions");
  require(o.block_rows >= 1, f, "options.block_rows = " + std::to_string(o.block_rows) + " is below 1",
          "pass the rows of a reduction block (>= 1)");
  require(o.refine_passes >= 1, f, "options.refine_passes = " + std::to_string(o.refine_passes) + " is below 1",
          "pass the TensorEngine passes of the refinement mode (compensated: 21)");
  require(std::isfinite(o.host_flops) && o.host_flops > 0, f,
          "options.host_flops = " + num(o.host_flops) + " is not positive and finite",
          "pass the host fp64 FLOP/s per chip (e.g. 1e11)");
}

void check_sizes(const char* f, std::int64_t n, std::int64_t chips) {
  require(n >= 1, f, "n = " + std::to_string(n) + " is below 1", "pass the problem's order (>= 1)");
  require(chips >= 1, f, "chips = " + std::to_string(chips) + " is below 1", "pass at least one chip");
}

// Local extent of a block-cyclic dimension of m entries over `procs` processes: the busiest one's.
std::int64_t local_extent(std::int64_t m, std::int64_t nb, std::int64_t procs) noexcept {
  return std::min(m, ceil_div(ceil_div(m, nb), procs) * nb);
}

// HPL-MxP time split into compute and communication, no efficiency.
ScalingRow hpl_raw(std::int64_t n, std::int64_t chips, const HplMxpModelOptions& o) {
  const Chip c = chip(o.generation);
  const auto [p_rows, q_cols] = square_grid(chips);
  const std::int64_t col_span = (p_rows - 1) * q_cols + 1;  // a process column placed row by row
  const Generation g = o.generation;
  const std::int64_t nb = o.block;
  ScalingRow r;
  r.chips = chips;
  r.grid_rows = p_rows;
  r.grid_cols = q_cols;
  r.n = n;
  const double dn = static_cast<double>(n);
  r.flops = 2.0 / 3.0 * dn * dn * dn + 2.0 * dn * dn;

  // The LU: per block step, the diagonal block on one core's VectorEngine, panel solves and trailing update
  // on the TensorEngines; broadcasts of the diagonal block and the panels.
  double compute = 0.0, comm = 0.0;
  const std::int64_t steps = ceil_div(n, nb);
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t b = std::min(nb, n - k * nb);
    const std::int64_t m = n - k * nb - b;
    const double db = static_cast<double>(b);
    const double rows = static_cast<double>(local_extent(m, nb, p_rows));
    const double cols = static_cast<double>(local_extent(m, nb, q_cols));
    compute += (2.0 / 3.0 * db * db * db) / c.vector_core;
    compute += (2.0 * rows * cols * db + rows * db * db + db * db * cols) / c.tensor_bf16;
    comm += coll(Collective::broadcast, 2.0 * db * db, q_cols, q_cols, g);
    comm += coll(Collective::broadcast, 2.0 * db * db, p_rows, col_span, g);
    comm += coll(Collective::broadcast, 2.0 * rows * db, q_cols, q_cols, g);
    comm += coll(Collective::broadcast, 2.0 * db * cols, p_rows, col_span, g);
  }

  // GMRES-IR in fp64 (emulated on the VectorEngines) on replicated vectors, the LU as preconditioner, as
  // trnsolver_mpi runs it: the residual's partial products summed in block order along the process row
  // (ordered_sum) and allgathered along the column; each LU solve 2·⌈n/nb⌉ block steps, each an ordered_sum
  // of the eliminated blocks' products along the process row, the diagonal block's solve on its owner and a
  // broadcast of the solved piece to every chip.
  const double rows_n = static_cast<double>(local_extent(n, nb, p_rows));
  const double cols_n = static_cast<double>(local_extent(n, nb, q_cols));
  const double entries = rows_n * cols_n;
  double lu_solve_comm = 0.0, lu_solve_serial = 0.0;
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t kb = std::min(nb, n - k * nb);
    const double dkb = static_cast<double>(kb);
    lu_solve_serial += 2.0 * dkb * dkb / c.vector_core;  // the diagonal block's L and U solves
    if (chips == 1) continue;
    for (std::int64_t eliminated : {k, steps - 1 - k})  // forward (L) and backward (U) substitution
      lu_solve_comm += ordered_sum(eliminated, 8.0 * dkb, q_cols, q_cols, g) +
                       coll(Collective::broadcast, 8.0 * dkb, chips, chips, g);
  }
  const double matvec_comm =
      chips == 1 ? 0.0
                 : ordered_sum(steps, 8.0 * rows_n, q_cols, q_cols, g) +
                       coll(Collective::allgather, 8.0 * rows_n * static_cast<double>(p_rows), p_rows, col_span, g);
  for (std::int64_t j = 1; j <= o.refinement_iterations; ++j) {
    const double dj = static_cast<double>(j);
    compute += std::max(8.0 * entries / c.hbm, 2.0 * entries * o.fp64_emulation_ops / c.vector);  // residual
    compute += std::max(2.0 * entries / c.hbm, 2.0 * entries / c.vector) + lu_solve_serial;       // LU solve
    compute += 4.0 * (dj + 1.0) * dn * o.fp64_emulation_ops / c.vector;  // Gram-Schmidt, replicated
    comm += matvec_comm + lu_solve_comm;
  }
  r.compute_seconds = compute;
  r.comm_seconds = comm;
  r.total_seconds = compute + comm;
  r.tflops_per_chip = r.flops / (static_cast<double>(chips) * r.total_seconds) / 1e12;
  return r;
}

ScalingRow rsvd_raw(std::int64_t n, std::int64_t chips, const KernelRsvdModelOptions& o) {
  const Chip c = chip(o.generation);
  const Generation g = o.generation;
  const std::int64_t l = o.rank + o.oversampling;
  const double dl = static_cast<double>(l);
  const double dn = static_cast<double>(n);
  const double rows = static_cast<double>(ceil_div(n, chips));
  const double entries = rows * dn;
  const double q = static_cast<double>(o.power_iterations);
  ScalingRow r;
  r.chips = chips;
  r.grid_rows = chips;
  r.grid_cols = 1;
  r.n = n;
  const double bf16_products = 2.0 + 2.0 * q;
  const double refined_products = o.refine ? 3.0 : 0.0;
  r.flops = (bf16_products + refined_products) * 2.0 * dn * dn * dl;

  // Products with K, each re-forming the chip's rows of K.
  const double gemm = 2.0 * entries * dl / c.tensor_bf16;
  const double bf16_product = std::max(entries / c.entries + gemm, entries / c.scalar);
  const double refined_product =
      std::max({static_cast<double>(o.refine_passes) * gemm,
                3.0 * static_cast<double>(o.dimension) * entries / c.vector, entries / c.scalar});
  double compute = bf16_products * bf16_product + refined_products * refined_product;
  // CholeskyQR2 of each basis: 1 + 2q in the range finder, 2 in the refinement; Gram and triangular solve on
  // the TensorEngine at the fp32 rate, Cholesky on the host; plus the final Gram, SVD and basis update.
  const double orths = 1.0 + 2.0 * q + (o.refine ? 2.0 : 0.0);
  const double gram = 2.0 * rows * dl * dl / c.tensor_fp32;
  const double trsm = rows * dl * dl / c.tensor_fp32;
  const double chol = dl * dl * dl / 3.0 / o.host_flops;
  compute += orths * 2.0 * (gram + trsm + chol);
  compute += gram + chol + 22.0 * dl * dl * dl / o.host_flops + 2.0 * gram;

  // Communication: the points once, the basis before every product but the first, the ordered Gram reductions.
  double comm = coll(Collective::allgather, dn * static_cast<double>(o.dimension) * 8.0, chips, chips, g);
  comm += (1.0 + 2.0 * q) * coll(Collective::allgather, dn * dl * 2.0, chips, chips, g);
  comm += refined_products * coll(Collective::allgather, dn * dl * 4.0, chips, chips, g);
  comm += (orths * 2.0 + 1.0) * ordered_sum(ceil_div(n, o.block_rows), dl * dl * 8.0, chips, chips, g);
  r.compute_seconds = compute;
  r.comm_seconds = comm;
  r.total_seconds = compute + comm;
  r.tflops_per_chip = r.flops / (static_cast<double>(chips) * r.total_seconds) / 1e12;
  return r;
}

std::vector<std::int64_t> chip_list(std::span<const std::int64_t> chips, const char* f) {
  std::vector<std::int64_t> list(chips.begin(), chips.end());
  if (list.empty()) list = default_chip_counts();
  for (std::int64_t p : list)
    require(p >= 1, f, "chips contains " + std::to_string(p) + " (below 1)", "pass chip counts >= 1");
  return list;
}

std::vector<std::string> link_assumptions(Generation g) {
  const trncore::sim::TopologySpec& t = trncore::sim::topology(g);
  std::vector<std::string> a;
  a.push_back("system: " + std::string(t.system) +
              "; chips placed consecutively, a group limited by the slowest "
              "tier it spans (trncore/sim/collectives.hpp)");
  for (const trncore::sim::LinkSpec* l : {&t.instance, &t.ultraserver, &t.efa}) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s tier: %s: %.4g GB/s per chip (%s) x %.2g usable each way (%s), latency %.3g us (%s)",
                  std::string(trncore::sim::to_string(l->tier)).c_str(), std::string(l->name).c_str(),
                  l->bandwidth.value / 1e9, std::string(trncore::sim::to_string(l->bandwidth.provenance)).c_str(),
                  l->usable_fraction.value, std::string(trncore::sim::to_string(l->usable_fraction.provenance)).c_str(),
                  l->latency.value * 1e6, std::string(trncore::sim::to_string(l->latency.provenance)).c_str());
    a.push_back(line);
  }
  const Chip c = chip(g);
  char line[256];
  std::snprintf(line, sizeof line,
                "chip: %.0f NeuronCores (published); TensorEngine bf16 %.4g TFLOP/s per chip = spec rate x %.3f tile "
                "efficiency (512 / (512 + 64-cycle instruction overhead, an estimate))",
                c.cores, c.tensor_bf16 / 1e12, c.tile_efficiency);
  a.push_back(line);
  a.push_back(
      "compute and communication not overlapped (total = compute + comm); collectives' reduction arithmetic, "
      "hop counts and link contention ignored");
  return a;
}

}  // namespace

std::int64_t hpl_mxp_memory_order(std::int64_t chips, const HplMxpModelOptions& options) {
  const char* f = "trnsolver::hpl_mxp_memory_order";
  check_hpl(f, options);
  require(chips >= 1, f, "chips = " + std::to_string(chips) + " is below 1", "pass at least one chip");
  const double bytes = static_cast<double>(chips) * options.memory_fraction * device_memory_bytes(options.generation);
  const auto n = static_cast<std::int64_t>(std::sqrt(bytes / options.bytes_per_entry));
  return std::max(options.block, n / options.block * options.block);
}

ScalingRow model_hpl_mxp(std::int64_t n, std::int64_t chips, const HplMxpModelOptions& options) {
  const char* f = "trnsolver::model_hpl_mxp";
  check_hpl(f, options);
  check_sizes(f, n, chips);
  ScalingRow r = hpl_raw(n, chips, options);
  const double one = chips == 1 ? r.total_seconds : hpl_raw(n, 1, options).total_seconds;
  r.efficiency = one / (static_cast<double>(chips) * r.total_seconds);
  return r;
}

ScalingRow model_kernel_rsvd(std::int64_t n, std::int64_t chips, const KernelRsvdModelOptions& options) {
  const char* f = "trnsolver::model_kernel_rsvd";
  check_rsvd(f, options);
  check_sizes(f, n, chips);
  require(options.rank + options.oversampling <= n, f,
          "l = rank + oversampling = " + std::to_string(options.rank + options.oversampling) +
              " exceeds n = " + std::to_string(n),
          "pass a smaller rank or oversampling, or a larger n");
  ScalingRow r = rsvd_raw(n, chips, options);
  const double one = chips == 1 ? r.total_seconds : rsvd_raw(n, 1, options).total_seconds;
  r.efficiency = one / (static_cast<double>(chips) * r.total_seconds);
  return r;
}

ScalingTable hpl_mxp_scaling(ScalingKind kind, std::span<const std::int64_t> chips, std::int64_t n,
                             const HplMxpModelOptions& options) {
  const char* f = "trnsolver::hpl_mxp_scaling";
  check_hpl(f, options);
  require(n >= 0, f, "n = " + std::to_string(n) + " is negative", "pass 0 (the size that fits one chip) or n >= 1");
  require(kind == ScalingKind::strong || kind == ScalingKind::weak, f,
          "kind value " + std::to_string(static_cast<int>(kind)) + " is not a ScalingKind", "pass strong or weak");
  const std::vector<std::int64_t> list = chip_list(chips, f);
  const std::int64_t n1 = n == 0 ? hpl_mxp_memory_order(1, options) : n;
  ScalingTable t;
  t.kind = kind;
  t.generation = options.generation;
  t.title = std::string("HPL-MxP (bf16 LU without pivoting + fp64 GMRES-IR), ") +
            (kind == ScalingKind::strong ? "strong scaling, n = " + std::to_string(n1)
                                         : "weak scaling, n = floor(sqrt(chips) * " + std::to_string(n1) +
                                               " / nb) * nb (memory per chip fixed)") +
            ", nb = " + std::to_string(options.block);
  for (std::int64_t p : list) {
    std::int64_t np = n1;
    if (kind == ScalingKind::weak)
      np = std::max(options.block,
                    static_cast<std::int64_t>(std::sqrt(static_cast<double>(p)) * static_cast<double>(n1) /
                                              static_cast<double>(options.block)) *
                        options.block);
    t.rows.push_back(model_hpl_mxp(np, p, options));
  }
  t.assumptions = link_assumptions(options.generation);
  t.assumptions.push_back(
      "LU: right-looking, no look-ahead; diagonal block factored on one NeuronCore's VectorEngine (the serial "
      "critical path); diagonal block, L and U panels broadcast in bf16 along process rows/columns; P x Q = the "
      "most square grid, placed row by row (a process column spans the machine)");
  t.assumptions.push_back(
      "GMRES-IR: " + std::to_string(options.refinement_iterations) +
      " iterations (estimate); fp64 emulated on the VectorEngines (double-fp32, " + num(options.fp64_emulation_ops) +
      " fp32 ops per fp64 flop: an estimate), fp64 matrix in device memory (memory bound); vectors replicated as "
      "trnsolver_mpi runs it: residual partials reduced in block order along rows (ordered_sum) and allgathered "
      "along columns; each triangular-solve block step an ordered_sum along the row + a broadcast to all chips "
      "(latency bound)");
  t.assumptions.push_back("memory: " + num(options.bytes_per_entry) +
                          " bytes per entry (bf16 factors + fp64 matrix), " + num(options.memory_fraction) + " of " +
                          num(device_memory_bytes(options.generation) / (1024.0 * 1024.0 * 1024.0)) +
                          " GiB per chip (published)");
  t.assumptions.push_back("credited work 2/3 n^3 + 2 n^2 (HPL-MxP's rule)");
  return t;
}

ScalingTable kernel_rsvd_scaling(ScalingKind kind, std::span<const std::int64_t> chips, std::int64_t n,
                                 const KernelRsvdModelOptions& options) {
  const char* f = "trnsolver::kernel_rsvd_scaling";
  check_rsvd(f, options);
  require(n >= 0, f, "n = " + std::to_string(n) + " is negative", "pass 0 (the default size) or n >= 1");
  require(kind == ScalingKind::strong || kind == ScalingKind::weak, f,
          "kind value " + std::to_string(static_cast<int>(kind)) + " is not a ScalingKind", "pass strong or weak");
  const std::vector<std::int64_t> list = chip_list(chips, f);
  const std::int64_t n1 = n != 0 ? n : kind == ScalingKind::strong ? 1'000'000 : 83'334;
  const std::int64_t l = options.rank + options.oversampling;
  ScalingTable t;
  t.kind = kind;
  t.generation = options.generation;
  t.title = "rsvd of the n x n Gaussian kernel matrix (k = " + std::to_string(options.rank) +
            ", l = " + std::to_string(l) + ", q = " + std::to_string(options.power_iterations) +
            ", d = " + std::to_string(options.dimension) +
            (options.refine ? ", bf16 + compensated refinement to fp32" : ", bf16") + "), " +
            (kind == ScalingKind::strong
                 ? "strong scaling, n = " + std::to_string(n1)
                 : "weak scaling, n = floor(sqrt(chips) * " + std::to_string(n1) + ") (work per chip fixed)");
  for (std::int64_t p : list) {
    const std::int64_t np =
        kind == ScalingKind::strong
            ? n1
            : static_cast<std::int64_t>(std::sqrt(static_cast<double>(p)) * static_cast<double>(n1));
    t.rows.push_back(model_kernel_rsvd(np, p, options));
  }
  t.assumptions = link_assumptions(options.generation);
  t.assumptions.push_back(
      "kernel formed block by block every product, never stored: squared distances as one TensorEngine pass of "
      "augmented coordinates (128 entries per cycle per core), exp on the ScalarEngine; sketch GEMMs on the "
      "TensorEngine; rows (points) split evenly over the chips");
  t.assumptions.push_back(
      "Omega from counter-based streams where needed (no communication); points allgathered once; every later "
      "product allgathers the basis (bf16 in the range finder, fp32 in the refinement); CholeskyQR2 with one fp64 "
      "Gram partial per block of " +
      std::to_string(options.block_rows) +
      " rows reduced in block order (ordered_sum: all_to_all + allgather); l x l Cholesky and SVD replicated on "
      "the host at " +
      num(options.host_flops / 1e9) + " GFLOP/s per chip (an estimate)");
  if (options.refine)
    t.assumptions.push_back("refinement to fp32 accuracy: 3 products (one subspace iteration + the projection) at " +
                            std::to_string(options.refine_passes) +
                            " TensorEngine passes (MathMode::compensated), distances in fp32 on the VectorEngine");
  t.assumptions.push_back("credited work: products x 2 n^2 l (each product once, whatever its passes)");
  return t;
}

}  // namespace trnsolver
