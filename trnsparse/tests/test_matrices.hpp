#pragma once
// Model problems for the solver tests: 2-D and 3-D Poisson (SPD, known spectrum), a convection-diffusion
// operator (unsymmetric, nonsingular) and helpers to measure residuals in long double.

#include <trnsparse/formats.hpp>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <vector>

namespace trnsparse_test {

/// 5-point (2-D, nz = 1) or 7-point (3-D) Laplacian on an n×n(×nz) grid with Dirichlet boundary;
/// `convection` > 0 adds a first-order upwind term c·∂/∂x, making the matrix unsymmetric (still an M-matrix).
inline trnsparse::Csr<double> laplacian(std::int64_t n, std::int64_t nz = 1, double convection = 0.0) {
  trnsparse::Coo<double> coo;
  coo.rows = coo.cols = n * n * nz;
  auto add = [&](std::int64_t r, std::int64_t c, double v) {
    coo.row.push_back(static_cast<std::int32_t>(r));
    coo.col.push_back(static_cast<std::int32_t>(c));
    coo.values.push_back(v);
  };
  const double diag = nz > 1 ? 6.0 : 4.0;
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t r = (k * n + j) * n + i;
        add(r, r, diag + convection);
        if (i > 0) add(r, r - 1, -1.0 - convection);
        if (i + 1 < n) add(r, r + 1, -1.0);
        if (j > 0) add(r, r - n, -1.0);
        if (j + 1 < n) add(r, r + n, -1.0);
        if (nz > 1 && k > 0) add(r, r - n * n, -1.0);
        if (nz > 1 && k + 1 < nz) add(r, r + n * n, -1.0);
      }
  return trnsparse::to_csr(coo);
}

/// The n×n identity.
inline trnsparse::Csr<double> identity(std::int64_t n) {
  trnsparse::Csr<double> e;
  e.rows = e.cols = n;
  for (std::int64_t i = 0; i < n; ++i) {
    e.indices.push_back(static_cast<std::int32_t>(i));
    e.values.push_back(1.0);
    e.indptr.push_back(static_cast<std::int32_t>(i + 1));
  }
  return e;
}

/// Extreme eigenvalues of the n×n 2-D (nz = 1) or n³ 3-D Laplacian: d·(2 − 2cos(π/(n+1))) and
/// d·(2 + 2cos(π/(n+1))) with d = 2 or 3 dimensions (sum of 1-D spectra).
inline std::pair<double, double> laplacian_extremes(std::int64_t n, int dims) {
  const double c = std::cos(std::numbers::pi / static_cast<double>(n + 1));
  return {dims * (2.0 - 2.0 * c), dims * (2.0 + 2.0 * c)};
}

/// ‖b − A x‖∞ in long double.
inline long double residual_inf(const trnsparse::Csr<double>& a, std::span<const double> x, std::span<const double> b) {
  long double worst = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    long double s = b[static_cast<std::size_t>(r)];
    for (auto k = a.indptr[static_cast<std::size_t>(r)]; k < a.indptr[static_cast<std::size_t>(r) + 1]; ++k)
      s -= static_cast<long double>(a.values[static_cast<std::size_t>(k)]) *
           x[static_cast<std::size_t>(a.indices[static_cast<std::size_t>(k)])];
    worst = std::max(worst, std::fabs(s));
  }
  return worst;
}

/// ‖A‖∞ (max row sum of |a_ij|).
inline double norm_inf(const trnsparse::Csr<double>& a) {
  double worst = 0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    double s = 0;
    for (auto k = a.indptr[static_cast<std::size_t>(r)]; k < a.indptr[static_cast<std::size_t>(r) + 1]; ++k)
      s += std::fabs(a.values[static_cast<std::size_t>(k)]);
    worst = std::max(worst, s);
  }
  return worst;
}

inline double vec_inf(std::span<const double> v) {
  double m = 0;
  for (double e : v) m = std::max(m, std::fabs(e));
  return m;
}

/// Normwise backward error ‖b − A x‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞) (Rigal–Gaches; Higham ASNA Thm 7.1).
inline double backward_error(const trnsparse::Csr<double>& a, std::span<const double> x, std::span<const double> b) {
  const double denom = norm_inf(a) * vec_inf(x) + vec_inf(b);
  return denom == 0 ? 0.0 : static_cast<double>(residual_inf(a, x, b) / denom);
}

}  // namespace trnsparse_test
