// Power iteration and Lanczos bounds on the extreme eigenvalues (krylov.hpp, "Eigenvalues").
#include "common.hpp"

#include <trncore/error.hpp>

#include <lapacke.h>

#include <cmath>
#include <limits>
#include <random>

namespace trnsolver {

namespace {

using namespace detail;

template <class T>
KrylovResult run_power(const LinearOperator<T>& a, std::span<T> v, double& lambda, const KrylovOptions& options) {
  constexpr const char* fn = "trnsolver::power_iteration";
  if (!a)
    throw trncore::InvalidArgument(fn, "the operator A is empty",
                                   "pass a matrix, matrix_operator(A) or LinearOperator(n, callback)");
  const std::int64_t n = a.size();
  if (static_cast<std::int64_t>(v.size()) != n)
    throw trncore::DimensionMismatch(
        fn,
        "A is " + std::to_string(n) + "x" + std::to_string(n) + " but v has " + std::to_string(v.size()) + " elements",
        "pass a start vector with n elements");
  check_options(fn, options);
  if (options.distributed)
    throw trncore::NotSupported(fn, "options.distributed is set: power_iteration runs on one process",
                                "unset options.distributed (cg, gmres, bicgstab, minres, chebyshev and richardson "
                                "take distributed vectors)");
  check_finite<T>(fn, "v (the start vector)", std::span<const T>(v));
  const Sums sums(options);
  const double v0 = norm2<T>(v, sums);
  if (!(v0 > 0)) throw trncore::InvalidArgument(fn, "the start vector is zero", "pass a finite nonzero start vector");
  const auto un = static_cast<std::size_t>(n);
  for (auto& e : v) e = static_cast<T>(e / v0);
  std::vector<T> w(un), r(un);
  const std::int64_t limit = options.max_iterations > 0 ? options.max_iterations : 10 * n;
  trncore::detail::ProgressMonitor progress(options.monitor, fn);
  KrylovResult res;
  auto at = [&] { return " at iteration " + std::to_string(res.iterations); };
  lambda = 0;
  for (;;) {
    a.callback()(v, w);
    lambda = static_cast<double>(dot<T>(v, w, sums));
    std::copy(w.begin(), w.end(), r.begin());
    axpy<T>(static_cast<T>(-lambda), v, r);  // r = A v − λ v
    const double rn = norm2<T>(r, sums);
    const double rel = rn == 0 ? 0.0 : rn / std::fabs(lambda);
    res.residual_history.push_back(rel);
    res.relative_residual = rel;
    if (res.iterations > 0 && progress.stop_requested(res.iterations, rel)) res.stopped_by_monitor = true;
    if (!std::isfinite(rn) || !std::isfinite(lambda)) {
      res.reason = KrylovReason::non_finite;
      res.detail = "non_finite: lambda = " + trncore::detail::sci(lambda) +
                   ", ||A v - lambda v|| = " + trncore::detail::sci(rn) + at();
      break;
    }
    if (rn <= std::max(options.rtol * std::fabs(lambda), options.atol)) {
      res.reason = KrylovReason::converged;
      res.detail = "converged: ||A v - lambda v|| / |lambda| = " + trncore::detail::sci(rel) + " after " +
                   std::to_string(res.iterations) + " iterations";
      break;
    }
    const double wn = norm2<T>(w, sums);
    if (!(wn > 0)) {
      res.reason = KrylovReason::breakdown;
      res.detail = "breakdown: A v = 0" + at() + " (v lies in the null space of A)";
      break;
    }
    if (res.stopped_by_monitor) {
      res.reason = KrylovReason::stopped_by_monitor;
      res.detail = "stopped_by_monitor: options.monitor asked to stop" + at() +
                   " (||A v - lambda v|| / |lambda| = " + trncore::detail::sci(rel) + ")";
      break;
    }
    if (res.iterations >= limit) {
      res.reason = KrylovReason::max_iterations;
      res.detail = "max_iterations: " + std::to_string(limit) + " iterations done without convergence";
      break;
    }
    for (std::size_t i = 0; i < un; ++i) v[i] = static_cast<T>(w[i] / wn);
    ++res.iterations;
  }
  res.converged = res.reason == KrylovReason::converged;
  return res;
}

}  // namespace

KrylovResult power_iteration(const LinearOperator<double>& a, std::span<double> v, double& lambda,
                             const KrylovOptions& options) {
  return run_power<double>(a, v, lambda, options);
}
KrylovResult power_iteration(const LinearOperator<float>& a, std::span<float> v, double& lambda,
                             const KrylovOptions& options) {
  return run_power<float>(a, v, lambda, options);
}
KrylovResult power_iteration(trncore::MatrixView<const double> a, std::span<double> v, double& lambda,
                             const KrylovOptions& options) {
  return with_matrix<double>(
      "trnsolver::power_iteration", a, [&](const auto& op) { return run_power<double>(op, v, lambda, options); },
      options);
}
KrylovResult power_iteration(trncore::MatrixView<const float> a, std::span<float> v, double& lambda,
                             const KrylovOptions& options) {
  return with_matrix<float>(
      "trnsolver::power_iteration", a, [&](const auto& op) { return run_power<float>(op, v, lambda, options); },
      options);
}

SpectrumBounds lanczos_bounds(const LinearOperator<double>& a, std::int64_t steps, const trncore::Options& options,
                              bool spd) {
  constexpr const char* fn = "trnsolver::lanczos_bounds";
  if (!a)
    throw trncore::InvalidArgument(fn, "the operator A is empty",
                                   "pass a matrix_operator(A) or LinearOperator(n, callback) of a symmetric A");
  if (steps < 1) throw trncore::InvalidArgument(fn, "steps = " + std::to_string(steps), "pass steps >= 1");
  check_host_options(fn, options);
  SpectrumBounds out;
  const auto n = static_cast<std::size_t>(a.size());
  if (n == 0) return out;
  const Sums sums(options.threads);
  std::mt19937_64 gen(options.seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> v(n), v_prev(n, 0.0), w(n);
  for (auto& e : v) e = dist(gen);
  const double v0 = norm2<double>(v, sums);
  for (auto& e : v) e /= v0;
  std::vector<double> alpha, beta;
  double b_prev = 0;
  const std::int64_t k_max = std::min<std::int64_t>(steps, a.size());
  std::vector<std::vector<double>> basis;  // full reorthogonalization: k is small, and it keeps Ritz values clean
  trncore::detail::ProgressMonitor progress(options.monitor, fn);
  for (std::int64_t k = 0; k < k_max; ++k) {
    basis.push_back(v);
    a.callback()(v, w);
    const double al = dot<double>(w, v, sums);
    alpha.push_back(al);
    for (std::size_t i = 0; i < n; ++i) w[i] -= al * v[i] + b_prev * v_prev[i];
    for (const auto& q : basis) axpy<double>(-dot<double>(w, q, sums), q, w);
    const double b = norm2<double>(w, sums);
    beta.push_back(b);
    if (b <= 1e-14 * std::fabs(al) || b == 0) break;  // invariant subspace: the Ritz values are eigenvalues
    if (progress.stop_requested(k + 1, b / std::fabs(al))) break;
    v_prev = v;
    for (std::size_t i = 0; i < n; ++i) v[i] = w[i] / b;
    b_prev = b;
  }
  // Ritz values and the last components of the Ritz vectors: the tridiagonal eigenproblem (LAPACK dstev).
  const auto k = static_cast<lapack_int>(alpha.size());
  std::vector<double> d(alpha), e(beta.begin(), beta.end() - 1), z(static_cast<std::size_t>(k) * k);
  const lapack_int info = LAPACKE_dstev(LAPACK_COL_MAJOR, 'V', k, d.data(), e.data(), z.data(), k);
  if (info != 0)
    throw trncore::InvalidArgument(fn, "LAPACK dstev returned info = " + std::to_string(info),
                                   "the Lanczos coefficients are not finite: check that A x is finite for finite x");
  const double b_last = beta.back();
  // Ritz residual of pair j: |β_k · (last component of y_j)|.
  const auto last = static_cast<std::size_t>(k - 1);
  const double res_min = std::fabs(b_last * z[last]);
  const double res_max = std::fabs(b_last * z[last + last * static_cast<std::size_t>(k)]);
  // The computed Ritz values and residuals carry rounding from the recurrence (each A·v, dot and
  // reorthogonalization: O((n + k)·u·‖A‖)) and from dstev (O(k·u·‖T‖)); without this term an invariant
  // subspace (β_k = 0, residuals 0) gave bounds a few ulps inside the spectrum.
  const double scale = std::max(std::fabs(d.front()), std::fabs(d.back()));
  const double rounding =
      (static_cast<double>(n) + 2.0 * static_cast<double>(k) + 2.0) * std::numeric_limits<double>::epsilon() * scale;
  out.lambda_min = d.front() - res_min - rounding;
  out.lambda_max = d.back() + res_max + rounding;
  if (spd) out.lambda_min = std::max(out.lambda_min, 0.0);
  out.steps = k;
  return out;
}

}  // namespace trnsolver
