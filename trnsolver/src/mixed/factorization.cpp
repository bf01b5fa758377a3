#include "mixed/factorization.hpp"

#include "sim/blocked_lu.hpp"

#include <trncore/detail/parallel.hpp>

#include <trncore/math_mode.hpp>

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

// LAPACKE's _work entry points: the plain ones scan every input for NaN first, an O(n²) pass per
// triangular solve that would cost as much as the solve (inputs are checked once, in solve()).
namespace trnsolver::detail {

namespace {

std::vector<lapack_int> lapack_pivots(const std::vector<std::int64_t>& ipiv) {
  return std::vector<lapack_int>(ipiv.begin(), ipiv.end());
}

// Copies the column-major A (leading dimension lda) into dense storage of type D and returns ‖A‖∞, in one
// pass over row blocks on up to `threads` threads: each row's sum runs in column order whatever block holds
// it, so the norm does not depend on the thread count. NaN or inf entries make the norm NaN or inf.
template <class Vector>
double copy_with_norm(std::int64_t n, const double* a, std::int64_t lda, Vector& out, int threads) {
  using D = typename Vector::value_type;
  out.resize(static_cast<std::size_t>(n * n));
  std::vector<double> row(static_cast<std::size_t>(n), 0.0);
  constexpr std::int64_t kRows = 512;
  const std::int64_t tasks = (n + kRows - 1) / kRows;
  trncore::detail::parallel_for(tasks, threads, [&](std::int64_t t) {
    const std::int64_t begin = t * kRows, end = std::min(n, begin + kRows);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = begin; i < end; ++i) {
        const double x = a[i + j * lda];
        out[static_cast<std::size_t>(i + j * n)] = static_cast<D>(x);
        row[static_cast<std::size_t>(i)] += std::abs(x);
      }
  });
  double norm = 0.0;
  for (double r : row) {
    if (!std::isfinite(r)) return r;  // std::max would drop a NaN
    norm = std::max(norm, r);
  }
  return norm;
}

}  // namespace

Factorization factorize(std::int64_t n, const double* a, std::int64_t lda, FactorPrecision precision, bool pivoting,
                        const trncore::Options& options) {
  Factorization f;
  f.precision = precision;
  f.n = n;
  const bool sim = options.backend == trncore::Backend::sim;
  f.sim = sim && precision != FactorPrecision::fp64;
  const char* pivot_text = pivoting ? "partial pivoting" : "no pivoting";
  if (precision == FactorPrecision::fp64 && !sim && pivoting) {
    f.anorm = copy_with_norm(n, a, lda, f.working, options.threads);
    std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
    f.info = n == 0 ? 0
                    : LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, static_cast<lapack_int>(n), static_cast<lapack_int>(n),
                                          f.working.data(), static_cast<lapack_int>(std::max<std::int64_t>(n, 1)),
                                          ipiv.data());
    f.ipiv.assign(ipiv.begin(), ipiv.end());
    f.method = "LU fp64 (LAPACK dgetrf, partial pivoting)";
    return f;
  }
  if (precision == FactorPrecision::fp64) {
    // fp64 without pivoting or on sim: the TensorEngine has no fp64; the blocked algorithm in fp32 would not
    // be fp64. solve() never asks for this combination (it checks the options first).
    f.info = -1;
    return f;
  }
  f.anorm = copy_with_norm(n, a, lda, f.low, options.threads);  // fp32 rounding of A: the input precision
  if (!sim && pivoting) {
    std::vector<lapack_int> ipiv(static_cast<std::size_t>(n));
    f.info =
        n == 0 ? 0
               : LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, static_cast<lapack_int>(n), static_cast<lapack_int>(n),
                                     f.low.data(), static_cast<lapack_int>(std::max<std::int64_t>(n, 1)), ipiv.data());
    f.ipiv.assign(ipiv.begin(), ipiv.end());
    f.method = "LU fp32 (LAPACK sgetrf, partial pivoting)";
  } else {
    trncore::Options gemm = options;
    gemm.target_forward_error.reset();
    gemm.math_mode = precision == FactorPrecision::bf16
                         ? trncore::MathMode::bf16
                         : (sim ? trncore::MathMode::fp32 : trncore::MathMode::automatic);
    f.info = blocked_lu(n, f.low.data(), std::max<std::int64_t>(n, 1), pivoting, f.ipiv, gemm, &f.gemms_certified);
    f.method = std::string("LU ") + std::string(to_string(precision)) + " (blocked, " + pivot_text +
               ", trailing updates " +
               (sim ? std::string("sim TensorEngine ") + (precision == FactorPrecision::bf16 ? "bf16" : "fp32") +
                          " GEMMs with fp32 PSUM"
                    : std::string("fp32 GEMMs")) +
               ")";
  }
  return f;
}

void Factorization::solve_low(double* v) const {
  if (precision == FactorPrecision::fp64) {
    solve_working(v, false);
    return;
  }
  // Scale into fp32's range (a power of two: exact), solve in fp32, scale back — LU-IR's correction
  // solve in the factor precision, safe from fp32 overflow for residuals of any size.
  double top = 0.0;
  for (std::int64_t i = 0; i < n; ++i) top = std::isnan(v[i]) ? v[i] : std::max(top, std::abs(v[i]));
  if (top == 0.0 || !std::isfinite(top)) {
    if (top != 0.0) std::fill(v, v + n, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  int e = 0;
  std::frexp(top, &e);
  std::vector<float> w(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] = static_cast<float>(std::ldexp(v[i], -e));
  const std::vector<lapack_int> piv = lapack_pivots(ipiv);
  LAPACKE_sgetrs_work(LAPACK_COL_MAJOR, 'N', static_cast<lapack_int>(n), 1, low.data(),
                      static_cast<lapack_int>(std::max<std::int64_t>(n, 1)), piv.data(), w.data(),
                      static_cast<lapack_int>(std::max<std::int64_t>(n, 1)));
  for (std::int64_t i = 0; i < n; ++i) v[i] = std::ldexp(static_cast<double>(w[static_cast<std::size_t>(i)]), e);
}

std::vector<double> Factorization::lu_magnitude() const {
  const auto len = static_cast<std::size_t>(n);
  const auto entry = [&](std::size_t i, std::size_t j) -> double {
    return precision == FactorPrecision::fp64 && low.empty() ? working[i + j * len] : low[i + j * len];
  };
  // t = |Û|·1, then w = |L̂|·t (unit diagonal), in fp64: n + 1 non-negative terms per entry, so the computed
  // values times 1 + γ_{2n+2}(2^-53) bound the exact ones.
  std::vector<double> t(len, 0.0), w(len, 0.0);
  for (std::size_t j = 0; j < len; ++j)
    for (std::size_t i = 0; i < len; ++i) {
      const double v = entry(i, j);
      if (!std::isfinite(v) || (v != 0.0 && std::abs(v) < static_cast<double>(std::numeric_limits<float>::min())))
        return {};
      if (i == j && v == 0.0) return {};
      if (i <= j) t[i] += std::abs(v);
    }
  // w_i = t_i + Σ_{j<i} |L̂_ij|·t_j, summed in the order j = 0, 1, … for every i, column by column (the
  // factors are column-major).
  for (std::size_t i = 0; i < len; ++i) w[i] = t[i];
  for (std::size_t j = 0; j < len; ++j) {
    const double tj = t[j];
    for (std::size_t i = j + 1; i < len; ++i) w[i] += std::abs(entry(i, j)) * tj;
  }
  const double k = 2.0 * static_cast<double>(n) + 2.0;
  const double up = 1.0 + k * 0x1p-53 / (1.0 - k * 0x1p-53);
  for (double& v : w) v *= up;
  // L̂Û = P·A with P = P_{n-1}···P_0 (row k swapped with ipiv[k] at step k): Pᵀw undoes them in reverse.
  for (std::size_t k = len; k-- > 0;) std::swap(w[k], w[static_cast<std::size_t>(ipiv[k] - 1)]);
  return w;
}

double Factorization::backward_error_constant() const {
  const auto gamma = [](double k, double u) { return k * u / (1.0 - k * u); };
  const double dn = static_cast<double>(n);
  // fp64 dgetrf: |E| ≤ γ_n|L̂||Û| (Higham, ASNA 2nd ed., Thm 9.3).
  if (precision == FactorPrecision::fp64) return gamma(dn, 0x1p-53);
  // fp32: Thm 9.3 in fp32 plus the rounding of A to fp32 (|ΔA| ≤ u₃₂|A| ≤ u₃₂(1 + γ_n)|L̂||Û|): γ_{n+2}.
  const double host = gamma(dn + 2.0, 0x1p-24);
  if (!sim) return host;
  // Sim trailing updates: each block product carries the TensorEngine's bound relative to |L21||U12| — bf16
  // inputs (2^-8 each), bf16-rounded products (2^-8), fp32 PSUM (γ_n), three fp32 roundings of the output
  // stage (docs/trnblas-sim.md; fp32 mode on sim has float inputs, so this bounds it too) — and the updates of
  // one entry sum to at most its |L̂||Û|, so that bound adds to the fp32 one (as blocked_cholesky's test).
  const double u8 = 0x1p-8, u32 = 0x1p-24;
  const double gemm = (1 + u8) * (1 + u8) * (1 + u8) * (1 + gamma(dn, u32)) * (1 + u32) * (1 + u32) * (1 + u32) - 1;
  return gemm + host;
}

void Factorization::solve_working(double* v, bool transpose) const {
  if (n == 0) return;
  if (working.empty()) working.assign(low.begin(), low.end());
  const std::vector<lapack_int> piv = lapack_pivots(ipiv);
  LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, transpose ? 'T' : 'N', static_cast<lapack_int>(n), 1, working.data(),
                      static_cast<lapack_int>(n), piv.data(), v, static_cast<lapack_int>(n));
}

}  // namespace trnsolver::detail
