// The modelled scale-out of distributed sparse CG (scaling_model.hpp). Modelled, never measured.
#include <trnsparse/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>
#include <trncore/sim/spec.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace trnsparse {

namespace {

using trncore::InvalidArgument;
using trncore::sim::Collective;
using trncore::sim::Generation;

void require(bool ok, const char* fn, const std::string& problem, const char* hint) {
  if (!ok) throw InvalidArgument(fn, problem, hint);
}

void check_options(const char* fn, const SparseCgModelOptions& o) {
  require(o.generation == Generation::trn1 || o.generation == Generation::trn2 || o.generation == Generation::trn3, fn,
          "generation value " + std::to_string(static_cast<int>(o.generation)) + " is not a Generation",
          "pass Generation::trn1, trn2 or trn3");
  require(o.rtol > 0 && o.rtol < 1, fn, "rtol = " + std::to_string(o.rtol) + " is outside (0, 1)",
          "pass the relative residual CG runs to, e.g. 1e-6");
  require(o.block_rows >= 1, fn, "block_rows = " + std::to_string(o.block_rows) + " is below 1",
          "pass the Krylov stack's reduction block, 1024");
}

double chip_hbm(Generation g) {
  return trncore::sim::topology(g).cores_per_chip.value * trncore::sim::spec(g).hbm_bytes_per_s;
}

std::int64_t iterations(std::int64_t edge, double rtol) {
  const double kappa = 4.0 * static_cast<double>((edge + 1) * (edge + 1)) / (std::numbers::pi * std::numbers::pi);
  return static_cast<std::int64_t>(std::ceil(0.5 * std::sqrt(kappa) * std::log(2.0 / rtol)));
}

}  // namespace

std::int64_t poisson_edge_for_nonzeros(std::int64_t nonzeros) {
  require(nonzeros >= 1, "trnsparse::poisson_edge_for_nonzeros", "nonzeros = " + std::to_string(nonzeros),
          "pass at least one nonzero");
  std::int64_t n = 1;
  while (7 * n * n * n - 6 * n * n < nonzeros) ++n;
  return n;
}

trncore::sim::ScalingRow model_sparse_cg(std::int64_t edge, std::int64_t chips, const SparseCgModelOptions& options) {
  constexpr const char* fn = "trnsparse::model_sparse_cg";
  check_options(fn, options);
  require(edge >= 2, fn, "edge N = " + std::to_string(edge) + " is below 2", "pass a grid edge N >= 2");
  require(chips >= 1 && chips <= edge, fn,
          "chips = " + std::to_string(chips) + " for N = " + std::to_string(edge) + " z-planes",
          "use 1 <= chips <= N: the slab decomposition gives every chip at least one z-plane");
  const Generation g = options.generation;
  const double n = std::pow(static_cast<double>(edge), 3);
  const double nnz = 7 * n - 6 * static_cast<double>(edge * edge);
  const std::int64_t planes = (edge + chips - 1) / chips;  // the busiest chip's z-planes
  const double rows = static_cast<double>(planes * edge * edge);
  const double nnz_chip = rows * 7;  // interior rows: 7 nonzeros (an upper bound for the busiest chip)
  const double hbm = chip_hbm(g);
  const double spmv_bytes = 8 * nnz_chip + 12 * rows;
  const double update_bytes = 3 * 12 * rows;
  const double compute = (spmv_bytes + update_bytes) / hbm;

  double comm = 0;
  if (chips > 1) {
    const auto plane_bytes = static_cast<std::int64_t>(4 * edge * edge);
    comm += trncore::sim::collective_cost(Collective::point_to_point, plane_bytes, {2, 2}, g).seconds;
    const auto blocks = static_cast<std::int64_t>(std::ceil(n / static_cast<double>(options.block_rows)));
    comm += 3 * trncore::sim::ordered_sum_cost(blocks, 8, {chips, 0}, g).seconds;
  }
  const std::int64_t its = iterations(edge, options.rtol);
  trncore::sim::ScalingRow row;
  row.chips = chips;
  row.grid_rows = chips;
  row.grid_cols = 1;
  row.n = static_cast<std::int64_t>(n);
  row.flops = static_cast<double>(its) * (2 * nnz + 10 * n);
  row.compute_seconds = static_cast<double>(its) * compute;
  row.comm_seconds = static_cast<double>(its) * comm;
  row.total_seconds = row.compute_seconds + row.comm_seconds;
  row.tflops_per_chip = row.flops / (static_cast<double>(chips) * row.total_seconds) / 1e12;
  if (chips == 1) {
    row.efficiency = 1.0;
  } else {
    const auto one = model_sparse_cg(edge, 1, options);
    row.efficiency = one.total_seconds / (static_cast<double>(chips) * row.total_seconds);
  }
  return row;
}

trncore::sim::ScalingTable sparse_cg_scaling(trncore::sim::ScalingKind kind, std::span<const std::int64_t> chips,
                                             std::int64_t edge, const SparseCgModelOptions& options) {
  std::vector<std::int64_t> list(chips.begin(), chips.end());
  if (list.empty()) list = trncore::sim::default_chip_counts();
  const std::int64_t big = poisson_edge_for_nonzeros(1'000'000'000);
  trncore::sim::ScalingTable t;
  t.kind = kind;
  t.generation = options.generation;
  if (kind == trncore::sim::ScalingKind::strong) {
    const std::int64_t e = edge > 0 ? edge : big;
    t.title = "distributed CG on the 7-point Poisson matrix, strong scaling, N = " + std::to_string(e) + " (" +
              std::to_string(7 * e * e * e - 6 * e * e) + " nonzeros)";
    for (auto p : list) t.rows.push_back(model_sparse_cg(e, p, options));
  } else {
    const std::int64_t e1 =
        edge > 0 ? edge : static_cast<std::int64_t>(std::floor(static_cast<double>(big) / std::cbrt(144.0)));
    t.title = "distributed CG on the 7-point Poisson matrix, weak scaling, N(p) = floor(" + std::to_string(e1) +
              " p^(1/3)) (nonzeros per chip fixed)";
    for (auto p : list)
      t.rows.push_back(model_sparse_cg(
          static_cast<std::int64_t>(std::floor(static_cast<double>(e1) * std::cbrt(static_cast<double>(p)) + 1e-9)), p,
          options));
  }
  const auto& topo = trncore::sim::topology(options.generation);
  t.assumptions = {
      "rows distributed in z-slabs (trnsparse_mpi's contiguous row ranges); the busiest chip holds ceil(N/p) planes",
      "SpMV and vector updates memory bound: 8 bytes per nonzero (fp32 value + 32-bit index) + 12 bytes per row, "
      "3 updates of 12 bytes per row, at the chip's HBM bandwidth (spec table, " +
          std::to_string(static_cast<long long>(chip_hbm(options.generation) / 1e9)) + " GB/s per chip)",
      "halo: two N^2 fp32 planes per iteration, point to point with each neighbour (concurrent)",
      "3 reductions per iteration through ordered_sum with one 8-byte piece per 1024-row block "
      "(trncore::sim::ordered_sum_cost: label allgather + all_to_all + allgather)",
      "iterations = ceil(sqrt(kappa)/2 ln(2/rtol)), kappa = 4(N+1)^2/pi^2 (an estimate)",
      "compute and communication not overlapped; link model: " + std::string(topo.system)};
  return t;
}

}  // namespace trnsparse
