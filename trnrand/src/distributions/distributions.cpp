#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

namespace trnrand {

namespace {

__extension__ typedef unsigned __int128 u128;  // Lemire's method needs the high half of a 64×64 product

constexpr std::uint64_t kWindow = std::uint64_t{1} << 32;

[[noreturn]] void bad(const char* function, const std::string& problem, const char* hint) {
  throw trncore::InvalidArgument(function, problem, hint);
}

std::string str(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// Uniforms on fixed grids (stream.hpp's recipes): 24 bits from one word, 53 bits from two.
double u24_open_closed(std::uint32_t w) { return static_cast<double>((w >> 8) + 1) * 0x1p-24; }
double u24_closed_open(std::uint32_t w) { return static_cast<double>(w >> 8) * 0x1p-24; }
std::uint64_t bits53(std::uint32_t hi, std::uint32_t lo) {
  return ((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11;
}
double u53_open_closed(std::uint32_t hi, std::uint32_t lo) { return static_cast<double>(bits53(hi, lo) + 1) * 0x1p-53; }
double u53_closed_open(std::uint32_t hi, std::uint32_t lo) { return static_cast<double>(bits53(hi, lo)) * 0x1p-53; }

// Sample i's private window of words for rejection samplers.
class Window {
public:
  Window(const Stream& s, std::uint64_t sample) : s_(s), base_(sample * kWindow) {}
  std::uint32_t next() { return word(s_, base_ + used_++); }
  std::uint64_t next64() {
    const std::uint64_t hi = next();
    return (hi << 32) | next();
  }
  double open_closed() {
    const std::uint32_t hi = next();
    return u53_open_closed(hi, next());
  }
  double closed_open() {
    const std::uint32_t hi = next();
    return u53_closed_open(hi, next());
  }
  double standard_normal() {  // Box–Muller, cosine half
    const double u1 = open_closed(), u2 = closed_open();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  // Unbiased integer in [0, range) for range ≥ 1 (Lemire 2019, multiply and reject).
  std::uint64_t below(std::uint64_t range) {
    u128 m = static_cast<u128>(next64()) * range;
    auto low = static_cast<std::uint64_t>(m);
    if (low < range) {
      const std::uint64_t threshold = (0 - range) % range;
      while (low < threshold) {
        m = static_cast<u128>(next64()) * range;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

private:
  const Stream& s_;
  std::uint64_t base_;
  std::uint64_t used_ = 0;
};

void check_normal(const char* function, double mean, double stddev) {
  if (!std::isfinite(mean)) bad(function, "mean = " + str(mean) + " is not finite", "pass a finite mean");
  if (!(stddev >= 0) || !std::isfinite(stddev))
    bad(function, "stddev = " + str(stddev) + " is not a finite value >= 0", "pass a finite stddev >= 0");
}

// Standard normals in double, pair by pair from consecutive words; `words_per_uniform` is 1 (24-bit grid,
// for float output) or 2 (53-bit grid). Returns the stream after the words used.
template <class Sink>
Stream box_muller(Stream s, std::size_t n, int words_per_uniform, Sink&& sink) {
  const std::size_t pairs = (n + 1) / 2;
  std::vector<std::uint32_t> w(pairs * 2 * static_cast<std::size_t>(words_per_uniform));
  const Stream next = fill_uint32(s, w);
  for (std::size_t p = 0; p < pairs; ++p) {
    double u1, u2;
    if (words_per_uniform == 1) {
      u1 = u24_open_closed(w[2 * p]);
      u2 = u24_closed_open(w[2 * p + 1]);
    } else {
      u1 = u53_open_closed(w[4 * p], w[4 * p + 1]);
      u2 = u53_closed_open(w[4 * p + 2], w[4 * p + 3]);
    }
    const double r = std::sqrt(-2.0 * std::log(u1)), theta = 2.0 * std::numbers::pi * u2;
    sink(2 * p, r * std::cos(theta));
    if (2 * p + 1 < n) sink(2 * p + 1, r * std::sin(theta));
  }
  return next;
}

template <class T>
Stream normal_impl(const char* function, Stream s, std::span<T> out, double mean, double stddev, bool exponentiate) {
  check_normal(function, mean, stddev);
  return box_muller(s, out.size(), sizeof(T) == 4 ? 1 : 2, [&](std::size_t i, double z) {
    const double x = mean + stddev * z;
    out[i] = static_cast<T>(exponentiate ? std::exp(x) : x);
  });
}

template <class T>
Stream exponential_impl(Stream s, std::span<T> out, double rate) {
  if (!(rate > 0) || !std::isfinite(rate))
    bad("trnrand::exponential", "rate = " + str(rate) + " is not a finite value > 0", "pass a finite rate > 0");
  const std::size_t per = sizeof(T) == 4 ? 1 : 2;
  std::vector<std::uint32_t> w(out.size() * per);
  const Stream next = fill_uint32(s, w);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double u = per == 1 ? u24_open_closed(w[i]) : u53_open_closed(w[2 * i], w[2 * i + 1]);
    out[i] = static_cast<T>(-std::log(u) / rate);
  }
  return next;
}

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

Stream normal(Stream s, std::span<float> out, float mean, float stddev) {
  return normal_impl("trnrand::normal", s, out, mean, stddev, false);
}
Stream normal(Stream s, std::span<double> out, double mean, double stddev) {
  return normal_impl("trnrand::normal", s, out, mean, stddev, false);
}
Stream lognormal(Stream s, std::span<float> out, float mean, float stddev) {
  return normal_impl("trnrand::lognormal", s, out, mean, stddev, true);
}
Stream lognormal(Stream s, std::span<double> out, double mean, double stddev) {
  return normal_impl("trnrand::lognormal", s, out, mean, stddev, true);
}
Stream exponential(Stream s, std::span<float> out, float rate) { return exponential_impl(s, out, rate); }
Stream exponential(Stream s, std::span<double> out, double rate) { return exponential_impl(s, out, rate); }

Stream bernoulli(Stream s, std::span<std::uint8_t> out, double p) {
  if (!(p >= 0 && p <= 1)) bad("trnrand::bernoulli", "p = " + str(p) + " is outside [0, 1]", "pass 0 <= p <= 1");
  std::vector<std::uint32_t> w(2 * out.size());
  const Stream next = fill_uint32(s, w);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = u53_closed_open(w[2 * i], w[2 * i + 1]) < p ? 1 : 0;
  return next;
}

Stream randint(Stream s, std::span<std::int64_t> out, std::int64_t low, std::int64_t high) {
  if (low > high)
    bad("trnrand::randint", "low = " + std::to_string(low) + " is greater than high = " + std::to_string(high),
        "pass low <= high");
  // high − low + 1 in unsigned arithmetic; 0 means the full 2^64 range.
  const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  for (std::size_t i = 0; i < out.size(); ++i) {
    Window w(s, i);
    const std::uint64_t r = range == 0 ? w.next64() : w.below(range);
    out[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + r);
  }
  return skip_ahead(s, out.size() * kWindow);
}

Stream randperm(Stream s, std::span<std::int64_t> out) {
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::int64_t>(i);
  for (std::size_t k = out.size(); k-- > 1;) {
    Window w(s, k);
    std::swap(out[k], out[static_cast<std::size_t>(w.below(k + 1))]);
  }
  return skip_ahead(s, out.size() * kWindow);
}

Stream gamma(Stream s, std::span<double> out, double shape, double scale) {
  if (!(shape > 0) || !std::isfinite(shape))
    bad("trnrand::gamma", "shape = " + str(shape) + " is not a finite value > 0", "pass a finite shape > 0");
  if (!(scale > 0) || !std::isfinite(scale))
    bad("trnrand::gamma", "scale = " + str(scale) + " is not a finite value > 0", "pass a finite scale > 0");
  for (std::size_t i = 0; i < out.size(); ++i) {
    Window w(s, i);
    double g;
    if (shape >= 1) {
      g = gamma_at_least_one(w, shape);
    } else {  // boost: Gamma(a) = Gamma(a + 1)·U^(1/a), in logs so tiny shapes do not underflow early
      const double base = gamma_at_least_one(w, shape + 1.0);
      g = std::exp(std::log(base) + std::log(w.open_closed()) / shape);
    }
    out[i] = g * scale;
  }
  return skip_ahead(s, out.size() * kWindow);
}

Stream poisson(Stream s, std::span<std::int64_t> out, double lambda) {
  if (!(lambda >= 0 && lambda <= 1e15))
    bad("trnrand::poisson", "lambda = " + str(lambda) + " is outside [0, 1e15]", "pass a finite lambda >= 0");
  for (std::size_t i = 0; i < out.size(); ++i) {
    Window w(s, i);
    if (lambda == 0) {
      out[i] = 0;
    } else if (lambda < 10) {  // inversion: the smallest k with F(k) ≥ u
      const double u = w.closed_open();
      double p = std::exp(-lambda), cdf = p;
      std::int64_t k = 0;
      while (u > cdf && k < 1000) {
        ++k;
        p *= lambda / static_cast<double>(k);
        cdf += p;
      }
      out[i] = k;
    } else {
      out[i] = poisson_ptrs(w, lambda);
    }
  }
  return skip_ahead(s, out.size() * kWindow);
}

}  // namespace trnrand
