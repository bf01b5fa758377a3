// Discrete laws: binomial (inversion / BTRS), geometric (inversion), categorical (alias tables).
#include "distributions/sampling.hpp"

#include <trnrand/distributions.hpp>

#include <algorithm>
#include <climits>
#include <cmath>

namespace trnrand {

namespace {

using namespace detail;

// Inversion by sequential search from k = 0 (p ≤ 1/2, n·p < 10: the expected search length is n·p + 1).
std::int64_t binomial_inversion(Window& w, std::int64_t n, double p) {
  const double q = 1 - p, ratio = p / q;
  double pk = std::pow(q, static_cast<double>(n)), cdf = pk;
  const double u = w.closed_open();
  std::int64_t k = 0;
  while (u >= cdf && k < n) {
    pk *= ratio * static_cast<double>(n - k) / static_cast<double>(k + 1);
    cdf += pk;
    ++k;
  }
  return k;
}

// Hörmann's BTRS (transformed rejection with squeeze), p ≤ 1/2, n·p ≥ 10. The final test compares with
// the exact log-pmf, so accepted values follow Binomial(n, p) exactly.
std::int64_t binomial_btrs(Window& w, std::int64_t n, double p) {
  const double q = 1 - p, nd = static_cast<double>(n);
  const double spq = std::sqrt(nd * p * q);
  const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = nd * p + 0.5;
  const double v_r = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, lpq = std::log(p / q);
  const double m = std::floor((nd + 1) * p);
  const double h = std::lgamma(m + 1) + std::lgamma(nd - m + 1);
  for (;;) {
    const double u = w.closed_open() - 0.5, v = w.closed_open();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2 * a / us + b) * u + c);
    if (k < 0 || k > nd) continue;
    if (us >= 0.07 && v <= v_r) return static_cast<std::int64_t>(k);
    const double lv = std::log(v * alpha / (a / (us * us) + b));
    if (lv <= h - std::lgamma(k + 1) - std::lgamma(nd - k + 1) + (k - m) * lpq) return static_cast<std::int64_t>(k);
  }
}

}  // namespace

Stream binomial(Stream s, std::span<std::int64_t> out, std::int64_t n, double p) {
  if (n < 0) bad("trnrand::binomial", "n = " + std::to_string(n) + " is negative", "pass n >= 0");
  if (!(p >= 0 && p <= 1)) bad("trnrand::binomial", "p = " + str(p) + " is outside [0, 1]", "pass 0 <= p <= 1");
  const bool flip = p > 0.5;
  const double pp = flip ? 1 - p : p;
  for (std::size_t i = 0; i < out.size(); ++i) {
    Window w(s, i);
    std::int64_t k;
    if (n == 0 || pp == 0) k = 0;
    else if (static_cast<double>(n) * pp < 10) k = binomial_inversion(w, n, pp);
    else k = binomial_btrs(w, n, pp);
    out[i] = flip ? n - k : k;
  }
  return skip_ahead(s, out.size() * kWindow);
}

Stream geometric(Stream s, std::span<std::int64_t> out, double p) {
  if (!(p > 0 && p <= 1)) bad("trnrand::geometric", "p = " + str(p) + " is outside (0, 1]", "pass 0 < p <= 1");
  std::vector<std::uint32_t> words(2 * out.size());
  const Stream next = fill_uint32(s, words);
  const double denom = std::log1p(-p);  // −inf for p = 1: every draw is 1
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double u = u53_open_closed(words[2 * i], words[2 * i + 1]);
    const double k = p == 1 ? 1.0 : std::ceil(std::log(u) / denom);
    out[i] = std::max<std::int64_t>(1, k >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(k));
  }
  return next;
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

Stream AliasTable::sample(Stream s, std::span<std::int64_t> out) const {
  std::vector<std::uint32_t> words(2 * out.size());
  const Stream next = fill_uint32(s, words);
  const double n = static_cast<double>(threshold_.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double x = u53_closed_open(words[2 * i], words[2 * i + 1]) * n;  // in [0, n)
    const auto column = static_cast<std::size_t>(x);
    out[i] = (x - static_cast<double>(column)) < threshold_[column] ? static_cast<std::int64_t>(column) : alias_[column];
  }
  return next;
}

Stream categorical(Stream s, std::span<std::int64_t> out, std::span<const double> weights) {
  return AliasTable(weights).sample(s, out);
}

}  // namespace trnrand
