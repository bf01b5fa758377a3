#pragma once
// Float-float ("double-word") arithmetic on whole tiles, as sequences of VectorEngine fp32 instructions
// on a modelled NeuronCore. The VectorEngine has no FMA, so products are made error-free by Veltkamp
// splitting and Dekker's product; every other step is an fp32 add/subtract/multiply/divide with
// round-to-nearest, which is what the algorithms' proofs assume. Algorithms and bounds (u = 2^-24):
// Joldes, Muller, Popescu, "Tight and rigorous error bounds for basic building blocks of double-word
// arithmetic", ACM TOMS 44(2), 2017: AccurateDWPlusDW (3u² + 13u³), DWTimesDW1 (7u²),
// DWDivDW1 (15u² + 56u³). Exact as stated while no intermediate overflows or underflows.

#include <trncore/sim/neuron_core.hpp>

#include <cstdint>
#include <string>

namespace trnblas::detail {

/// A tile pair representing hi + lo with |lo| ≤ ulp(hi)/2.
struct FfTile {
  trncore::sim::Tile hi;
  trncore::sim::Tile lo;
};

/// Relative error bounds of the operations below, in units of u².
inline constexpr double kFfAddU2 = 3.0 + 13.0 * 0x1p-24;
inline constexpr double kFfMulU2 = 7.0;
inline constexpr double kFfDivU2 = 15.0 + 56.0 * 0x1p-24;

/// Tile arithmetic on one core for tiles of one shape (partitions × free) in SBUF.
class FloatFloatTiles {
 public:
  FloatFloatTiles(trncore::sim::NeuronCore& core, std::int64_t partitions, std::int64_t free_size)
      : core_(core), partitions_(partitions), free_(free_size) {}

  /// A zero fp32 tile of the shape.
  trncore::sim::Tile tile(const std::string& name) const;
  /// A zero float-float tile.
  FfTile zero(const std::string& name) const { return {tile(name + ".hi"), tile(name + ".lo")}; }
  /// Every element = c (c.hi, c.lo): two VectorEngine instructions per word.
  FfTile constant(float hi, float lo, const std::string& name) const;

  /// (s, e) with s + e = a + b exactly (Knuth's TwoSum, 6 instructions).
  FfTile two_sum(const trncore::sim::Tile& a, const trncore::sim::Tile& b) const;
  /// (s, e) with s + e = a + b exactly when |a| ≥ |b| or a = 0 (Dekker's Fast2Sum, 3 instructions).
  FfTile fast_two_sum(const trncore::sim::Tile& a, const trncore::sim::Tile& b) const;
  /// (p, e) with p + e = a·b exactly (Veltkamp split with 2^12 + 1, Dekker's product; 17 instructions).
  FfTile two_prod(const trncore::sim::Tile& a, const trncore::sim::Tile& b) const;

  FfTile add(const FfTile& x, const FfTile& y) const;
  /// x − y: add with y negated (negation is exact).
  FfTile sub(const FfTile& x, const FfTile& y) const;
  FfTile mul(const FfTile& x, const FfTile& y) const;
  FfTile div(const FfTile& x, const FfTile& y) const;
  /// x·c for a power of two c (exact on both words).
  FfTile scale_pow2(const FfTile& x, float c) const;

 private:
  trncore::sim::Tile op(const trncore::sim::Tile& a, const trncore::sim::Tile& b, trncore::sim::AluOp o) const;
  trncore::sim::Tile op(const trncore::sim::Tile& a, float s, trncore::sim::AluOp o) const;
  /// x·y for a double word x and a float y (DWTimesFP1 of Joldes–Muller–Popescu).
  FfTile mul_word(const FfTile& x, const trncore::sim::Tile& y) const;

  trncore::sim::NeuronCore& core_;
  std::int64_t partitions_;
  std::int64_t free_;
};

}  // namespace trnblas::detail
