#pragma once
// Shared pieces of the randomized-NLA tests: matrices with a prescribed spectrum built from orthogonal
// factors that LAPACK computes (never the code under test), and the oracle norms of residuals (LAPACK
// dgesdd in fp64 on the residual formed in long double).
//
// Oracle accuracy. The test matrices are A = U·diag(σ)·Vᵀ formed in long double from LAPACK's fp64
// orthogonal U, V (orthogonal to ≈ n·2⁻⁵³), then rounded to T: A's singular values differ from σ by at
// most ≈ (n·2⁻⁵³ + u_T)·σ₁ (Weyl), far below every tolerance below (which are ≥ 1e-8·σ₁ for double and
// the statistical bounds). Residual spectral norms are LAPACK's singular values of the long-double
// residual rounded to double: error ≤ p(n)·2⁻⁵³·‖R‖₂ relative.
#include "dense_test_support.hpp"

#include <trnsolver/randomized.hpp>

#include <lapacke.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace rnla_test {

using dense_test::LD;
using dense_test::W;
using trncore::Layout;

/// An m×m orthogonal matrix (column-major doubles) from LAPACK's QR of a Gaussian matrix.
inline std::vector<double> random_orthogonal(std::int64_t m, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  std::vector<double> q(static_cast<std::size_t>(m * m)), tau(static_cast<std::size_t>(m));
  for (double& v : q) v = g(rng);
  if (m == 0) return q;
  const auto mi = static_cast<lapack_int>(m);
  LAPACKE_dgeqrf(LAPACK_COL_MAJOR, mi, mi, q.data(), mi, tau.data());
  LAPACKE_dorgqr(LAPACK_COL_MAJOR, mi, mi, mi, q.data(), mi, tau.data());
  return q;
}

/// A = U·diag(sigma)·Vᵀ (m×n, sigma has min(m, n) entries) in long double, U and V random orthogonal.
inline W with_spectrum(std::int64_t m, std::int64_t n, const std::vector<double>& sigma, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<double> u = random_orthogonal(m, rng), v = random_orthogonal(n, rng);
  W a(m, n);
  for (std::size_t p = 0; p < sigma.size(); ++p) {
    if (sigma[p] == 0.0) continue;
    for (std::int64_t i = 0; i < m; ++i) {
      const LD left = static_cast<LD>(u[p * static_cast<std::size_t>(m) + static_cast<std::size_t>(i)]) * sigma[p];
      for (std::int64_t j = 0; j < n; ++j)
        a(i, j) += left * v[p * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)];
    }
  }
  return a;
}

/// A symmetric n×n matrix Z·diag(lambda)·Zᵀ with Z random orthogonal, in long double.
inline W symmetric_with_spectrum(const std::vector<double>& lambda, std::uint64_t seed) {
  const auto n = static_cast<std::int64_t>(lambda.size());
  std::mt19937_64 rng(seed);
  const std::vector<double> z = random_orthogonal(n, rng);
  W a(n, n);
  for (std::int64_t p = 0; p < n; ++p)
    for (std::int64_t i = 0; i < n; ++i) {
      const LD left = static_cast<LD>(z[static_cast<std::size_t>(p * n + i)]) * lambda[static_cast<std::size_t>(p)];
      for (std::int64_t j = 0; j < n; ++j) a(i, j) += left * z[static_cast<std::size_t>(p * n + j)];
    }
  return a;
}

/// The matrix rounded to T in `layout` (dense, ld = line length).
template <class T>
trnsolver::DenseMatrix<T> to_dense(const W& w, Layout layout) {
  trnsolver::DenseMatrix<T> d(w.rows, w.cols, layout);
  for (std::int64_t i = 0; i < w.rows; ++i)
    for (std::int64_t j = 0; j < w.cols; ++j) d(i, j) = static_cast<T>(w(i, j));
  return d;
}

/// Singular values (descending) of a long-double matrix, by LAPACK dgesdd on its rounding to double.
inline std::vector<double> singular_values(const W& r) {
  const std::int64_t k = std::min(r.rows, r.cols);
  std::vector<double> s(static_cast<std::size_t>(k));
  if (k == 0) return s;
  std::vector<double> a(static_cast<std::size_t>(r.rows * r.cols));
  for (std::int64_t i = 0; i < r.rows; ++i)
    for (std::int64_t j = 0; j < r.cols; ++j)
      a[static_cast<std::size_t>(i + j * r.rows)] = static_cast<double>(r(i, j));
  double dummy = 0.0;
  const int info =
      LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', static_cast<lapack_int>(r.rows), static_cast<lapack_int>(r.cols), a.data(),
                     static_cast<lapack_int>(r.rows), s.data(), &dummy, 1, &dummy, 1);
  if (info != 0) s.assign(s.size(), NAN);
  return s;
}

inline double spectral_norm(const W& r) {
  const auto s = singular_values(r);
  return s.empty() ? 0.0 : s.front();
}

/// A − Σ_p left(i, p)·values[p]·right(p, j) in long double, for p < rank.
template <class T, class Left, class Right>
W subtract_low_rank(W r, std::int64_t rank, Left left, const std::vector<T>& values, Right right) {
  for (std::int64_t p = 0; p < rank; ++p)
    for (std::int64_t i = 0; i < r.rows; ++i) {
      const LD l = static_cast<LD>(left(i, p)) * values[static_cast<std::size_t>(p)];
      for (std::int64_t j = 0; j < r.cols; ++j) r(i, j) -= l * right(p, j);
    }
  return r;
}

/// A − U·diag(s)·Vᵀ (U m×r, Vᵀ r×n as rsvd returns them).
template <class T>
W svd_residual(const W& a, const trnsolver::RsvdResult<T>& f) {
  return subtract_low_rank(
      a, f.rank, [&](std::int64_t i, std::int64_t p) { return f.u(i, p); }, f.s,
      [&](std::int64_t p, std::int64_t j) { return f.vt(p, j); });
}

/// A − U·diag(w)·Uᵀ (nystrom, eigh_randomized).
template <class T>
W eigen_residual(const W& a, const trnsolver::LowRankEigen<T>& f) {
  return subtract_low_rank(
      a, f.rank, [&](std::int64_t i, std::int64_t p) { return f.u(i, p); }, f.w,
      [&](std::int64_t p, std::int64_t j) { return f.u(j, p); });
}

/// ‖QᵀQ − I‖_max for the columns of a column-major result.
template <class T>
LD orthonormality_error(const trnsolver::DenseMatrix<T>& q) {
  LD worst = 0;
  for (std::int64_t a = 0; a < q.cols; ++a)
    for (std::int64_t b = 0; b < q.cols; ++b) {
      LD d = 0;
      for (std::int64_t i = 0; i < q.rows; ++i) d += static_cast<LD>(q(i, a)) * q(i, b);
      worst = std::max(worst, std::fabs(d - (a == b ? 1 : 0)));
    }
  return worst;
}

/// HMT Cor. 10.10's bound on E‖(I − P)A‖₂ for a Gaussian sketch of k + p columns, q power iterations.
inline double hmt_bound(const std::vector<double>& sigma, std::int64_t k, std::int64_t p, std::int64_t q) {
  const double e = 2 * q + 1;
  double tail = 0.0;
  for (std::size_t j = static_cast<std::size_t>(k); j < sigma.size(); ++j) tail += std::pow(sigma[j], 2 * e);
  const double kk = static_cast<double>(k), pp = static_cast<double>(p);
  const double inner = (1 + std::sqrt(kk / (pp - 1))) * std::pow(sigma[static_cast<std::size_t>(k)], e) +
                       std::exp(1.0) * std::sqrt(kk + pp) / pp * std::sqrt(tail);
  return std::pow(inner, 1.0 / e);
}

/// σ_j = 10^{−j/decades_step} (exponential decay) and σ_j = (j + 1)^{−power} (polynomial decay).
inline std::vector<double> exponential_spectrum(std::int64_t count, double per_decade) {
  std::vector<double> s(static_cast<std::size_t>(count));
  for (std::int64_t j = 0; j < count; ++j)
    s[static_cast<std::size_t>(j)] = std::pow(10.0, -static_cast<double>(j) / per_decade);
  return s;
}
inline std::vector<double> polynomial_spectrum(std::int64_t count, double power) {
  std::vector<double> s(static_cast<std::size_t>(count));
  for (std::int64_t j = 0; j < count; ++j)
    s[static_cast<std::size_t>(j)] = std::pow(static_cast<double>(j + 1), -power);
  return s;
}

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace rnla_test
