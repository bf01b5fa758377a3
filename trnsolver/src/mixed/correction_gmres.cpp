#include "mixed/correction_gmres.hpp"

#include "scaled_norm.hpp"

#include <algorithm>
#include <cmath>

namespace trnsolver::detail {

GmresOutcome correction_gmres(std::int64_t n, const Apply& apply_a, const Precondition& precondition, const double* rhs,
                              double* d, double tolerance, std::int64_t max_iterations) {
  GmresOutcome out;
  std::fill(d, d + n, 0.0);
  const auto len = static_cast<std::size_t>(n);
  std::vector<double> w(rhs, rhs + n);
  precondition(w.data());
  const double beta = scaled_norm2(w.data(), n);
  if (beta == 0.0 || !std::isfinite(beta)) {
    out.converged = beta == 0.0;
    return out;
  }
  const std::int64_t m = std::max<std::int64_t>(1, std::min(max_iterations, n));
  std::vector<std::vector<double>> v;  // the Arnoldi basis
  v.reserve(static_cast<std::size_t>(m + 1));
  v.emplace_back(len);
  for (std::size_t i = 0; i < len; ++i) v[0][i] = w[i] / beta;
  std::vector<std::vector<double>> h(static_cast<std::size_t>(m),
                                     std::vector<double>(static_cast<std::size_t>(m + 1), 0.0));
  std::vector<double> cs(static_cast<std::size_t>(m)), sn(static_cast<std::size_t>(m)),
      g(static_cast<std::size_t>(m + 1), 0.0);
  g[0] = beta;
  std::int64_t k = 0;
  double rel = 1.0;
  while (k < m) {
    const auto kk = static_cast<std::size_t>(k);
    apply_a(v[kk].data(), w.data());
    precondition(w.data());
    for (std::size_t j = 0; j <= kk; ++j) {  // modified Gram–Schmidt
      double dot = 0.0;
      for (std::size_t i = 0; i < len; ++i) dot += w[i] * v[j][i];
      h[kk][j] = dot;
      for (std::size_t i = 0; i < len; ++i) w[i] -= dot * v[j][i];
    }
    const double hn = scaled_norm2(w.data(), n);
    h[kk][kk + 1] = hn;
    for (std::size_t j = 0; j < kk; ++j) {  // previous rotations on the new column
      const double t = cs[j] * h[kk][j] + sn[j] * h[kk][j + 1];
      h[kk][j + 1] = -sn[j] * h[kk][j] + cs[j] * h[kk][j + 1];
      h[kk][j] = t;
    }
    const double r = std::hypot(h[kk][kk], h[kk][kk + 1]);
    cs[kk] = r == 0.0 ? 1.0 : h[kk][kk] / r;
    sn[kk] = r == 0.0 ? 0.0 : h[kk][kk + 1] / r;
    h[kk][kk] = r;
    h[kk][kk + 1] = 0.0;
    g[kk + 1] = -sn[kk] * g[kk];
    g[kk] = cs[kk] * g[kk];
    ++k;
    rel = std::abs(g[kk + 1]) / beta;
    if (!std::isfinite(rel) || rel <= tolerance || hn == 0.0) break;  // converged, or an invariant subspace
    v.emplace_back(len);
    for (std::size_t i = 0; i < len; ++i) v[kk + 1][i] = w[i] / hn;
  }
  // y = H⁻¹ g (upper triangular k×k), d = V y.
  std::vector<double> y(static_cast<std::size_t>(k));
  for (std::int64_t i = k - 1; i >= 0; --i) {
    const auto ii = static_cast<std::size_t>(i);
    double s = g[ii];
    for (std::size_t j = ii + 1; j < static_cast<std::size_t>(k); ++j) s -= h[j][ii] * y[j];
    y[ii] = h[ii][ii] == 0.0 ? 0.0 : s / h[ii][ii];
  }
  for (std::size_t j = 0; j < static_cast<std::size_t>(k); ++j)
    for (std::size_t i = 0; i < len; ++i) d[i] += y[j] * v[j][i];
  out.iterations = k;
  out.relative_residual = rel;
  out.converged = std::isfinite(rel) && rel <= tolerance;
  return out;
}

}  // namespace trnsolver::detail
