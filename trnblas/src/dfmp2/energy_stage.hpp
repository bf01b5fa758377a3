#pragma once
// The VectorEngine half of the sim DF-MP2 kernel: given the pair products (ia|jb) (the TensorEngine half's
// PSUM results), build the denominators and reduce the opposite- and same-spin sums with VectorEngine /
// TensorEngine-transpose instructions on a modelled NeuronCore, in fp32 or in float-float.

#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/generation.hpp>

#include <cstdint>
#include <vector>

namespace trnblas::detail {

/// (ia|jb) for j ≥ i: block i is nvir × (nocc − i)·nvir row-major, element [a][(j − i)·nvir + b].
struct PairProducts {
  std::int64_t nocc = 0;
  std::int64_t nvir = 0;
  std::vector<std::vector<double>> blocks;
  double at(std::int64_t i, std::int64_t j, std::int64_t a, std::int64_t b) const {
    const std::int64_t ld = (nocc - i) * nvir;
    return blocks[static_cast<std::size_t>(i)][static_cast<std::size_t>(a * ld + (j - i) * nvir + b)];
  }
};

/// Calls f(i, j, a, b, w) for every term of the energy sums: i ≤ j with weight w = 1 for i = j and 2 for
/// i < j (the (j, i) terms equal the (i, j) ones), all a, b; in a fixed order.
template <class F>
void for_each_term(const PairProducts& k, F&& f) {
  for (std::int64_t i = 0; i < k.nocc; ++i)
    for (std::int64_t j = i; j < k.nocc; ++j)
      for (std::int64_t a = 0; a < k.nvir; ++a)
        for (std::int64_t b = 0; b < k.nvir; ++b) f(i, j, a, b, i == j ? 1.0 : 2.0);
}

struct StageResult {
  double opposite_spin = 0.0;
  double same_spin = 0.0;
  trncore::sim::EngineStats stats;
  /// fp32: the longest chain of roundings any summand goes through in the reduction (for γ_L).
  /// float-float: the number of double-word additions on the deepest path.
  std::int64_t chain = 0;
};

/// Runs the stage. With float_float false, (ia|jb) must be fp32 values (the stage loads them exactly) and
/// the orbital energies are rounded to fp32; with float_float true, both are carried as hi + lo words.
/// Sums are over i ≤ j with weight 2 for i < j (the (j, i) terms equal the (i, j) ones).
StageResult vector_engine_energy(const PairProducts& k, const double* eps_occ, const double* eps_vir, bool float_float,
                                 trncore::sim::Generation generation);

/// Tile edge of the stage (the TensorEngine transpose's limit).
inline constexpr std::int64_t kStageTile = 128;

}  // namespace trnblas::detail
