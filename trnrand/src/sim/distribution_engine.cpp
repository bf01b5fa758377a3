// Uniform and Box–Muller normal floats as engine work on the NeuronCore model: the words come from the
// GpSimdEngine generator (generator_engine.cpp) through HBM; each tile of words is shifted and offset on
// the GpSimdEngine, converted on the VectorEngine, and transformed on the Scalar/Vector engines.
#include <trnrand/sim.hpp>

#include "distributions/sampling.hpp"

#include <trncore/sim/neuron_core.hpp>

#include <algorithm>
#include <numbers>
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

// Uniforms ((w >> 8) + add)·2^-24 of the words at words[offset + p·pstride + f·estride].
Tile uniforms(NeuronCore& core, const HbmBuffer& words, std::int64_t offset, std::int64_t pstride,
              std::int64_t estride, std::int64_t parts, std::int64_t free, std::uint32_t add) {
  Tile w = core.sbuf("words", parts, free, DType::uint32);
  core.dma_to_tile(w, words, offset, pstride, estride);
  Tile c = core.sbuf("const", parts, free, DType::uint32);
  core.iota(c, 8, 0, 0);
  core.integer_op(w, w, c, IntOp::shift_right);
  if (add != 0) {
    core.iota(c, add, 0, 0);
    core.integer_op(w, w, c, IntOp::add);
  }
  Tile u = core.sbuf("u", parts, free, DType::fp32);
  core.copy(u, w);                                            // exact: ≤ 2^24
  core.tensor_scalar(u, u, 0x1p-24f, AluOp::multiply);        // exact: a power of two
  return u;
}

HbmBuffer words_of(Stream s, std::size_t n, NeuronCore& core, Stream& next) {
  HbmBuffer words{"words", DType::uint32, {}, std::vector<std::uint32_t>(n)};
  next = fill_uint32(s, words.words, core);
  return words;
}

}  // namespace

Stream fill_uniform(Stream s, std::span<float> out, Interval interval, NeuronCore& core) {
  if (out.empty()) return s;
  Stream next;
  const HbmBuffer words = words_of(s, out.size(), core, next);
  HbmBuffer result{"uniform", DType::fp32, std::vector<float>(out.size()), {}};
  const std::uint32_t add = interval == Interval::open_closed ? 1u : 0u;
  for_each_tile(static_cast<std::int64_t>(out.size()), [&](std::int64_t at, std::int64_t parts, std::int64_t free) {
    const Tile u = uniforms(core, words, at, free, 1, parts, free, add);
    core.dma_to_hbm(result, u, at, free, 1);
  });
  std::copy(result.values.begin(), result.values.end(), out.begin());
  return next;
}

Stream normal(Stream s, std::span<float> out, float mean, float stddev, NeuronCore& core) {
  detail::check_normal("trnrand::sim::normal", mean, stddev);
  if (out.empty()) return s;
  const std::size_t pairs = (out.size() + 1) / 2;
  Stream next;
  const HbmBuffer words = words_of(s, 2 * pairs, core, next);
  HbmBuffer result{"normal", DType::fp32, std::vector<float>(2 * pairs), {}};
  const float two_pi = static_cast<float>(2 * std::numbers::pi);
  for_each_tile(static_cast<std::int64_t>(pairs), [&](std::int64_t at, std::int64_t parts, std::int64_t free) {
    // Pair q = at + p·free + f uses words 2q (u1) and 2q + 1 (u2): stride 2 within a row, 2·free between rows.
    const Tile u1 = uniforms(core, words, 2 * at, 2 * free, 2, parts, free, 1);
    const Tile u2 = uniforms(core, words, 2 * at + 1, 2 * free, 2, parts, free, 0);
    Tile r = core.sbuf("r", parts, free, DType::fp32);
    core.activation(r, u1, Activation::log);
    core.activation(r, r, Activation::sqrt, -2.0f);  // √(−2·ln u1); the pre-scale by −2 is exact
    for (const auto& [f, offset] : {std::pair{Activation::cos, std::int64_t{0}}, std::pair{Activation::sin, std::int64_t{1}}}) {
      Tile z = core.sbuf("z", parts, free, DType::fp32);
      core.activation(z, u2, f, two_pi);
      core.tensor_tensor(z, z, r, AluOp::multiply);
      core.tensor_scalar(z, z, stddev, AluOp::multiply);
      core.tensor_scalar(z, z, mean, AluOp::add);
      core.dma_to_hbm(result, z, 2 * at + offset, 2 * free, 2);
    }
  });
  std::copy(result.values.begin(), result.values.begin() + static_cast<std::ptrdiff_t>(out.size()), out.begin());
  return next;
}

}  // namespace trnrand::sim
