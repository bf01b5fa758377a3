// The modelled scale-out's shared table types and helpers (scaling.hpp).
#include <trncore/error.hpp>
#include <trncore/sim/scaling.hpp>

#include <cmath>
#include <cstdio>
#include <string>

namespace trncore::sim {

std::vector<std::int64_t> default_chip_counts() { return {1, 2, 4, 8, 16, 32, 64, 128, 144}; }

std::pair<std::int64_t, std::int64_t> square_grid(std::int64_t chips) {
  if (chips < 1)
    throw InvalidArgument("trncore::sim::square_grid", "chips = " + std::to_string(chips) + " is below 1",
                          "pass at least one chip");
  std::int64_t p = static_cast<std::int64_t>(std::sqrt(static_cast<double>(chips)));
  while (p * p > chips) --p;
  while ((p + 1) * (p + 1) <= chips) ++p;
  while (chips % p != 0) --p;
  return {p, chips / p};
}

double device_memory_bytes(Generation generation) {
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  switch (generation) {
    case Generation::trn1: return 32 * kGiB;
    case Generation::trn2: return 96 * kGiB;
    case Generation::trn3: return 144 * kGiB;
  }
  throw InvalidArgument("trncore::sim::device_memory_bytes",
                        "generation value " + std::to_string(static_cast<int>(generation)) + " is not a Generation",
                        "pass Generation::trn1, trn2 or trn3");
}

std::string ScalingTable::to_string() const {
  std::string out =
      "modelled (not measured) on " + std::string(trncore::sim::to_string(generation)) + ": " + title + "\n";
  out += "  chips     grid          n   compute s      comm s     total s  TFLOP/s/chip  efficiency\n";
  for (const ScalingRow& r : rows) {
    char grid[48], line[200];
    std::snprintf(grid, sizeof grid, "%lldx%lld", static_cast<long long>(r.grid_rows),
                  static_cast<long long>(r.grid_cols));
    std::snprintf(line, sizeof line, "  %5lld %8s %10lld %11.4g %11.4g %11.4g %13.4g %11.3f\n",
                  static_cast<long long>(r.chips), grid, static_cast<long long>(r.n), r.compute_seconds, r.comm_seconds,
                  r.total_seconds, r.tflops_per_chip, r.efficiency);
    out += line;
  }
  out += "  assumptions (modelled; figures labelled published / derived / estimated):\n";
  for (const std::string& a : assumptions) out += "  - " + a + "\n";
  return out;
}

}  // namespace trncore::sim
