#include "mixed/error_bounds.hpp"

#include "mixed/norm_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace trnsolver::detail {

namespace {

// The estimator returns a lower bound of the norm, in practice within a factor 3 of it (Higham, ASNA 2nd ed.,
// §15.3): the bounds report three times the estimate.
constexpr double kEstimatorSafety = 3.0;
constexpr double kU = 0x1p-53;

}  // namespace

double inverse_norm_estimate(std::int64_t n, const Inverse& inverse) {
  return one_norm_estimate(n, inverse.apply_transpose, inverse.apply, false);
}

double abs_inverse_norm(std::int64_t n, const Inverse& inverse, const std::vector<double>& g) {
  const auto len = static_cast<std::size_t>(n);
  bool zero = true;
  for (double v : g) zero = zero && v == 0.0;
  if (zero) return 0.0;
  // ‖ |A⁻¹| g ‖∞ = ‖ A⁻¹ diag(g) ‖∞ = ‖ diag(g) A⁻ᵀ ‖₁.
  return kEstimatorSafety * one_norm_estimate(
                                n,
                                [&](double* v) {
                                  inverse.apply_transpose(v);
                                  for (std::size_t i = 0; i < len; ++i) v[i] *= g[i];
                                },
                                [&](double* v) {
                                  for (std::size_t i = 0; i < len; ++i) v[i] *= g[i];
                                  inverse.apply(v);
                                });
}

ForwardErrorBounds bounds_from(std::int64_t n, const Inverse& inverse, const std::vector<double>& g, const double* x,
                               bool normwise_wanted, bool componentwise_wanted) {
  ForwardErrorBounds out;
  const auto len = static_cast<std::size_t>(n);
  bool zero = true;
  for (double v : g) zero = zero && v == 0.0;
  if (zero) return out;  // |x̂ − x| ≤ 0: x̂ is exact
  double xnorm = 0.0;
  for (std::size_t i = 0; i < len; ++i) xnorm = std::max(xnorm, std::abs(x[i]));
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (normwise_wanted) {
    const double normwise = abs_inverse_norm(n, inverse, g);
    out.estimate = xnorm > 0.0 ? normwise / kEstimatorSafety / xnorm : inf;
    out.normwise = xnorm > 0.0 ? normwise / xnorm : inf;
  } else {
    out.estimate = out.normwise = inf;
  }
  if (!componentwise_wanted) {
    out.componentwise = inf;
    return out;
  }
  // max_i (|A⁻¹| g)_i / |x_i| = ‖ diag(1/|x|) A⁻¹ diag(g) ‖∞ = ‖ diag(g) A⁻ᵀ diag(1/|x|) ‖₁.
  bool zero_component = false;
  for (std::size_t i = 0; i < len; ++i) zero_component = zero_component || x[i] == 0.0;
  if (zero_component) {
    out.componentwise = inf;
    return out;
  }
  const double componentwise = one_norm_estimate(
      n,
      [&](double* v) {
        for (std::size_t i = 0; i < len; ++i) v[i] /= std::abs(x[i]);
        inverse.apply_transpose(v);
        for (std::size_t i = 0; i < len; ++i) v[i] *= g[i];
      },
      [&](double* v) {
        for (std::size_t i = 0; i < len; ++i) v[i] *= g[i];
        inverse.apply(v);
        for (std::size_t i = 0; i < len; ++i) v[i] /= std::abs(x[i]);
      });
  out.componentwise = kEstimatorSafety * componentwise;
  return out;
}

ForwardErrorBounds forward_error_bounds(std::int64_t n, const Inverse& inverse, const Residual& res, const double* x) {
  const auto len = static_cast<std::size_t>(n);
  std::vector<double> g(len);
  for (std::size_t i = 0; i < len; ++i) g[i] = std::abs(res.r[i]) * (1 + 2 * kU) + res.error_factor * res.scale[i];
  return bounds_from(n, inverse, g, x);
}

}  // namespace trnsolver::detail
