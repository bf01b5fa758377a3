#pragma once
// x = A⁻¹b for the stored double A and b in binary128 (__float128, u = 2^-113), accurate to far below 2^-53
// even for growth matrices: Gaussian elimination with partial pivoting in binary128 (as
// trnsci_testing::solve_quad) followed by refinement steps whose residuals are computed in binary128 and whose
// corrections reuse the binary128 LU. GEPP alone has error ≈ growth·n·2^-113·κ, which for Wilkinson's matrix
// at n = 60 (growth 2^59) is ≈ 1e-16 relative — as large as the errors being checked; each refinement step
// multiplies the error by about that same factor (≪ 1), so two steps leave ≈ growth²·2^-226 + n·κ·2^-113.
// No code of trnsolver or LAPACK is involved. Returns an empty vector when A is exactly singular in binary128.
#include <trnsci_testing/adversarial.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace trnsolver_test {

using quad = trnsci_testing::quad;

inline std::vector<quad> solve_quad_refined(std::int64_t n, const double* a_colmajor, const double* b,
                                            int refinements = 2) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<quad> lu(un * un);
  for (std::size_t i = 0; i < un * un; ++i) lu[i] = a_colmajor[i];
  std::vector<std::size_t> piv(un);
  for (std::size_t k = 0; k < un; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < un; ++i)
      if (trnsci_testing::quad_abs(lu[i + k * un]) > trnsci_testing::quad_abs(lu[p + k * un])) p = i;
    if (lu[p + k * un] == 0) return {};
    piv[k] = p;
    if (p != k)
      for (std::size_t j = 0; j < un; ++j) std::swap(lu[k + j * un], lu[p + j * un]);
    for (std::size_t i = k + 1; i < un; ++i) lu[i + k * un] /= lu[k + k * un];
    for (std::size_t j = k + 1; j < un; ++j) {
      const quad u = lu[k + j * un];
      if (u == 0) continue;
      for (std::size_t i = k + 1; i < un; ++i) lu[i + j * un] -= lu[i + k * un] * u;
    }
  }
  const auto lu_solve = [&](std::vector<quad>& v) {
    for (std::size_t k = 0; k < un; ++k) std::swap(v[k], v[piv[k]]);
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t i = j + 1; i < un; ++i) v[i] -= lu[i + j * un] * v[j];
    for (std::size_t j = un; j-- > 0;) {
      v[j] /= lu[j + j * un];
      for (std::size_t i = 0; i < j; ++i) v[i] -= lu[i + j * un] * v[j];
    }
  };
  std::vector<quad> x(b, b + n);
  lu_solve(x);
  for (int step = 0; step < refinements; ++step) {
    std::vector<quad> r(b, b + n);
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t i = 0; i < un; ++i) r[i] -= static_cast<quad>(a_colmajor[i + j * un]) * x[j];
    lu_solve(r);
    for (std::size_t i = 0; i < un; ++i) x[i] += r[i];
  }
  return x;
}

}  // namespace trnsolver_test
