// Chebyshev iteration (Saad, Iterative Methods for Sparse Linear Systems 2nd ed., Alg. 12.1) and
// Richardson iteration x ← x + ω·M⁻¹(b − A x), both on the shared confirm-and-restart driver.
#include "common.hpp"

#include <trncore/error.hpp>

namespace trnsolver {

namespace {

using namespace detail;

template <class T>
KrylovResult run_chebyshev(const LinearOperator<T>& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                           const KrylovOptions& options, const LinearOperator<T>& m) {
  constexpr const char* fn = "trnsolver::chebyshev";
  check_solver_call<T>(fn, a, b, x, options, m);
  if (!(bounds.lambda_min > 0) || !(bounds.lambda_max > bounds.lambda_min) || !std::isfinite(bounds.lambda_max))
    throw trncore::InvalidArgument(
        fn,
        "bounds.lambda_min = " + trncore::detail::sci(bounds.lambda_min) +
            ", bounds.lambda_max = " + trncore::detail::sci(bounds.lambda_max),
        "pass 0 < lambda_min < lambda_max enclosing the spectrum of M^-1 A (lanczos_bounds estimates them)");
  const auto n = static_cast<std::size_t>(a.size());
  const Sums sums(options);
  const double theta = (bounds.lambda_max + bounds.lambda_min) / 2, delta = (bounds.lambda_max - bounds.lambda_min) / 2;
  const double sigma = theta / delta;
  std::vector<T> z(n), d(n), q(n);

  return drive<T>(fn, a, b, x, options, [&](std::span<T> r, double, Monitor& mon) {
    auto precondition = [&]() {
      if (m)
        m.callback()(r, z);
      else
        std::copy(r.begin(), r.end(), z.begin());
    };
    // ρ_0 = 1/σ, d_0 = M⁻¹r_0/θ; x += d; r −= A d; ρ_{k+1} = 1/(2σ − ρ_k);
    // d_{k+1} = ρ_{k+1}ρ_k d_k + (2ρ_{k+1}/δ) M⁻¹r_{k+1}.
    double rho = 1 / sigma;
    precondition();
    for (std::size_t i = 0; i < n; ++i) d[i] = static_cast<T>(z[i] / theta);
    for (;;) {
      if (mon.exhausted()) return limit_outcome(mon);
      axpy<T>(T(1), d, x);
      a.callback()(d, q);
      axpy<T>(T(-1), q, r);
      ++mon.result.iterations;
      const Status st = mon.record(norm2<T>(r, sums));
      if (st == Status::met) return Outcome::estimate_met();
      if (st != Status::go) return status_outcome(st, mon);
      const double rho_next = 1 / (2 * sigma - rho);
      precondition();
      const auto c1 = static_cast<T>(rho_next * rho), c2 = static_cast<T>(2 * rho_next / delta);
      for (std::size_t i = 0; i < n; ++i) d[i] = c1 * d[i] + c2 * z[i];
      rho = rho_next;
    }
  });
}

template <class T>
KrylovResult run_richardson(const LinearOperator<T>& a, std::span<const T> b, std::span<T> x, double omega,
                            const KrylovOptions& options, const LinearOperator<T>& m) {
  constexpr const char* fn = "trnsolver::richardson";
  check_solver_call<T>(fn, a, b, x, options, m);
  if (!(omega > 0) || !std::isfinite(omega))
    throw trncore::InvalidArgument(fn, "omega = " + trncore::detail::sci(omega),
                                   "pass 0 < omega < 2/lambda_max(M^-1 A) (2/(lambda_min + lambda_max) is optimal)");
  const auto n = static_cast<std::size_t>(a.size());
  const Sums sums(options);
  std::vector<T> z(m ? n : 0);
  const auto w = static_cast<T>(omega);

  return drive<T>(fn, a, b, x, options, [&](std::span<T> r, double, Monitor& mon) {
    for (;;) {
      if (mon.exhausted()) return limit_outcome(mon);
      std::span<const T> zr = r;
      if (m) {
        m.callback()(r, z);
        zr = z;
      }
      axpy<T>(w, zr, x);
      // Richardson's residual is the true one: no recurrence to drift.
      const double rn = true_residual<T>(a, b, x, r, sums);
      ++mon.result.iterations;
      const Status st = mon.record(rn);
      if (st == Status::met) return Outcome::estimate_met();
      if (st != Status::go) return status_outcome(st, mon);
    }
  });
}

}  // namespace

KrylovResult chebyshev(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                       SpectrumBounds bounds, const KrylovOptions& options,
                       const LinearOperator<double>& preconditioner) {
  return run_chebyshev<double>(a, b, x, bounds, options, preconditioner);
}
KrylovResult chebyshev(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                       SpectrumBounds bounds, const KrylovOptions& options,
                       const LinearOperator<float>& preconditioner) {
  return run_chebyshev<float>(a, b, x, bounds, options, preconditioner);
}
KrylovResult chebyshev(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                       SpectrumBounds bounds, const KrylovOptions& options,
                       const LinearOperator<double>& preconditioner) {
  return with_matrix<double>(
      "trnsolver::chebyshev", a,
      [&](const auto& op) { return run_chebyshev<double>(op, b, x, bounds, options, preconditioner); }, options);
}
KrylovResult chebyshev(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                       SpectrumBounds bounds, const KrylovOptions& options,
                       const LinearOperator<float>& preconditioner) {
  return with_matrix<float>(
      "trnsolver::chebyshev", a,
      [&](const auto& op) { return run_chebyshev<float>(op, b, x, bounds, options, preconditioner); }, options);
}

KrylovResult richardson(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x, double omega,
                        const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return run_richardson<double>(a, b, x, omega, options, preconditioner);
}
KrylovResult richardson(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x, double omega,
                        const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return run_richardson<float>(a, b, x, omega, options, preconditioner);
}
KrylovResult richardson(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                        double omega, const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return with_matrix<double>(
      "trnsolver::richardson", a,
      [&](const auto& op) { return run_richardson<double>(op, b, x, omega, options, preconditioner); }, options);
}
KrylovResult richardson(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x, double omega,
                        const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return with_matrix<float>(
      "trnsolver::richardson", a,
      [&](const auto& op) { return run_richardson<float>(op, b, x, omega, options, preconditioner); }, options);
}

}  // namespace trnsolver
