#include "mixed/error_bounds.hpp"

#include "mixed/norm_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

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

std::vector<double> scaled_inverse_estimates(std::int64_t n, const BlockInverse& inverse,
                                             std::span<const ScaledInverse> norms, const BlockProduct& product,
                                             const std::function<bool(std::span<const double>)>& stop) {
  const auto len = static_cast<std::size_t>(n);
  const std::unique_ptr<bool[]> two(new bool[norms.size()]);  // (std::vector<bool> has no span)
  for (std::size_t p = 0; p < norms.size(); ++p) two[p] = norms[p].two_starts;
  // B_p = diag(g)·A⁻ᵀ·diag(1/|x|), B_pᵀ = diag(1/|x|)·A⁻¹·diag(g), the same operations in the same order as
  // the single-vector closures of abs_inverse_norm and bounds_from.
  const auto scale = [&](double* col, const ScaledInverse& s, bool by_g) {
    if (by_g) {
      if (s.g != nullptr)
        for (std::size_t i = 0; i < len; ++i) col[i] *= (*s.g)[i];
    } else if (s.x != nullptr) {
      for (std::size_t i = 0; i < len; ++i) col[i] /= std::abs(s.x[i]);
    }
  };
  // Columns of the scaled inverses (one block through `inverse`) and of F (their own block, the products with A
  // gathered): Fᵀv = v − Aᵀ(Â⁻ᵀv), F v = v − Â⁻¹(A v).
  std::vector<double> plain, minus, kept, product_out;
  const BlockApply apply = [&](double* v, std::span<const std::size_t> problem, bool transpose) {
    const std::size_t k = problem.size();
    std::vector<std::size_t> pc, mc;  // the scaled-inverse and the F columns
    for (std::size_t c = 0; c < k; ++c) (norms[problem[c]].identity_minus ? mc : pc).push_back(c);
    const auto gather = [&](const std::vector<std::size_t>& cols, std::vector<double>& to) {
      to.resize(cols.size() * len);
      for (std::size_t m = 0; m < cols.size(); ++m)
        std::copy(v + cols[m] * len, v + (cols[m] + 1) * len, to.begin() + static_cast<std::ptrdiff_t>(m * len));
    };
    const auto scatter = [&](const std::vector<std::size_t>& cols, const std::vector<double>& from) {
      for (std::size_t m = 0; m < cols.size(); ++m)
        std::copy(from.begin() + static_cast<std::ptrdiff_t>(m * len),
                  from.begin() + static_cast<std::ptrdiff_t>((m + 1) * len), v + cols[m] * len);
    };
    if (!pc.empty()) {
      gather(pc, plain);
      for (std::size_t m = 0; m < pc.size(); ++m) scale(plain.data() + m * len, norms[problem[pc[m]]], transpose);
      inverse(plain.data(), static_cast<std::int64_t>(pc.size()), !transpose);
      for (std::size_t m = 0; m < pc.size(); ++m) scale(plain.data() + m * len, norms[problem[pc[m]]], !transpose);
      scatter(pc, plain);
    }
    if (!mc.empty()) {
      const auto km = static_cast<std::int64_t>(mc.size());
      gather(mc, minus);
      kept = minus;
      product_out.resize(minus.size());
      if (transpose) {  // F v = v − Â⁻¹(A v)
        product(minus.data(), product_out.data(), km, false);
        inverse(product_out.data(), km, false);
      } else {  // Fᵀ v = v − Aᵀ(Â⁻ᵀ v)
        inverse(minus.data(), km, true);
        product(minus.data(), product_out.data(), km, true);
      }
      for (std::size_t i = 0; i < minus.size(); ++i) minus[i] = kept[i] - product_out[i];
      scatter(mc, minus);
    }
  };
  return one_norm_estimates(n, apply, std::span<const bool>(two.get(), norms.size()), stop);
}

std::vector<ForwardErrorBounds> bounds_from_block(std::int64_t n, const BlockInverse& inverse,
                                                  std::span<const BoundsRequest> requests,
                                                  std::span<const ScaledInverse> extra,
                                                  std::vector<double>& extra_estimates, const BlockProduct& product,
                                                  const std::function<bool(std::span<const double>)>& stop) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const auto len = static_cast<std::size_t>(n);
  std::vector<ScaledInverse> norms(extra.begin(), extra.end());
  // Per request: the index of its normwise and componentwise estimate in `norms` (none: -1).
  std::vector<std::ptrdiff_t> normwise_at(requests.size(), -1), componentwise_at(requests.size(), -1);
  std::vector<ForwardErrorBounds> out(requests.size());
  std::vector<double> xnorms(requests.size(), 0.0);
  for (std::size_t q = 0; q < requests.size(); ++q) {
    const BoundsRequest& r = requests[q];
    bool zero = true;
    for (double v : *r.g) zero = zero && v == 0.0;
    if (zero) continue;  // |x̂ − x| ≤ 0: x̂ is exact (out[q] stays 0)
    for (std::size_t i = 0; i < len; ++i) xnorms[q] = std::max(xnorms[q], std::abs(r.x[i]));
    if (r.normwise) {
      normwise_at[q] = static_cast<std::ptrdiff_t>(norms.size());
      norms.push_back({r.g, nullptr, true});
    }
    bool zero_component = false;
    for (std::size_t i = 0; i < len; ++i) zero_component = zero_component || r.x[i] == 0.0;
    if (r.componentwise && !zero_component) {
      componentwise_at[q] = static_cast<std::ptrdiff_t>(norms.size());
      norms.push_back({r.g, r.x, true});
    }
    out[q].normwise = out[q].estimate = out[q].componentwise = inf;
  }
  const std::vector<double> est =
      scaled_inverse_estimates(n, inverse, norms, product,
                               stop ? std::function<bool(std::span<const double>)>([&](std::span<const double> lower) {
                                 return stop(lower.first(extra.size()));
                               })
                                    : nullptr);
  if (est.empty() && !norms.empty()) {
    extra_estimates.clear();
    return {};
  }
  extra_estimates.assign(est.begin(), est.begin() + static_cast<std::ptrdiff_t>(extra.size()));
  for (std::size_t q = 0; q < requests.size(); ++q) {
    if (normwise_at[q] >= 0) {
      // As abs_inverse_norm and bounds_from: 3·estimate, then relative to ‖x‖.
      const double normwise = kEstimatorSafety * est[static_cast<std::size_t>(normwise_at[q])];
      out[q].estimate = xnorms[q] > 0.0 ? normwise / kEstimatorSafety / xnorms[q] : inf;
      out[q].normwise = xnorms[q] > 0.0 ? normwise / xnorms[q] : inf;
    }
    if (componentwise_at[q] >= 0)
      out[q].componentwise = kEstimatorSafety * est[static_cast<std::size_t>(componentwise_at[q])];
  }
  return out;
}

}  // namespace trnsolver::detail
