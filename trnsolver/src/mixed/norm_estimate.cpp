#include "mixed/norm_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace trnsolver::detail {

namespace {

// The second start, fixed pseudo-random signs (splitmix64 of the index) of size 1/n.
std::vector<double> signs_start(std::int64_t n) {
  std::vector<double> signs(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < signs.size(); ++i) {
    std::uint64_t z = (static_cast<std::uint64_t>(i) + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    signs[i] = ((z ^ (z >> 31)) & 1u) != 0 ? 1.0 / static_cast<double>(n) : -1.0 / static_cast<double>(n);
  }
  return signs;
}

// Higham's extra vector (n ≥ 2): alternating signs, magnitudes 1 … 2.
std::vector<double> extra_vector(std::int64_t n) {
  const auto len = static_cast<std::size_t>(n);
  std::vector<double> alt(len);
  for (std::size_t i = 0; i < len; ++i)
    alt[i] = (i % 2 == 0 ? 1.0 : -1.0) * (1.0 + static_cast<double>(i) / static_cast<double>(n - 1));
  return alt;
}

double one_norm(const double* v, std::size_t len) {
  double s = 0.0;
  for (std::size_t i = 0; i < len; ++i) s += std::abs(v[i]);
  return s;
}

// Hager–Higham iteration from the start vector x (‖x‖₁ = 1): the largest ‖B v‖₁ it visits.
double hager(std::int64_t n, const Precondition& apply, const Precondition& apply_transpose, std::vector<double> x) {
  const auto len = static_cast<std::size_t>(n);
  const auto one_norm = [](const std::vector<double>& v) {
    double s = 0.0;
    for (double e : v) s += std::abs(e);
    return s;
  };
  apply(x.data());
  double estimate = one_norm(x);
  if (n == 1 || !std::isfinite(estimate)) return estimate;
  std::size_t last_j = len;  // no unit vector tried yet
  for (int iteration = 0; iteration < 5; ++iteration) {
    std::vector<double> xi(len);  // sign(B x)
    for (std::size_t i = 0; i < len; ++i) xi[i] = x[i] >= 0.0 ? 1.0 : -1.0;
    apply_transpose(xi.data());
    const auto j = static_cast<std::size_t>(
        std::max_element(xi.begin(), xi.end(), [](double a, double b) { return std::abs(a) < std::abs(b); }) -
        xi.begin());
    if (j == last_j) break;  // the same unit vector again: no progress possible
    last_j = j;
    std::vector<double> e(len, 0.0);
    e[j] = 1.0;
    apply(e.data());
    const double next = one_norm(e);
    if (!std::isfinite(next)) return next;
    if (next <= estimate) break;
    estimate = next;
    x = std::move(e);
  }
  return estimate;
}

}  // namespace

double one_norm_estimate(std::int64_t n, const Precondition& apply, const Precondition& apply_transpose,
                         bool two_starts) {
  if (n == 0) return 0.0;
  const auto len = static_cast<std::size_t>(n);
  const auto one_norm = [](const std::vector<double>& v) {
    double s = 0.0;
    for (double e : v) s += std::abs(e);
    return s;
  };
  double estimate = hager(n, apply, apply_transpose, std::vector<double>(len, 1.0 / static_cast<double>(n)));
  if (n == 1 || !std::isfinite(estimate)) return estimate;
  // A second start with fixed pseudo-random signs (splitmix64 of the index): the iteration from the uniform
  // start alone can settle on a local maximum several times below the norm (found on Wilkinson's growth
  // matrix, a factor 6.6); two independent starts make that rarer, as Higham and Tisseur's block estimator
  // with t = 2 columns (SIAM J. Matrix Anal. Appl. 21 (2000) 1185–1201).
  if (two_starts) {
    const double second = hager(n, apply, apply_transpose, signs_start(n));
    if (!std::isfinite(second)) return second;
    estimate = std::max(estimate, second);
  }
  // Higham's extra vector, which catches the matrices that defeat the power-method steps.
  std::vector<double> alt = extra_vector(n);
  apply(alt.data());
  return std::max(estimate, 2.0 * one_norm(alt) / (3.0 * static_cast<double>(n)));
}

namespace {

// One Hager–Higham iteration of one_norm_estimates, as hager() runs it, advanced a step per round.
struct Chain {
  std::size_t problem = 0;
  std::vector<double> x;   // the start, then B·(the best vector so far)
  double estimate = 0.0;   // the largest ‖B v‖₁ visited
  std::size_t last_j = 0;  // the unit vector tried last (len: none yet)
  int iteration = 0;       // unit vectors accepted so far
  bool started = false;    // the start vector has been applied
  bool done = false;
};

}  // namespace

std::vector<double> one_norm_estimates(std::int64_t n, const BlockApply& apply, std::span<const bool> two_starts,
                                       const std::function<bool(std::span<const double>)>& stop) {
  const std::size_t problems = two_starts.size();
  std::vector<double> out(problems, 0.0);
  if (n == 0 || problems == 0) return out;
  const auto len = static_cast<std::size_t>(n);
  // chains[2p]: the uniform start; chains[2p + 1]: the signs start (done at once without two_starts).
  std::vector<Chain> chains(2 * problems);
  for (std::size_t p = 0; p < problems; ++p) {
    chains[2 * p] = {p, std::vector<double>(len, 1.0 / static_cast<double>(n)), 0.0, len, 0, false, false};
    chains[2 * p + 1] = {p, two_starts[p] ? signs_start(n) : std::vector<double>{}, 0.0, len, 0, false, !two_starts[p]};
  }
  // Higham's extra vector goes with the first round (n ≥ 2).
  std::vector<double> extra(problems, 0.0);
  std::vector<double> block;
  std::vector<std::size_t> owner;  // chain (or problems·2 + p for problem p's extra vector) per column
  std::vector<std::size_t> which;  // problem per column
  bool first = true;
  for (;;) {
    // Apply B to every active chain's vector (and in the first round to the extra vectors).
    owner.clear();
    which.clear();
    for (std::size_t c = 0; c < chains.size(); ++c)
      if (!chains[c].done) {
        owner.push_back(c);
        which.push_back(chains[c].problem);
      }
    if (first && n > 1)
      for (std::size_t p = 0; p < problems; ++p) {
        owner.push_back(chains.size() + p);
        which.push_back(p);
      }
    if (owner.empty()) break;
    block.assign(owner.size() * len, 0.0);
    for (std::size_t k = 0; k < owner.size(); ++k) {
      double* col = block.data() + k * len;
      if (owner[k] >= chains.size()) {
        const std::vector<double> alt = extra_vector(n);
        std::copy(alt.begin(), alt.end(), col);
      } else if (!chains[owner[k]].started) {
        std::copy(chains[owner[k]].x.begin(), chains[owner[k]].x.end(), col);
      } else {
        col[chains[owner[k]].last_j] = 1.0;  // the unit vector e_j
      }
    }
    apply(block.data(), which, false);
    for (std::size_t k = 0; k < owner.size(); ++k) {
      const double* col = block.data() + k * len;
      if (owner[k] >= chains.size()) {
        extra[owner[k] - chains.size()] = one_norm(col, len);
        continue;
      }
      Chain& ch = chains[owner[k]];
      const double value = one_norm(col, len);
      if (!ch.started) {
        ch.started = true;
        ch.estimate = value;
        ch.x.assign(col, col + len);
        ch.done = n == 1 || !std::isfinite(value);
        continue;
      }
      if (!std::isfinite(value)) {  // hager() returns the non-finite value
        ch.estimate = value;
        ch.done = true;
      } else if (value <= ch.estimate) {
        ch.done = true;
      } else {
        ch.estimate = value;
        ch.x.assign(col, col + len);
        ch.done = ++ch.iteration == 5;
      }
    }
    first = false;
    if (stop) {
      // Every final estimate is at least the largest value its chains and extra vector have reached.
      std::vector<double> lower(problems, 0.0);
      for (const Chain& ch : chains)
        if (ch.started) lower[ch.problem] = std::max(lower[ch.problem], ch.estimate);
      if (n > 1)
        for (std::size_t p = 0; p < problems; ++p)
          lower[p] = std::max(lower[p], 2.0 * extra[p] / (3.0 * static_cast<double>(n)));
      if (stop(lower)) return {};
    }
    // Bᵀ sign(B v) for every chain still running: the next unit vector, unless it repeats.
    owner.clear();
    which.clear();
    for (std::size_t c = 0; c < chains.size(); ++c)
      if (!chains[c].done) {
        owner.push_back(c);
        which.push_back(chains[c].problem);
      }
    if (owner.empty()) break;
    block.assign(owner.size() * len, 0.0);
    for (std::size_t k = 0; k < owner.size(); ++k) {
      const std::vector<double>& x = chains[owner[k]].x;
      double* col = block.data() + k * len;
      for (std::size_t i = 0; i < len; ++i) col[i] = x[i] >= 0.0 ? 1.0 : -1.0;
    }
    apply(block.data(), which, true);
    for (std::size_t k = 0; k < owner.size(); ++k) {
      const double* col = block.data() + k * len;
      Chain& ch = chains[owner[k]];
      const auto j = static_cast<std::size_t>(
          std::max_element(col, col + len, [](double a, double b) { return std::abs(a) < std::abs(b); }) - col);
      if (j == ch.last_j) {
        ch.done = true;
        continue;
      }
      ch.last_j = j;
    }
  }
  // As one_norm_estimate combines its starts and the extra vector.
  for (std::size_t p = 0; p < problems; ++p) {
    double estimate = chains[2 * p].estimate;
    if (n == 1 || !std::isfinite(estimate)) {
      out[p] = estimate;
      continue;
    }
    if (two_starts[p]) {
      const double second = chains[2 * p + 1].estimate;
      if (!std::isfinite(second)) {
        out[p] = second;
        continue;
      }
      estimate = std::max(estimate, second);
    }
    out[p] = std::max(estimate, 2.0 * extra[p] / (3.0 * static_cast<double>(n)));
  }
  return out;
}

}  // namespace trnsolver::detail
