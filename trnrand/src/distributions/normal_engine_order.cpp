// Box–Muller as the sim kernel's fp32 instruction sequence (sim/distribution_engine.cpp), on the host:
// every statement below is one engine instruction's rounding, in the kernel's order, so the two agree bit
// for bit. Compiled without FMA contraction (sources.cmake): each product is rounded before it is added.
#include "distributions/sampling.hpp"

#include <trncore/correctly_rounded.hpp>
#include <trnrand/distributions.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <thread>
#include <vector>

namespace trnrand {

namespace {

// The activation pre-op fl(fl(scale·in) + bias) with bias 0 (the + 0 matters: it turns −0 into +0).
float pre(float in, float scale) {
  const float product = in * scale;
  return product + 0.0f;
}

}  // namespace

Stream normal_engine_order(Stream s, std::span<float> out, float mean, float stddev, int threads) {
  detail::check_generator("trnrand::normal_engine_order", s);
  detail::check_threads("trnrand::normal_engine_order", threads);
  detail::check_normal("trnrand::normal_engine_order", mean, stddev);
  const std::size_t n = out.size();
  std::vector<std::uint32_t> w(2 * n);  // value i: u1 from word 2i, u2 from word 2i + 1
  const Stream next = fill_uint32(s, w, threads);
  const float arg_scale = std::numbers::pi_v<float> * 0x1p-23f;  // fl(π)·2^-23, exact
  const float neg_stddev = -stddev;
  const auto run = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const auto k1 = static_cast<float>((w[2 * i] >> 8) + 1);  // GpSimd shift, add; Vector copy (exact)
      const auto m = static_cast<float>(static_cast<std::int32_t>(w[2 * i + 1] >> 8) - (1 << 23));
      const float a = trncore::cr_log(pre(k1, 0x1p-24f));  // Scalar log, pre-scale 2^-24 (exact)
      const float r = std::sqrt(pre(a, -2.0f));            // Scalar sqrt, pre-scale −2 (exact)
      const float t = pre(m, arg_scale);                   // the cos pre-scale: one rounding
      const float c = trncore::cr_cos(t);
      const float zc = c * r;            // Vector multiply
      const float qc = zc * neg_stddev;  // Vector multiply (−stddev: exact sign)
      out[i] = qc + mean;                // Vector add
    }
  };
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers =
      std::min<std::size_t>(threads > 0 ? static_cast<std::size_t>(threads) : hw, std::max<std::size_t>(1, n >> 14));
  if (workers <= 1) {
    run(0, n);
    return next;
  }
  std::vector<std::thread> pool;
  const std::size_t chunk = (n + workers - 1) / workers;
  for (std::size_t i = 0; i < workers; ++i) {
    const std::size_t begin = std::min(n, i * chunk), end = std::min(n, begin + chunk);
    pool.emplace_back(run, begin, end);
  }
  for (auto& t : pool) t.join();
  return next;
}

}  // namespace trnrand
