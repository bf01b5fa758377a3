// Uniform and Box–Muller normal floats as engine work on the NeuronCore model: the words come from the
// GpSimdEngine generator (generator_engine.cpp) through HBM; each tile of words is shifted and offset on
// the GpSimdEngine, converted to fp32 on the VectorEngine, and transformed on the Scalar/Vector engines.
// The host function trnrand::normal_engine_order performs the same roundings in the same order.
#include <trnrand/sim.hpp>

#include "distributions/sampling.hpp"

#include <trncore/error.hpp>
#include <trncore/sim/neuron_core.hpp>

#include <algorithm>
#include <map>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace trnrand::sim {

namespace {

using trncore::sim::Activation;
using trncore::sim::AluOp;
using trncore::sim::DType;
using trncore::sim::HbmBuffer;
using trncore::sim::IntOp;
using trncore::sim::NeuronCore;
using trncore::sim::Tile;

constexpr std::int64_t kPartitions = 128, kFree = 512;

// Calls f(first, partitions, free) over n elements: full 128 × 512 tiles, then whole rows of 512, then
// one short row.
template <class F>
void for_each_tile(std::int64_t n, F&& f) {
  for (std::int64_t at = 0; at < n;) {
    const std::int64_t rest = n - at;
    const std::int64_t free = std::min(rest, kFree);
    const std::int64_t parts = rest >= kFree ? std::min(kPartitions, rest / kFree) : 1;
    f(at, parts, free);
    at += parts * free;
  }
}

// Integer constant tiles (one GpSimdEngine iota each), made once per tile shape and value.
class Constants {
 public:
  explicit Constants(NeuronCore& core) : core_(core) {}
  const Tile& get(std::int64_t parts, std::int64_t free, std::uint32_t value) {
    const auto key = std::tuple{parts, free, value};
    auto it = tiles_.find(key);
    if (it == tiles_.end()) {
      Tile t = core_.sbuf("const " + std::to_string(value), parts, free, DType::uint32);
      core_.iota(t, value, 0, 0);
      it = tiles_.emplace(key, std::move(t)).first;
    }
    return it->second;
  }

 private:
  NeuronCore& core_;
  std::map<std::tuple<std::int64_t, std::int64_t, std::uint32_t>, Tile> tiles_;
};

// fp32 tile of the integers (w >> 8) op c for the words at words[offset + p·pstride + f·estride]: a DMA,
// a GpSimdEngine shift and add/subtract, a VectorEngine integer → fp32 copy (exact: |values| ≤ 2^24).
// `as` is the integer type the copy reads (int32 when the result may be negative).
Tile shifted_words(NeuronCore& core, Constants& constants, const HbmBuffer& words, std::int64_t offset,
                   std::int64_t pstride, std::int64_t estride, std::int64_t parts, std::int64_t free, IntOp op,
                   std::uint32_t c, DType as) {
  Tile w = core.sbuf("words", parts, free, DType::uint32);
  core.dma_to_tile(w, words, offset, pstride, estride);
  Tile k = core.sbuf("k", parts, free, as);
  core.integer_op(k, w, constants.get(parts, free, 8), IntOp::shift_right);
  if (c != 0) core.integer_op(k, k, constants.get(parts, free, c), op);
  Tile x = core.sbuf("x", parts, free, DType::fp32);
  core.copy(x, k);
  return x;
}

HbmBuffer words_of(Stream s, std::size_t n, NeuronCore& core, Stream& next) {
  HbmBuffer words{"words", DType::uint32, {}, std::vector<std::uint32_t>(n)};
  next = fill_uint32(s, words.words, core);
  return words;
}

}  // namespace

Stream fill_uniform(Stream s, std::span<float> out, Interval interval, NeuronCore& core) {
  detail::check_generator("trnrand::sim::fill_uniform", s);
  detail::check_interval("trnrand::sim::fill_uniform", interval);
  if (out.empty()) return s;
  Stream next;
  const HbmBuffer words = words_of(s, out.size(), core, next);
  HbmBuffer result{"uniform", DType::fp32, std::vector<float>(out.size()), {}};
  Constants constants(core);
  const std::uint32_t add = interval == Interval::open_closed ? 1u : 0u;
  for_each_tile(static_cast<std::int64_t>(out.size()), [&](std::int64_t at, std::int64_t parts, std::int64_t free) {
    Tile u = shifted_words(core, constants, words, at, free, 1, parts, free, IntOp::add, add, DType::uint32);
    core.tensor_scalar(u, u, 0x1p-24f, AluOp::multiply);  // exact: a power of two
    core.dma_to_hbm(result, u, at, free, 1);
  });
  std::copy(result.values.begin(), result.values.end(), out.begin());
  return next;
}

Stream normal(Stream s, std::span<float> out, float mean, float stddev, NeuronCore& core) {
  detail::check_generator("trnrand::sim::normal", s);
  detail::check_normal("trnrand::sim::normal", mean, stddev);
  if (out.empty()) return s;
  const std::size_t n = out.size();
  Stream next;
  const HbmBuffer words = words_of(s, 2 * n, core, next);
  HbmBuffer result{"normal", DType::fp32, std::vector<float>(n), {}};
  Constants constants(core);
  const float arg_scale = std::numbers::pi_v<float> * 0x1p-23f;  // fl(π)·2^-23, exact
  for_each_tile(static_cast<std::int64_t>(n), [&](std::int64_t at, std::int64_t parts, std::int64_t free) {
    // Value i = at + p·free + f uses words 2i (u1) and 2i + 1 (u2): stride 2 within a row, 2·free between rows.
    // k1 = (w >> 8) + 1 ∈ [1, 2^24] (u1 = k1·2^-24); m = (w >> 8) − 2^23 ∈ [−2^23, 2^23) (2πu2 = π·m·2^-23 + π).
    const Tile k1 =
        shifted_words(core, constants, words, 2 * at, 2 * free, 2, parts, free, IntOp::add, 1, DType::uint32);
    const Tile m = shifted_words(core, constants, words, 2 * at + 1, 2 * free, 2, parts, free, IntOp::subtract,
                                 1u << 23, DType::int32);
    Tile r = core.sbuf("r", parts, free, DType::fp32);
    core.activation(r, k1, Activation::log, 0x1p-24f);  // ln u1: the pre-scale forms u1 exactly
    core.activation(r, r, Activation::sqrt, -2.0f);     // √(−2 ln u1): the pre-scale −2 is exact
    Tile z = core.sbuf("z", parts, free, DType::fp32);
    core.activation(z, m, Activation::cos, arg_scale);  // cos(2πu2 − π) = −cos(2πu2), argument in [−π, π)
    core.tensor_tensor(z, z, r, AluOp::multiply);
    core.tensor_scalar(z, z, -stddev, AluOp::multiply);  // the sign undoes the −π shift exactly
    core.tensor_scalar(z, z, mean, AluOp::add);
    core.dma_to_hbm(result, z, at, free, 1);
  });
  std::copy(result.values.begin(), result.values.end(), out.begin());
  return next;
}

}  // namespace trnrand::sim
