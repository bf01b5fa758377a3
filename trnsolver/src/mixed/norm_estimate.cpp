#include "mixed/norm_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace trnsolver::detail {

double one_norm_estimate(std::int64_t n, const Precondition& apply, const Precondition& apply_transpose) {
  if (n == 0) return 0.0;
  const auto len = static_cast<std::size_t>(n);
  const auto one_norm = [](const std::vector<double>& v) {
    double s = 0.0;
    for (double x : v) s += std::abs(x);
    return s;
  };
  std::vector<double> x(len, 1.0 / static_cast<double>(n));
  apply(x.data());
  double estimate = one_norm(x);
  if (n == 1 || !std::isfinite(estimate)) return estimate;
  std::size_t last_j = len;  // no unit vector tried yet
  for (int iteration = 0; iteration < 5; ++iteration) {
    std::vector<double> xi(len);  // sign(B x)
    for (std::size_t i = 0; i < len; ++i) xi[i] = x[i] >= 0.0 ? 1.0 : -1.0;
    apply_transpose(xi.data());
    const auto j = static_cast<std::size_t>(std::max_element(xi.begin(), xi.end(),
                                                             [](double a, double b) { return std::abs(a) < std::abs(b); }) -
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
  // Higham's extra vector, which catches the matrices that defeat the power-method steps.
  std::vector<double> alt(len);
  for (std::size_t i = 0; i < len; ++i)
    alt[i] = (i % 2 == 0 ? 1.0 : -1.0) * (1.0 + static_cast<double>(i) / static_cast<double>(n - 1));
  apply(alt.data());
  return std::max(estimate, 2.0 * one_norm(alt) / (3.0 * static_cast<double>(n)));
}

}  // namespace trnsolver::detail
