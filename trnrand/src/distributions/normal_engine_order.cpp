// Box–Muller as the sim kernel's fp32 instruction sequence (sim/distribution_engine.cpp), on the host:
// every statement below is one engine instruction's rounding, in the kernel's order, so the two agree bit
// for bit. Compiled without FMA contraction (sources.cmake): each product is rounded before it is added.
#include "distributions/sampling.hpp"

#include <trncore/correctly_rounded.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/sim.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string_view>
#include <vector>

namespace trnrand {

namespace {

// The activation pre-op fl(fl(scale·in) + bias) with bias 0 (the + 0 matters: it turns −0 into +0).
float pre(float in, float scale) {
  const float product = in * scale;
  return product + 0.0f;
}

}  // namespace

Stream normal_engine_order(Stream s, std::span<float> out, float mean, float stddev, const trncore::Options& options) {
  constexpr std::string_view function = "trnrand::normal_engine_order";
  detail::check_call(function, options, s);
  detail::check_normal(function, mean, stddev);
  if (detail::on_sim(function, options)) {
    auto core = detail::core_for(options);
    return sim::normal(s, out, mean, stddev, core);
  }
  const std::size_t n = out.size();
  std::vector<std::uint32_t> w(2 * n);  // value i: u1 from word 2i, u2 from word 2i + 1
  detail::fill_words(s, w, options.threads);
  const float arg_scale = std::numbers::pi_v<float> * 0x1p-23f;  // fl(π)·2^-23, exact
  const float neg_stddev = -stddev;
  detail::for_samples(n, options.threads, [&](std::size_t i) {
    const auto k1 = static_cast<float>((w[2 * i] >> 8) + 1);  // GpSimd shift, add; Vector copy (exact)
    const auto m = static_cast<float>(static_cast<std::int32_t>(w[2 * i + 1] >> 8) - (1 << 23));
    const float a = trncore::cr_log(pre(k1, 0x1p-24f));  // Scalar log, pre-scale 2^-24 (exact)
    const float r = std::sqrt(pre(a, -2.0f));            // Scalar sqrt, pre-scale −2 (exact)
    const float t = pre(m, arg_scale);                   // the cos pre-scale: one rounding
    const float c = trncore::cr_cos(t);
    const float zc = c * r;            // Vector multiply
    const float qc = zc * neg_stddev;  // Vector multiply (−stddev: exact sign)
    out[i] = qc + mean;                // Vector add
  });
  return skip_ahead(s, w.size());
}

}  // namespace trnrand
