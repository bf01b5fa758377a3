// Test matrices and the fp64 LAPACK oracle of the Krylov tests. The test files declare what they use
// (namespace krylov_test), so no header is needed.
#include <lapacke.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

namespace krylov_test {

using Matrix = std::vector<double>;  // n×n, row-major

// The 5-point Laplacian on an m×m grid (Dirichlet): 4 on the diagonal, −1 for each grid neighbour.
Matrix poisson2d(std::int64_t m) {
  const std::int64_t n = m * m;
  Matrix a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < m; ++j) {
      const std::int64_t k = i * m + j;
      a[static_cast<std::size_t>(k * n + k)] = 4;
      if (i > 0) a[static_cast<std::size_t>(k * n + k - m)] = -1;
      if (i + 1 < m) a[static_cast<std::size_t>(k * n + k + m)] = -1;
      if (j > 0) a[static_cast<std::size_t>(k * n + k - 1)] = -1;
      if (j + 1 < m) a[static_cast<std::size_t>(k * n + k + 1)] = -1;
    }
  return a;
}

// κ₂ of poisson2d(m): λ = 4 − 2cos(iπh) − 2cos(jπh), h = 1/(m+1), so κ = cot²(πh/2).
double poisson2d_condition(std::int64_t m) {
  const double t = std::tan(std::numbers::pi / (2.0 * static_cast<double>(m + 1)));
  return 1.0 / (t * t);
}

// Upwind convection–diffusion on an m×m grid: 4 on the diagonal, −1 − c (west, south) and −1 + c
// (east, north). Nonsymmetric for c ≠ 0, nonsingular (diagonally dominant, irreducible) for 0 ≤ c ≤ 1.
Matrix convection_diffusion(std::int64_t m, double c) {
  const std::int64_t n = m * m;
  Matrix a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < m; ++j) {
      const std::int64_t k = i * m + j;
      a[static_cast<std::size_t>(k * n + k)] = 4;
      if (i > 0) a[static_cast<std::size_t>(k * n + k - m)] = -1 - c;
      if (i + 1 < m) a[static_cast<std::size_t>(k * n + k + m)] = -1 + c;
      if (j > 0) a[static_cast<std::size_t>(k * n + k - 1)] = -1 - c;
      if (j + 1 < m) a[static_cast<std::size_t>(k * n + k + 1)] = -1 + c;
    }
  return a;
}

// Q·diag(eigenvalues)·Qᵀ with Q a product of three Householder reflectors with random vectors (seeded):
// symmetric with exactly those eigenvalues (up to rounding), so κ₂ = max|λ| / min|λ|.
Matrix symmetric_with_eigenvalues(const std::vector<double>& eigenvalues, std::uint64_t seed) {
  const std::size_t n = eigenvalues.size();
  Matrix a(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) a[i * n + i] = eigenvalues[i];
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  for (int r = 0; r < 3; ++r) {
    std::vector<double> v(n);
    double vv = 0;
    for (double& e : v) {
      e = normal(gen);
      vv += e * e;
    }
    // a := H a H with H = I − 2vvᵀ/vᵀv.
    for (int side = 0; side < 2; ++side) {
      for (std::size_t j = 0; j < n; ++j) {  // rows (side 0: columns of a; side 1: rows of a)
        double s = 0;
        for (std::size_t i = 0; i < n; ++i) s += v[i] * (side == 0 ? a[i * n + j] : a[j * n + i]);
        s *= 2 / vv;
        for (std::size_t i = 0; i < n; ++i) (side == 0 ? a[i * n + j] : a[j * n + i]) -= s * v[i];
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i)  // symmetrize the rounding
    for (std::size_t j = 0; j < i; ++j) a[i * n + j] = a[j * n + i] = 0.5 * (a[i * n + j] + a[j * n + i]);
  return a;
}

// n values spaced geometrically from 1 to kappa.
std::vector<double> geometric(std::int64_t n, double kappa) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = std::pow(kappa, n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.0);
  return v;
}

// Entries N(0, 1) (seeded), plus `shift` on the diagonal.
Matrix random_matrix(std::int64_t n, double shift, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  Matrix a(static_cast<std::size_t>(n * n));
  for (double& e : a) e = normal(gen);
  for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i * n + i)] += shift;
  return a;
}

// κ₂(A) from LAPACK's singular values (dgesvd), for the small matrices of the tests.
double condition2(const Matrix& a, std::int64_t n) {
  Matrix copy = a;
  std::vector<double> s(static_cast<std::size_t>(n)), superb(static_cast<std::size_t>(n));
  const lapack_int info =
      LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'N', 'N', static_cast<lapack_int>(n), static_cast<lapack_int>(n), copy.data(),
                     static_cast<lapack_int>(n), s.data(), nullptr, 1, nullptr, 1, superb.data());
  if (info != 0) throw std::runtime_error("dgesvd failed");
  return s.front() / s.back();
}

// The fp64 oracle: x = A⁻¹ b by LAPACK dgesv (LU with partial pivoting).
std::vector<double> direct_solve(const Matrix& a, const std::vector<double>& b) {
  const auto n = static_cast<lapack_int>(b.size());
  Matrix copy = a;
  std::vector<double> x = b;
  std::vector<lapack_int> ipiv(b.size());
  if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, 1, copy.data(), n, ipiv.data(), x.data(), 1) != 0)
    throw std::runtime_error("dgesv: singular matrix");
  return x;
}

// ‖x − y‖₂ / ‖y‖₂.
double relative_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double d = 0, s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d += (x[i] - y[i]) * (x[i] - y[i]);
    s += y[i] * y[i];
  }
  return std::sqrt(d / s);
}

// ‖b − A x‖₂ / ‖b‖₂ in fp64 (A row-major n×n).
double relative_residual(const Matrix& a, const std::vector<double>& b, const std::vector<double>& x) {
  const std::size_t n = b.size();
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = b[i];
    for (std::size_t j = 0; j < n; ++j) s -= a[i * n + j] * x[j];
    rr += s * s;
    bb += b[i] * b[i];
  }
  return std::sqrt(rr / bb);
}

}  // namespace krylov_test
