#include "distributions/sampling.hpp"

#include <trnrand/distributions.hpp>
#include <trnrand/sim.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace trnrand {

namespace detail {

// Marsaglia–Tsang for shape ≥ 1.
double gamma_at_least_one(Window& w, double shape) {
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = w.standard_normal();
    const double t = 1.0 + c * x;
    if (t <= 0) continue;
    const double v = t * t * t;
    const double u = w.open_closed();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

double log_standard_gamma(Window& w, double shape) {
  if (shape >= 1) return std::log(gamma_at_least_one(w, shape));
  // ln(Gamma(a + 1)·U^(1/a)) = ln Gamma(a + 1) + ln(U)/a: no underflow however small a is.
  const double base = gamma_at_least_one(w, shape + 1.0);
  return std::log(base) + std::log(w.open_closed()) / shape;
}

double standard_gamma(Window& w, double shape) {
  if (shape >= 1) return gamma_at_least_one(w, shape);
  // In logs, so that tiny shapes do not underflow before the scale is applied.
  return std::exp(log_standard_gamma(w, shape));
}

}  // namespace detail

namespace {

using namespace detail;

template <class T>
Stream normal_impl(std::string_view function, Stream s, std::span<T> out, double mean, double stddev, bool exponentiate,
                   const trncore::Options& options) {
  check_host_call(function, options, s);
  check_normal(function, mean, stddev);
  return box_muller(s, out.size(), sizeof(T) == 4 ? 1 : 2, options.threads, [&](std::size_t i, double z) {
    const double x = mean + stddev * z;
    out[i] = static_cast<T>(exponentiate ? std::exp(x) : x);
  });
}

template <class T>
Stream exponential_impl(Stream s, std::span<T> out, double rate, const trncore::Options& options) {
  check_host_call("trnrand::exponential", options, s);
  if (!(rate > 0) || !std::isfinite(rate))
    bad("trnrand::exponential", "rate = " + str(rate) + " is not a finite value > 0", "pass a finite rate > 0");
  const std::size_t per = sizeof(T) == 4 ? 1 : 2;
  std::vector<std::uint32_t> w(out.size() * per);
  fill_words(s, w, options.threads);
  for_samples(out.size(), options.threads, [&](std::size_t i) {
    const double u = per == 1 ? u24_open_closed(w[i]) : u53_open_closed(w[2 * i], w[2 * i + 1]);
    out[i] = static_cast<T>(-std::log(u) / rate);
  });
  return skip_ahead(s, w.size());
}

// Hörmann's PTRS for λ ≥ 10.
std::int64_t poisson_ptrs(Window& w, double lambda) {
  const double slam = std::sqrt(lambda), loglam = std::log(lambda);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double u = w.closed_open() - 0.5, v = w.closed_open();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return static_cast<std::int64_t>(k);
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <= -lambda + k * loglam - std::lgamma(k + 1))
      return static_cast<std::int64_t>(k);
  }
}

}  // namespace

Stream normal(Stream s, std::span<float> out, float mean, float stddev, const trncore::Options& options) {
  constexpr std::string_view function = "trnrand::normal";
  check_call(function, options, s);
  if (on_sim(function, options)) {
    check_normal(function, mean, stddev);
    auto core = core_for(options);
    return sim::normal(s, out, mean, stddev, core);
  }
  return normal_impl(function, s, out, mean, stddev, false, options);
}
Stream normal(Stream s, std::span<double> out, double mean, double stddev, const trncore::Options& options) {
  constexpr std::string_view function = "trnrand::normal";
  check_call(function, options, s);
  on_sim(function, options, "double normals need fp64, which the engines lack (the float overload runs there)");
  return normal_impl(function, s, out, mean, stddev, false, options);
}
Stream lognormal(Stream s, std::span<float> out, float mean, float stddev, const trncore::Options& options) {
  return normal_impl("trnrand::lognormal", s, out, mean, stddev, true, options);
}
Stream lognormal(Stream s, std::span<double> out, double mean, double stddev, const trncore::Options& options) {
  return normal_impl("trnrand::lognormal", s, out, mean, stddev, true, options);
}
Stream exponential(Stream s, std::span<float> out, float rate, const trncore::Options& options) {
  return exponential_impl(s, out, rate, options);
}
Stream exponential(Stream s, std::span<double> out, double rate, const trncore::Options& options) {
  return exponential_impl(s, out, rate, options);
}

Stream bernoulli(Stream s, std::span<std::uint8_t> out, double p, const trncore::Options& options) {
  check_host_call("trnrand::bernoulli", options, s);
  if (!(p >= 0 && p <= 1)) bad("trnrand::bernoulli", "p = " + str(p) + " is outside [0, 1]", "pass 0 <= p <= 1");
  std::vector<std::uint32_t> w(2 * out.size());
  fill_words(s, w, options.threads);
  for_samples(out.size(), options.threads,
              [&](std::size_t i) { out[i] = u53_closed_open(w[2 * i], w[2 * i + 1]) < p ? 1 : 0; });
  return skip_ahead(s, w.size());
}

Stream randint(Stream s, std::span<std::int64_t> out, std::int64_t low, std::int64_t high,
               const trncore::Options& options) {
  check_host_call("trnrand::randint", options, s);
  check_window_samples("trnrand::randint", 0, out.size());
  if (low > high)
    bad("trnrand::randint", "low = " + std::to_string(low) + " is greater than high = " + std::to_string(high),
        "pass low <= high");
  // high − low + 1 in unsigned arithmetic; 0 means the full 2^64 range.
  const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  return per_sample(s, out, options.threads, [&](Window& w) {
    const std::uint64_t r = range == 0 ? w.next64() : w.below(range);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + r);
  });
}

// Fisher–Yates is sequential: options.threads is not used.
Stream randperm(Stream s, std::span<std::int64_t> out, const trncore::Options& options) {
  check_host_call("trnrand::randperm", options, s);
  check_window_samples("trnrand::randperm", 0, out.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::int64_t>(i);
  for (std::size_t k = out.size(); k-- > 1;) {
    Window w(s, k);
    std::swap(out[k], out[static_cast<std::size_t>(w.below(k + 1))]);
  }
  return skip_ahead(s, out.size() * kWindow);
}

// Step k's draw depends only on k and the stream (its own window), so any range of steps is independent of
// the others and of n: split over threads like the samplers.
Stream randperm_draws(Stream s, std::uint64_t first, std::span<std::int64_t> out, const trncore::Options& options) {
  check_host_call("trnrand::randperm_draws", options, s);
  check_window_samples("trnrand::randperm_draws", first, out.size());
  for_samples(out.size(), options.threads, [&](std::size_t i) {
    const std::uint64_t k = first + i;
    if (k == 0) {
      out[i] = 0;  // step 0 swaps nothing and draws nothing
      return;
    }
    Window w(s, k);
    out[i] = static_cast<std::int64_t>(w.below(k + 1));
  });
  return skip_ahead(s, (first + out.size()) * kWindow);
}

Stream gamma(Stream s, std::span<double> out, double shape, double scale, const trncore::Options& options) {
  check_host_call("trnrand::gamma", options, s);
  check_window_samples("trnrand::gamma", 0, out.size());
  if (!(shape > 0) || !std::isfinite(shape))
    bad("trnrand::gamma", "shape = " + str(shape) + " is not a finite value > 0", "pass a finite shape > 0");
  if (!(scale > 0) || !std::isfinite(scale))
    bad("trnrand::gamma", "scale = " + str(scale) + " is not a finite value > 0", "pass a finite scale > 0");
  return per_sample(s, out, options.threads, [&](Window& w) { return standard_gamma(w, shape) * scale; });
}

Stream poisson(Stream s, std::span<std::int64_t> out, double lambda, const trncore::Options& options) {
  check_host_call("trnrand::poisson", options, s);
  check_window_samples("trnrand::poisson", 0, out.size());
  if (!(lambda >= 0 && lambda <= 1e15))
    bad("trnrand::poisson", "lambda = " + str(lambda) + " is outside [0, 1e15]", "pass a finite lambda >= 0");
  return per_sample(s, out, options.threads, [&](Window& w) -> std::int64_t {
    if (lambda == 0) return 0;
    if (lambda < 10) {  // inversion: the smallest k with F(k) ≥ u
      const double u = w.closed_open();
      double p = std::exp(-lambda), cdf = p;
      std::int64_t k = 0;
      while (u > cdf && k < 1000) {
        ++k;
        p *= lambda / static_cast<double>(k);
        cdf += p;
      }
      return k;
    }
    return poisson_ptrs(w, lambda);
  });
}

}  // namespace trnrand
