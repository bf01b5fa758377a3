// Continuous laws built on the shared samplers: float gamma, beta, chi-squared, Student t, truncated
// normal, multivariate normal, and the normal quantile.
#include "distributions/sampling.hpp"

#include <trnrand/distributions.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace trnrand {

namespace {

using namespace detail;

void check_positive(std::string_view function, const char* name, double x) {
  if (!(x > 0) || !std::isfinite(x))
    bad(function, std::string(name) + " = " + str(x) + " is not a finite value > 0",
        std::string("pass a finite ") + name + " > 0");
}

template <class T>
Stream beta_impl(Stream s, std::span<T> out, double a, double b, const trncore::Options& options) {
  check_host_call("trnrand::beta", options, s);
  check_window_samples("trnrand::beta", 0, out.size());
  check_positive("trnrand::beta", "a", a);
  check_positive("trnrand::beta", "b", b);
  if (a >= 1 && b >= 1)  // neither gamma can underflow: the plain ratio, a few ulps
    return per_sample(s, out, options.threads, [&](Window& w) {
      const double x = standard_gamma(w, a), y = standard_gamma(w, b);
      return x / (x + y);
    });
  // A shape below 1 can make a gamma underflow to 0 (half of Gamma(1e-3) lies below 1e-300), and 0/0 is
  // not a beta variate: take the ratio from the logarithms, scaled so the larger term is 1.
  return per_sample(s, out, options.threads, [&](Window& w) {
    const double lx = log_standard_gamma(w, a), ly = log_standard_gamma(w, b), m = std::max(lx, ly);
    const double x = std::exp(lx - m), y = std::exp(ly - m);
    return x / (x + y);
  });
}

template <class T>
Stream chi_squared_impl(Stream s, std::span<T> out, double k, const trncore::Options& options) {
  check_host_call("trnrand::chi_squared", options, s);
  check_window_samples("trnrand::chi_squared", 0, out.size());
  check_positive("trnrand::chi_squared", "k", k);
  return per_sample(s, out, options.threads, [&](Window& w) { return 2.0 * standard_gamma(w, k / 2); });
}

template <class T>
Stream student_t_impl(Stream s, std::span<T> out, double nu, const trncore::Options& options) {
  check_host_call("trnrand::student_t", options, s);
  check_window_samples("trnrand::student_t", 0, out.size());
  check_positive("trnrand::student_t", "nu", nu);
  if (nu >= 2)  // V = 2·Gamma(ν/2 ≥ 1) cannot underflow
    return per_sample(s, out, options.threads, [&](Window& w) {
      const double z = w.standard_normal();
      const double v = 2.0 * standard_gamma(w, nu / 2);
      return z / std::sqrt(v / nu);
    });
  // Small ν: V may underflow while t = Z·√(ν/V) is still finite, so form √(ν/V) from ln V.
  const double log_half_nu = std::log(nu / 2);
  return per_sample(s, out, options.threads, [&](Window& w) {
    const double z = w.standard_normal();
    return z * std::exp((log_half_nu - log_standard_gamma(w, nu / 2)) / 2);
  });
}

// Standard normal truncated to [lo, hi] with lo ≥ 0 (the caller mirrors the other cases).
double truncated_right_tail(Window& w, double lo, double hi) {
  if ((hi - lo) * (hi + lo) <= 2.0) {  // narrow: uniform proposal, accepted with e^{(lo² − z²)/2} ≥ e^{-1}
    for (;;) {
      const double z = lo + (hi - lo) * w.closed_open();
      if (w.closed_open() <= std::exp((lo - z) * (lo + z) / 2)) return z;  // factored: no overflow of lo²
    }
  }
  // Robert's optimal exponential rate (lo + √(lo² + 4))/2; = lo + 1/lo to double precision for lo > 1e8,
  // where lo² could overflow (an infinite rate would never accept).
  const double alpha = lo > 1e8 ? lo + 1 / lo : (lo + std::sqrt(lo * lo + 4)) / 2;
  for (;;) {
    const double z = lo - std::log(w.open_closed()) / alpha;
    if (z > hi) continue;
    if (w.closed_open() <= std::exp(-(z - alpha) * (z - alpha) / 2)) return z;
  }
}

double truncated_standard(Window& w, double lo, double hi) {
  if (lo >= 0) return truncated_right_tail(w, lo, hi);
  if (hi <= 0) return -truncated_right_tail(w, -hi, -lo);
  // lo < 0 < hi: plain normal rejection when the interval is wide (width ≥ 2.5 straddling 0 holds ≥ 49% of
  // the mass in the worst placement), else a uniform proposal accepted with e^{−z²/2} ≥ e^{-3.2}.
  if (hi - lo >= 2.5) {
    for (;;) {
      const double z = w.standard_normal();
      if (z >= lo && z <= hi) return z;
    }
  }
  for (;;) {
    const double z = lo + (hi - lo) * w.closed_open();
    if (w.closed_open() <= std::exp(-z * z / 2)) return z;
  }
}

// Φ(x) in long double, accurate in both tails.
long double phi_cdf(long double x) { return 0.5L * std::erfc(-x / std::sqrt(2.0L)); }

double quantile(double u) {
  if (u == 0) return -std::numeric_limits<double>::infinity();
  if (u == 1) return std::numeric_limits<double>::infinity();
  const long double root_2pi = std::sqrt(2.0L * std::numbers::pi_v<long double>);
  const long double q = static_cast<long double>(u) - 0.5L;  // exact
  // Halley's method on g(x) = 0: each step x −= r/(1 + x·r/2) with r = g(x)/φ(x) (cubic convergence).
  const auto halley = [&](long double x, int steps, auto&& g) {
    for (int step = 0; step < steps; ++step) {
      const long double r = g(x) * root_2pi * std::exp(x * x / 2);
      x -= r / (1 + x * r / 2);
    }
    return x;
  };
  if (std::fabs(q) <= 0.25L) {
    // Centre: Φ(x) − u = erf(x/√2)/2 − q keeps relative accuracy as x → 0 (q is exact), from x₀ = q√(2π).
    return static_cast<double>(
        halley(q * root_2pi, 6, [&](long double x) { return 0.5L * std::erf(x / std::sqrt(2.0L)) - q; }));
  }
  // Tails: work with p = min(u, 1 − u) (exact in long double) and Φ(x) = erfc(−x/√2)/2, accurate for tiny p.
  const bool lower = u < 0.5;
  const long double p = lower ? static_cast<long double>(u) : 1.0L - u;
  // Abramowitz & Stegun 26.2.23: |error| < 4.5e-4 for 0 < p ≤ 1/2.
  const long double t = std::sqrt(-2.0L * std::log(p));
  const long double x0 = -(t - (2.515517L + 0.802853L * t + 0.010328L * t * t) /
                                   (1.0L + 1.432788L * t + 0.189269L * t * t + 0.001308L * t * t * t));
  const long double x = halley(x0, 4, [&](long double y) { return phi_cdf(y) - p; });
  return static_cast<double>(lower ? x : -x);
}

}  // namespace

Stream gamma(Stream s, std::span<float> out, float shape, float scale, const trncore::Options& options) {
  check_window_samples("trnrand::gamma", 0, out.size());  // before the double buffer
  std::vector<double> d(out.size());
  const Stream next = gamma(s, std::span<double>(d), shape, scale, options);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(d[i]);
  return next;
}

Stream beta(Stream s, std::span<double> out, double a, double b, const trncore::Options& options) {
  return beta_impl(s, out, a, b, options);
}
Stream beta(Stream s, std::span<float> out, float a, float b, const trncore::Options& options) {
  return beta_impl(s, out, a, b, options);
}
Stream chi_squared(Stream s, std::span<double> out, double k, const trncore::Options& options) {
  return chi_squared_impl(s, out, k, options);
}
Stream chi_squared(Stream s, std::span<float> out, float k, const trncore::Options& options) {
  return chi_squared_impl(s, out, k, options);
}
Stream student_t(Stream s, std::span<double> out, double nu, const trncore::Options& options) {
  return student_t_impl(s, out, nu, options);
}
Stream student_t(Stream s, std::span<float> out, float nu, const trncore::Options& options) {
  return student_t_impl(s, out, nu, options);
}

namespace {

template <class T>
Stream truncated_normal_impl(Stream s, std::span<T> out, T mean, T stddev, T low, T high,
                             const trncore::Options& options) {
  constexpr std::string_view function = "trnrand::truncated_normal";
  check_host_call(function, options, s);
  check_window_samples(function, 0, out.size());
  if (!std::isfinite(mean)) bad(function, "mean = " + str(mean) + " is not finite", "pass a finite mean");
  check_positive(function, "stddev", stddev);
  if (std::isnan(low) || std::isnan(high) || !(low <= high) || low == std::numeric_limits<T>::infinity() ||
      high == -std::numeric_limits<T>::infinity())
    bad(function, "[low, high] = [" + str(low) + ", " + str(high) + "] is not an interval with mass",
        "pass low <= high with low < +inf and high > -inf");
  if (low == high) {
    std::fill(out.begin(), out.end(), low);
    return skip_ahead(s, out.size() * kWindow);
  }
  const double lo = (double{low} - mean) / stddev, hi = (double{high} - mean) / stddev;
  return per_sample(s, out, options.threads, [&](Window& w) {
    const auto x = static_cast<T>(mean + double{stddev} * truncated_standard(w, lo, hi));
    return std::clamp(x, low, high);  // rounding of mean + stddev·z must not leave the interval
  });
}

// Rows of mean + L·z, z from Box–Muller on `words_per_uniform` words per uniform (as normal() for T),
// each row computed in double and rounded once.
template <class T>
Stream multivariate_normal_impl(Stream s, std::span<T> out, std::span<const T> mean, std::span<const T> L,
                                const trncore::Options& options) {
  constexpr std::string_view function = "trnrand::multivariate_normal";
  check_host_call(function, options, s);
  const std::size_t d = mean.size();
  if (d == 0 || L.size() != d * d || out.size() % d != 0)
    throw trncore::DimensionMismatch(function,
                                     "mean has " + std::to_string(d) + " entries, L " + std::to_string(L.size()) +
                                         ", out " + std::to_string(out.size()),
                                     "pass d >= 1 means, a d x d factor and n*d outputs");
  for (std::size_t i = 0; i < d; ++i) {
    if (!std::isfinite(mean[i]))
      bad(function, "mean[" + std::to_string(i) + "] = " + str(mean[i]) + " is not finite", "pass finite means");
    for (std::size_t j = 0; j <= i; ++j)
      if (!std::isfinite(L[i * d + j]))
        bad(function,
            "L[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + str(L[i * d + j]) + " is not finite",
            "pass a finite factor");
    if (L[i * d + i] < 0)
      bad(function, "L[" + std::to_string(i) + "][" + std::to_string(i) + "] = " + str(L[i * d + i]) + " is negative",
          "pass the Cholesky factor (non-negative diagonal)");
  }
  std::vector<double> z(out.size());
  const Stream next =
      box_muller(s, z.size(), sizeof(T) == 4 ? 1 : 2, options.threads, [&](std::size_t i, double v) { z[i] = v; });
  for_samples(out.size() / d, options.threads, [&](std::size_t r) {
    for (std::size_t i = 0; i < d; ++i) {
      double x = mean[i];
      for (std::size_t j = 0; j <= i; ++j) x += double{L[i * d + j]} * z[r * d + j];
      out[r * d + i] = static_cast<T>(x);
    }
  });
  return next;
}

}  // namespace

Stream truncated_normal(Stream s, std::span<double> out, double mean, double stddev, double low, double high,
                        const trncore::Options& options) {
  return truncated_normal_impl(s, out, mean, stddev, low, high, options);
}
Stream truncated_normal(Stream s, std::span<float> out, float mean, float stddev, float low, float high,
                        const trncore::Options& options) {
  return truncated_normal_impl(s, out, mean, stddev, low, high, options);
}
Stream multivariate_normal(Stream s, std::span<double> out, std::span<const double> mean, std::span<const double> L,
                           const trncore::Options& options) {
  return multivariate_normal_impl(s, out, mean, L, options);
}
Stream multivariate_normal(Stream s, std::span<float> out, std::span<const float> mean, std::span<const float> L,
                           const trncore::Options& options) {
  return multivariate_normal_impl(s, out, mean, L, options);
}

namespace {

void check_icdf_call(const trncore::Options& options, std::size_t u_size, std::size_t out_size) {
  constexpr std::string_view function = "trnrand::normal_icdf";
  trncore::validate(options, function);
  on_sim(function, options, "it has no engine kernel");
  if (u_size != out_size)
    throw trncore::DimensionMismatch(function,
                                     "u has " + std::to_string(u_size) + " values, out " + std::to_string(out_size),
                                     "pass spans of one size");
}

}  // namespace

void normal_icdf(std::span<const double> u, std::span<double> out, const trncore::Options& options) {
  check_icdf_call(options, u.size(), out.size());
  for (std::size_t i = 0; i < u.size(); ++i)
    if (!(u[i] >= 0 && u[i] <= 1))
      bad("trnrand::normal_icdf", "u[" + std::to_string(i) + "] = " + str(u[i]) + " is outside [0, 1]",
          "pass probabilities in [0, 1]");
  for_samples(u.size(), options.threads, [&](std::size_t i) { out[i] = quantile(u[i]); });
}

void normal_icdf(std::span<const float> u, std::span<float> out, const trncore::Options& options) {
  check_icdf_call(options, u.size(), out.size());
  std::vector<double> ud(u.begin(), u.end()), od(u.size());
  normal_icdf(ud, od, options);
  for (std::size_t i = 0; i < u.size(); ++i) out[i] = static_cast<float>(od[i]);
}

}  // namespace trnrand
