#pragma once
// Helpers shared by the NeuronCore model tests: values exact in a tile type (with the special values the
// engines must carry), HBM buffers, bitwise comparison.
#include <trncore/format.hpp>
#include <trncore/sim/neuron_core.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace sim_test {

using namespace trncore::sim;

/// x rounded to nearest-even in t (t a float type), through trncore's encode/decode.
inline float round_to(DType t, double x) {
  const auto& f = format_of(t);
  return static_cast<float>(trncore::decode(f, trncore::encode(f, x, trncore::Rounding{})));
}

/// n values exact in `t`: normal(0, 1) draws with subnormals of the format, −0 and, when asked, inf and
/// NaN sprinkled in (fp8_e4m3 has no inf, so its "inf" becomes NaN).
inline std::vector<float> random_values(std::size_t n, DType t, std::uint64_t seed, bool specials) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> pick(0, 99);
  const double tiny = std::ldexp(1.0, format_of(t).emin() - 2);  // a subnormal of the format
  std::vector<float> v(n);
  for (auto& x : v) {
    const int r = pick(rng);
    double y = normal(rng);
    if (r < 3)
      y = tiny * (r + 1);
    else if (r == 3)
      y = -0.0;
    else if (specials && r == 4)
      y = std::numeric_limits<double>::infinity();
    else if (specials && r == 5)
      y = std::numeric_limits<double>::quiet_NaN();
    x = round_to(t, y);
  }
  return v;
}

inline HbmBuffer hbm(std::string name, DType t, std::vector<float> values) {
  HbmBuffer b;
  b.name = std::move(name);
  b.type = t;
  b.values = std::move(values);
  return b;
}

inline std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }

/// Equal bits, or both NaN (for results whose NaN payload the model does not define).
inline bool same_value(float a, float b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }

/// A tile of `core` filled by DMA from `values` (row-major, partitions × free).
inline Tile load(NeuronCore& core, const std::string& name, std::int64_t partitions, std::int64_t free_size, DType t,
                 const std::vector<float>& values) {
  Tile tile = core.sbuf(name, partitions, free_size, t);
  core.dma_to_tile(tile, hbm(name, t, values), 0, free_size);
  return tile;
}

}  // namespace sim_test
