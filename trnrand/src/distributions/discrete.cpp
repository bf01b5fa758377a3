// Discrete laws: binomial (inversion / BTRS), geometric (inversion), categorical (alias tables).
#include "distributions/sampling.hpp"

#include <trnrand/distributions.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <numbers>

namespace trnrand {

namespace {

using namespace detail;

// Inversion by sequential search from k = 0 (p ≤ 1/2, n·p < 10: the expected search length is n·p + 1).
// P(0) = (1 − p)^n as exp(n·log1p(−p)): 1 − p would round to 1 for p < 2^-54. The search also stops when
// the terms underflow (past k ≈ 300 for n·p < 10), since u may exceed the rounded total by a few ulps.
std::int64_t binomial_inversion(Window& w, std::int64_t n, double p) {
  const double ratio = p / (1 - p);
  double pk = std::exp(static_cast<double>(n) * std::log1p(-p)), cdf = pk;
  const double u = w.closed_open();
  std::int64_t k = 0;
  while (u >= cdf && k < n && pk > 0) {
    pk *= ratio * static_cast<double>(n - k) / static_cast<double>(k + 1);
    cdf += pk;
    ++k;
  }
  return k;
}

// ln k! − [(k + 1/2) ln k − k + ln √(2π)], Stirling's series error (Loader 2000, "Fast and accurate
// computation of binomial probabilities"): the series for k > 15, lgamma below (absolute error < 1e-14).
double stirling_error(double k) {
  constexpr double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
  if (k <= 15) return std::lgamma(k + 1) - (k + 0.5) * std::log(k) + k - 0.5 * std::log(2 * std::numbers::pi);
  const double k2 = 1 / (k * k);
  if (k > 500) return (s0 - s1 * k2) / k;
  if (k > 80) return (s0 - (s1 - s2 * k2) * k2) / k;
  if (k > 35) return (s0 - (s1 - (s2 - s3 * k2) * k2) * k2) / k;
  return (s0 - (s1 - (s2 - (s3 - s4 * k2) * k2) * k2) * k2) / k;
}

// x ln(x/M) + M − x without cancellation (Loader's bd0): a series in v = (x − M)/(x + M) near x = M.
double deviance_term(double x, double M) {
  if (std::fabs(x - M) >= 0.1 * (x + M)) return x * std::log(x / M) + M - x;
  const double v = (x - M) / (x + M), v2 = v * v;
  double sum = (x - M) * v, term = 2 * x * v;
  for (int j = 1; j < 1000; ++j) {
    term *= v2;
    const double next = sum + term / (2 * j + 1);
    if (next == sum) break;
    sum = next;
  }
  return sum;
}

// Hörmann's BTRS (transformed rejection with squeeze), p ≤ 1/2, n·p ≥ 10. The final test compares with
// the log-pmf ratio ln(f(k)/f(m)), m the mode, so accepted values follow Binomial(n, p) exactly. The
// log-pmf is Loader's saddle-point form, whose terms are O(1) however large n is: the lgamma form
// lgamma(n + 1) − lgamma(k + 1) − … loses |ln n!|·2^-53 (≈ 3·10^-3 at n = 10^12) to cancellation.
class Btrs {
 public:
  Btrs(std::int64_t n, double p) : n_(n), nd_(static_cast<double>(n)), p_(p) {
    const double q = 1 - p, spq = std::sqrt(nd_ * p * q);
    b_ = 1.15 + 2.53 * spq;
    a_ = -0.0873 + 0.0248 * b_ + 0.01 * p;
    c_ = nd_ * p + 0.5;
    v_r_ = 0.92 - 4.2 / b_;
    alpha_ = (2.83 + 5.1 / b_) * spq;
    log_f_mode_ = log_pmf(std::floor((nd_ + 1) * p));
  }

  std::int64_t operator()(Window& w) const {
    for (;;) {
      const double u = w.closed_open() - 0.5, v = w.closed_open();
      const double us = 0.5 - std::fabs(u);
      const double k = std::floor((2 * a_ / us + b_) * u + c_);
      if (k < 0 || k > nd_ || k >= 0x1p63) continue;
      const auto ki = static_cast<std::int64_t>(k);
      if (ki > n_) continue;  // nd_ may have rounded up from n
      if (us >= 0.07 && v <= v_r_) return ki;
      if (std::log(v * alpha_ / (a_ / (us * us) + b_)) <= log_pmf(k) - log_f_mode_) return ki;
    }
  }

 private:
  double log_pmf(double k) const {
    const double q = 1 - p_;
    if (k == 0) return nd_ * std::log1p(-p_);
    if (k == nd_) return nd_ * std::log(p_);
    const double lc = stirling_error(nd_) - stirling_error(k) - stirling_error(nd_ - k) - deviance_term(k, nd_ * p_) -
                      deviance_term(nd_ - k, nd_ * q);
    return lc - 0.5 * (std::log(2 * std::numbers::pi) + std::log(k) + std::log1p(-k / nd_));
  }

  std::int64_t n_;
  double nd_, p_, a_ = 0, b_ = 0, c_ = 0, v_r_ = 0, alpha_ = 0, log_f_mode_ = 0;
};

}  // namespace

Stream binomial(Stream s, std::span<std::int64_t> out, std::int64_t n, double p, const trncore::Options& options) {
  check_host_call("trnrand::binomial", options, s);
  check_window_samples("trnrand::binomial", 0, out.size());
  if (n < 0) bad("trnrand::binomial", "n = " + std::to_string(n) + " is negative", "pass n >= 0");
  if (!(p >= 0 && p <= 1)) bad("trnrand::binomial", "p = " + str(p) + " is outside [0, 1]", "pass 0 <= p <= 1");
  const bool flip = p > 0.5;
  const double pp = flip ? 1 - p : p;
  const bool small = static_cast<double>(n) * pp < 10;
  const Btrs btrs(small ? 10 : n, small ? 0.5 : pp);  // set up once per call (dummy when unused)
  return per_sample(s, out, options.threads, [&](Window& w) {
    std::int64_t k;
    if (n == 0 || pp == 0)
      k = 0;
    else if (small)
      k = binomial_inversion(w, n, pp);
    else
      k = btrs(w);
    return flip ? n - k : k;
  });
}

Stream geometric(Stream s, std::span<std::int64_t> out, double p, const trncore::Options& options) {
  check_host_call("trnrand::geometric", options, s);
  if (!(p > 0 && p <= 1)) bad("trnrand::geometric", "p = " + str(p) + " is outside (0, 1]", "pass 0 < p <= 1");
  std::vector<std::uint32_t> words(2 * out.size());
  fill_words(s, words, options.threads);
  const double denom = std::log1p(-p);  // −inf for p = 1: every draw is 1
  for_samples(out.size(), options.threads, [&](std::size_t i) {
    const double u = u53_open_closed(words[2 * i], words[2 * i + 1]);
    const double k = p == 1 ? 1.0 : std::ceil(std::log(u) / denom);
    out[i] = std::max<std::int64_t>(1, k >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(k));
  });
  return skip_ahead(s, words.size());
}

AliasTable::AliasTable(std::span<const double> weights) {
  const char* function = "trnrand::AliasTable";
  const std::size_t n = weights.size();
  if (n == 0) bad(function, "no weights", "pass at least one weight");
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(weights[i] >= 0) || !std::isfinite(weights[i]))
      bad(function, "weights[" + std::to_string(i) + "] = " + str(weights[i]) + " is not a finite value >= 0",
          "pass finite non-negative weights");
    total += weights[i];
  }
  if (!(total > 0) || !std::isfinite(total))
    bad(function, "the weights sum to " + str(total), "pass weights with a positive finite sum");
  // Vose: scaled probabilities n·w_i/Σw; pair each small column with a large one.
  threshold_.assign(n, 1.0);
  alias_.resize(n);
  std::vector<double> scaled(n);
  std::vector<std::size_t> small, large;
  for (std::size_t i = 0; i < n; ++i) {
    scaled[i] = weights[i] * static_cast<double>(n) / total;
    alias_[i] = static_cast<std::int64_t>(i);
    (scaled[i] < 1 ? small : large).push_back(i);
  }
  while (!small.empty() && !large.empty()) {
    const std::size_t sm = small.back(), lg = large.back();
    small.pop_back();
    threshold_[sm] = scaled[sm];
    alias_[sm] = static_cast<std::int64_t>(lg);
    scaled[lg] -= 1 - scaled[sm];
    if (scaled[lg] < 1) {
      large.pop_back();
      small.push_back(lg);
    }
  }
  // Whatever is left is 1 up to rounding: those columns always return themselves.
  for (std::size_t i : small) threshold_[i] = 1.0;
  for (std::size_t i : large) threshold_[i] = 1.0;
}

Stream AliasTable::sample(Stream s, std::span<std::int64_t> out, const trncore::Options& options) const {
  check_host_call("trnrand::AliasTable::sample", options, s);
  std::vector<std::uint32_t> words(2 * out.size());
  fill_words(s, words, options.threads);
  const double n = static_cast<double>(threshold_.size());
  for_samples(out.size(), options.threads, [&](std::size_t i) {
    const double x = u53_closed_open(words[2 * i], words[2 * i + 1]) * n;  // in [0, n)
    const auto column = static_cast<std::size_t>(x);
    out[i] =
        (x - static_cast<double>(column)) < threshold_[column] ? static_cast<std::int64_t>(column) : alias_[column];
  });
  return skip_ahead(s, words.size());
}

Stream categorical(Stream s, std::span<std::int64_t> out, std::span<const double> weights,
                   const trncore::Options& options) {
  check_host_call("trnrand::categorical", options, s);
  return AliasTable(weights).sample(s, out, options);
}

}  // namespace trnrand
