#include <trnsparse/iterative.hpp>
#include <trnsparse/ops.hpp>

#include "checks.hpp"
#include "iterative/vector_ops.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace trnsparse {
namespace {

using detail::axpy;
using detail::dot;
using detail::norm2;

void require_preconditioner(Preconditioner p, const char* fn) {
  if (p != Preconditioner::none && p != Preconditioner::jacobi)
    throw trncore::InvalidArgument(
        fn, "preconditioner = " + std::to_string(static_cast<int>(p)) + " is not a Preconditioner",
        "pass Preconditioner::none or Preconditioner::jacobi");
}

template <class M>
void check_system(const M& a, std::size_t b_size, std::size_t x_size, const IterativeOptions& o, const char* fn) {
  validate(a, fn);
  if (a.rows != a.cols)
    throw trncore::InvalidArgument(fn, "A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols),
                                   "pass a square matrix");
  if (static_cast<std::int64_t>(b_size) != a.rows || static_cast<std::int64_t>(x_size) != a.rows)
    throw trncore::DimensionMismatch(fn,
                                     "b has " + std::to_string(b_size) + " and x " + std::to_string(x_size) +
                                         " entries for n = " + std::to_string(a.rows),
                                     "pass vectors of length n");
  if (!(o.rtol >= 0) || !(o.atol >= 0) || !std::isfinite(o.rtol) || !std::isfinite(o.atol))
    throw trncore::InvalidArgument(
        fn, "rtol = " + trncore::detail::sci(o.rtol) + ", atol = " + trncore::detail::sci(o.atol),
        "pass finite tolerances >= 0");
  if (o.max_iterations < 0 || o.threads < 0)
    throw trncore::InvalidArgument(
        fn, "max_iterations = " + std::to_string(o.max_iterations) + ", threads = " + std::to_string(o.threads),
        "pass max_iterations >= 0 and threads >= 0");
  require_preconditioner(o.preconditioner, fn);
}

// z = M⁻¹ r for the chosen preconditioner (inverse diagonal precomputed).
template <class T>
struct Precond {
  std::vector<T> inv_diag;  // empty: identity
  void apply(std::span<const T> r, std::span<T> z) const {
    if (inv_diag.empty())
      std::copy(r.begin(), r.end(), z.begin());
    else
      for (std::size_t i = 0; i < r.size(); ++i) z[i] = inv_diag[i] * r[i];
  }
};

template <class M, class T = typename decltype(M::values)::value_type>
Precond<T> make_precond(const M& a, Preconditioner p, const char* fn) {
  Precond<T> out;
  if (p == Preconditioner::none) return out;
  const std::vector<T> d = diagonal(a);
  out.inv_diag.resize(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!(d[i] > T(0)) || !std::isfinite(static_cast<double>(d[i])))
      throw trncore::InvalidArgument(
          fn, "diagonal entry " + std::to_string(i) + " is " + trncore::detail::sci(static_cast<double>(d[i])),
          "Jacobi needs a positive diagonal (SPD A); use Preconditioner::none");
    out.inv_diag[i] = T(1) / d[i];
  }
  return out;
}

template <class M, class T>
void apply(const M& a, std::span<const T> x, std::span<T> y, int threads) {
  spmv<T>(trnblas::Op::no_trans, T(1), a, x, T(0), y, trncore::Options{}.with_threads(threads));
}

// r = b − A x; returns ‖r‖₂.
template <class M, class T>
double true_residual(const M& a, std::span<const T> b, std::span<const T> x, std::span<T> r, int threads) {
  std::copy(b.begin(), b.end(), r.begin());
  spmv<T>(trnblas::Op::no_trans, T(-1), a, x, T(1), r, trncore::Options{}.with_threads(threads));
  return norm2<T>(r);
}

double tolerance(double bnorm, const IterativeOptions& o) { return std::max(o.rtol * bnorm, o.atol); }

template <class M, class T>
IterativeResult cg_impl(const M& a, std::span<const T> b, std::span<T> x, const IterativeOptions& o) {
  constexpr const char* fn = "trnsparse::cg";
  check_system(a, b.size(), x.size(), o, fn);
  const Precond<T> pre = make_precond(a, o.preconditioner, fn);
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<T> r(n), z(n), p(n), q(n);
  IterativeResult res;
  res.tolerance = tolerance(norm2<T>(b), o);
  double rnorm = true_residual<M, T>(a, b, x, r, o.threads);
  pre.apply(r, z);
  p = z;
  T rz = dot<T>(r, z);
  while (true) {
    if (o.record_history) res.residual_history.push_back(rnorm);
    if (rnorm <= res.tolerance) {
      // Confirm with the true residual; if the recurrence drifted, continue from the true one.
      rnorm = true_residual<M, T>(a, b, x, r, o.threads);
      if (rnorm <= res.tolerance) {
        res.reason = IterativeReason::converged;
        break;
      }
      pre.apply(r, z);
      p = z;
      rz = dot<T>(r, z);
    }
    if (res.iterations >= o.max_iterations) break;
    apply<M, T>(a, p, q, o.threads);
    const T pq = dot<T>(p, q);
    if (!(pq > T(0)) || !std::isfinite(static_cast<double>(pq))) {
      res.reason = IterativeReason::breakdown;
      break;
    }
    const T alpha = rz / pq;
    axpy<T>(alpha, p, x);
    axpy<T>(-alpha, q, r);
    pre.apply(r, z);
    const T rz_next = dot<T>(r, z);
    const T beta = rz_next / rz;
    rz = rz_next;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
    rnorm = norm2<T>(r);
    ++res.iterations;
  }
  res.residual_norm = true_residual<M, T>(a, b, x, r, o.threads);
  res.converged = res.reason == IterativeReason::converged;
  return res;
}

template <class M, class T>
IterativeResult chebyshev_impl(const M& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                               const IterativeOptions& o) {
  constexpr const char* fn = "trnsparse::chebyshev";
  check_system(a, b.size(), x.size(), o, fn);
  if (!(bounds.lambda_min > 0) || !(bounds.lambda_max > bounds.lambda_min) || !std::isfinite(bounds.lambda_max))
    throw trncore::InvalidArgument(
        fn,
        "lambda_min = " + trncore::detail::sci(bounds.lambda_min) +
            ", lambda_max = " + trncore::detail::sci(bounds.lambda_max),
        "pass 0 < lambda_min < lambda_max enclosing A's spectrum (lanczos_bounds estimates them)");
  const Precond<T> pre = make_precond(a, o.preconditioner, fn);
  const auto n = static_cast<std::size_t>(a.rows);
  const double theta = (bounds.lambda_max + bounds.lambda_min) / 2, delta = (bounds.lambda_max - bounds.lambda_min) / 2;
  const double sigma = theta / delta;
  std::vector<T> r(n), z(n), d(n), q(n);
  IterativeResult res;
  res.tolerance = tolerance(norm2<T>(b), o);
  double rnorm = true_residual<M, T>(a, b, x, r, o.threads);
  // Saad Alg. 12.1: ρ_0 = 1/σ, d_0 = M⁻¹r_0/θ; x += d; r −= A d; ρ_{k+1} = 1/(2σ − ρ_k);
  // d_{k+1} = ρ_{k+1}ρ_k d_k + (2ρ_{k+1}/δ) M⁻¹r_{k+1}.
  double rho = 1 / sigma;
  pre.apply(r, z);
  for (std::size_t i = 0; i < n; ++i) d[i] = static_cast<T>(z[i] / theta);
  while (true) {
    if (o.record_history) res.residual_history.push_back(rnorm);
    if (rnorm <= res.tolerance) {
      rnorm = true_residual<M, T>(a, b, x, r, o.threads);
      if (rnorm <= res.tolerance) {
        res.reason = IterativeReason::converged;
        break;
      }
    }
    if (res.iterations >= o.max_iterations) break;
    if (!std::isfinite(rnorm)) {
      res.reason = IterativeReason::breakdown;
      break;
    }
    axpy<T>(T(1), d, x);
    apply<M, T>(a, d, q, o.threads);
    axpy<T>(T(-1), q, r);
    const double rho_next = 1 / (2 * sigma - rho);
    pre.apply(r, z);
    const auto c1 = static_cast<T>(rho_next * rho), c2 = static_cast<T>(2 * rho_next / delta);
    for (std::size_t i = 0; i < n; ++i) d[i] = c1 * d[i] + c2 * z[i];
    rho = rho_next;
    rnorm = norm2<T>(r);
    ++res.iterations;
  }
  res.residual_norm = true_residual<M, T>(a, b, x, r, o.threads);
  res.converged = res.reason == IterativeReason::converged;
  return res;
}

}  // namespace

std::string_view to_string(IterativeReason reason) noexcept {
  switch (reason) {
    case IterativeReason::converged: return "converged";
    case IterativeReason::max_iterations: return "max_iterations";
    case IterativeReason::breakdown: return "breakdown";
  }
  return "unknown";
}

template <class T, class I>
IterativeResult cg(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, const IterativeOptions& o) {
  return cg_impl<Csr<T, I>, T>(a, b, x, o);
}
template <class T, class I>
IterativeResult cg(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, const IterativeOptions& o) {
  return cg_impl<Bsr<T, I>, T>(a, b, x, o);
}
template <class T, class I>
IterativeResult chebyshev(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds s,
                          const IterativeOptions& o) {
  return chebyshev_impl<Csr<T, I>, T>(a, b, x, s, o);
}
template <class T, class I>
IterativeResult chebyshev(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds s,
                          const IterativeOptions& o) {
  return chebyshev_impl<Bsr<T, I>, T>(a, b, x, s, o);
}

template <class T, class I>
IterativeResult richardson(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, double omega,
                           const IterativeOptions& o) {
  constexpr const char* fn = "trnsparse::richardson";
  check_system(a, b.size(), x.size(), o, fn);
  if (!(omega > 0) || !std::isfinite(omega))
    throw trncore::InvalidArgument(fn, "omega = " + trncore::detail::sci(omega),
                                   "pass 0 < omega < 2/lambda_max (2/(lmin+lmax) is optimal)");
  const Precond<T> pre = make_precond(a, o.preconditioner, fn);
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<T> r(n), z(n);
  IterativeResult res;
  res.tolerance = tolerance(norm2<T>(b), o);
  while (true) {
    // Richardson's residual is always the true one: no drift to confirm.
    const double rnorm = true_residual<Csr<T, I>, T>(a, b, x, r, o.threads);
    if (o.record_history) res.residual_history.push_back(rnorm);
    res.residual_norm = rnorm;
    if (rnorm <= res.tolerance) {
      res.reason = IterativeReason::converged;
      break;
    }
    if (!std::isfinite(rnorm)) {
      res.reason = IterativeReason::breakdown;
      break;
    }
    if (res.iterations >= o.max_iterations) break;
    pre.apply(r, z);
    axpy<T>(static_cast<T>(omega), z, x);
    ++res.iterations;
  }
  res.converged = res.reason == IterativeReason::converged;
  return res;
}

template <class T, class I>
SpectrumBounds lanczos_bounds(const Csr<T, I>& a, std::int64_t steps, Preconditioner preconditioner, std::uint64_t seed,
                              bool spd) {
  constexpr const char* fn = "trnsparse::lanczos_bounds";
  validate(a, fn);
  if (a.rows != a.cols)
    throw trncore::InvalidArgument(fn, "A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols),
                                   "pass a square matrix");
  if (steps < 1) throw trncore::InvalidArgument(fn, "steps = " + std::to_string(steps), "pass steps >= 1");
  require_preconditioner(preconditioner, fn);
  SpectrumBounds out;
  const auto n = static_cast<std::size_t>(a.rows);
  if (n == 0) return out;
  // Operator S = D^{-1/2} A D^{-1/2} (similar to D⁻¹A) with Jacobi, else A; all in double.
  std::vector<double> scale(n, 1.0);
  if (preconditioner == Preconditioner::jacobi) {
    const std::vector<T> d = diagonal(a);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(d[i] > T(0)))
        throw trncore::InvalidArgument(
            fn, "diagonal entry " + std::to_string(i) + " is " + trncore::detail::sci(static_cast<double>(d[i])),
            "Jacobi scaling needs a positive diagonal");
      scale[i] = 1 / std::sqrt(static_cast<double>(d[i]));
    }
  }
  const Csr<double, I> ad = convert<double, I>(a);
  auto op = [&](const std::vector<double>& v, std::vector<double>& w) {
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) s[i] = scale[i] * v[i];
    spmv<double, I>(trnblas::Op::no_trans, 1.0, ad, s, 0.0, w);
    for (std::size_t i = 0; i < n; ++i) w[i] *= scale[i];
  };
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> v(n), v_prev(n, 0.0), w(n);
  for (auto& e : v) e = dist(gen);
  const double v0 = norm2<double>(v);
  for (auto& e : v) e /= v0;
  std::vector<double> alpha, beta;
  double b_prev = 0;
  const std::int64_t k_max = std::min<std::int64_t>(steps, a.rows);
  std::vector<std::vector<double>> basis;  // full reorthogonalisation: k is small, and it keeps Ritz values clean
  for (std::int64_t k = 0; k < k_max; ++k) {
    basis.push_back(v);
    op(v, w);
    const double al = dot<double>(w, v);
    alpha.push_back(al);
    for (std::size_t i = 0; i < n; ++i) w[i] -= al * v[i] + b_prev * v_prev[i];
    for (const auto& q : basis) axpy<double>(-dot<double>(w, q), q, w);
    const double b = norm2<double>(w);
    beta.push_back(b);
    if (b <= 1e-14 * std::fabs(al) || b == 0) break;  // invariant subspace: the Ritz values are eigenvalues
    v_prev = v;
    for (std::size_t i = 0; i < n; ++i) v[i] = w[i] / b;
    b_prev = b;
  }
  const auto k = static_cast<Eigen::Index>(alpha.size());
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(k, k);
  for (Eigen::Index i = 0; i < k; ++i) {
    t(i, i) = alpha[static_cast<std::size_t>(i)];
    if (i + 1 < k) t(i, i + 1) = t(i + 1, i) = beta[static_cast<std::size_t>(i)];
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(t);
  const double b_last = beta.back();
  // Ritz residual of pair j: |β_k · (last component of y_j)|.
  const double res_min = std::fabs(b_last * eig.eigenvectors()(k - 1, 0));
  const double res_max = std::fabs(b_last * eig.eigenvectors()(k - 1, k - 1));
  out.lambda_min = eig.eigenvalues()(0) - res_min;
  out.lambda_max = eig.eigenvalues()(k - 1) + res_max;
  if (spd) out.lambda_min = std::max(out.lambda_min, 0.0);
  out.steps = k;
  return out;
}

template <class T, class I>
IterativeResult power_iteration(const Csr<T, I>& a, std::span<T> v, double& lambda, const IterativeOptions& o) {
  constexpr const char* fn = "trnsparse::power_iteration";
  check_system(a, v.size(), v.size(), o, fn);
  const double v0 = norm2<T>(v);
  if (!(v0 > 0) || !std::isfinite(v0))
    throw trncore::InvalidArgument(fn, "the start vector has norm " + trncore::detail::sci(v0),
                                   "pass a finite nonzero start vector");
  const auto n = static_cast<std::size_t>(a.rows);
  IterativeResult res;
  res.tolerance = o.rtol;
  for (auto& e : v) e = static_cast<T>(e / v0);
  std::vector<T> w(n);
  lambda = 0;
  while (true) {
    apply<Csr<T, I>, T>(a, std::span<const T>(v.data(), n), w, o.threads);
    lambda = static_cast<double>(dot<T>(std::span<const T>(v.data(), n), w));
    // r = A v − λ v
    std::vector<T> r(w);
    axpy<T>(static_cast<T>(-lambda), std::span<const T>(v.data(), n), r);
    res.residual_norm = norm2<T>(r);
    if (o.record_history) res.residual_history.push_back(res.residual_norm);
    if (res.residual_norm <= o.rtol * std::fabs(lambda)) {
      res.reason = IterativeReason::converged;
      break;
    }
    const double wn = norm2<T>(w);
    if (!(wn > 0) || !std::isfinite(wn)) {
      res.reason = IterativeReason::breakdown;  // A v = 0: v lies in the null space
      break;
    }
    if (res.iterations >= o.max_iterations) break;
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(w[i] / wn);
    ++res.iterations;
  }
  res.converged = res.reason == IterativeReason::converged;
  return res;
}

template <class T, class I>
std::vector<T> diagonal(const Csr<T, I>& a) {
  validate(a, "trnsparse::diagonal");
  std::vector<T> d(static_cast<std::size_t>(std::min(a.rows, a.cols)), T(0));
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(d.size()); ++r)
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k)
      if (a.indices[k] == r) d[static_cast<std::size_t>(r)] += a.values[k];
  return d;
}

template <class T, class I>
std::vector<T> diagonal(const Bsr<T, I>& a) {
  validate(a, "trnsparse::diagonal");
  std::vector<T> d(static_cast<std::size_t>(std::min(a.rows, a.cols)), T(0));
  const std::int64_t R = a.block_rows, C = a.block_cols;
  for (std::int64_t bi = 0; bi < a.block_row_count(); ++bi)
    for (auto b = static_cast<std::int64_t>(a.indptr[static_cast<std::size_t>(bi)]);
         b < a.indptr[static_cast<std::size_t>(bi) + 1]; ++b) {
      const std::int64_t c0 = static_cast<std::int64_t>(a.indices[static_cast<std::size_t>(b)]) * C;
      for (std::int64_t lr = 0; lr < R; ++lr) {
        const std::int64_t r = bi * R + lr, lc = r - c0;
        if (r < static_cast<std::int64_t>(d.size()) && lc >= 0 && lc < C)
          d[static_cast<std::size_t>(r)] += a.values[static_cast<std::size_t>(b * R * C + lr * C + lc)];
      }
    }
  return d;
}

#define TRNSPARSE_INSTANTIATE_ITERATIVE(T, I)                                                                  \
  template IterativeResult cg(const Csr<T, I>&, std::span<const T>, std::span<T>, const IterativeOptions&);    \
  template IterativeResult cg(const Bsr<T, I>&, std::span<const T>, std::span<T>, const IterativeOptions&);    \
  template IterativeResult chebyshev(const Csr<T, I>&, std::span<const T>, std::span<T>, SpectrumBounds,       \
                                     const IterativeOptions&);                                                 \
  template IterativeResult chebyshev(const Bsr<T, I>&, std::span<const T>, std::span<T>, SpectrumBounds,       \
                                     const IterativeOptions&);                                                 \
  template IterativeResult richardson(const Csr<T, I>&, std::span<const T>, std::span<T>, double,              \
                                      const IterativeOptions&);                                                \
  template SpectrumBounds lanczos_bounds(const Csr<T, I>&, std::int64_t, Preconditioner, std::uint64_t, bool); \
  template IterativeResult power_iteration(const Csr<T, I>&, std::span<T>, double&, const IterativeOptions&);  \
  template std::vector<T> diagonal(const Csr<T, I>&);                                                          \
  template std::vector<T> diagonal(const Bsr<T, I>&);

TRNSPARSE_INSTANTIATE_ITERATIVE(float, std::int32_t)
TRNSPARSE_INSTANTIATE_ITERATIVE(float, std::int64_t)
TRNSPARSE_INSTANTIATE_ITERATIVE(double, std::int32_t)
TRNSPARSE_INSTANTIATE_ITERATIVE(double, std::int64_t)

}  // namespace trnsparse
