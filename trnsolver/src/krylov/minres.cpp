// Preconditioned MINRES (Paige & Saunders, SIAM J. Numer. Anal. 12, 1975): Lanczos on A with the
// M-inner product, Givens QR of the tridiagonal, and the three-term update of x.
#include "common.hpp"

namespace trnsolver {

namespace {

using namespace detail;

template <class T>
KrylovResult run_minres(const LinearOperator<T>& a, std::span<const T> b, std::span<T> x, const KrylovOptions& options,
                        const LinearOperator<T>& m) {
  constexpr const char* fn = "trnsolver::minres";
  check_solver_call<T>(fn, a, b, x, options, m);
  const auto n = static_cast<std::size_t>(a.size());
  const Sums sums(options);
  std::vector<T> r1(n), r2(n), y(n), v(n), w(n), w1(n), w2(n);

  return drive<T>(fn, a, b, x, options, [&](std::span<T> r, double rnorm, Monitor& mon) {
    auto at = [&] { return " at iteration " + std::to_string(mon.result.iterations + 1); };
    auto precondition = [&](std::span<const T> in, std::span<T> out) {
      if (m)
        m.callback()(in, out);
      else
        std::copy(in.begin(), in.end(), out.begin());
    };
    // β₁ = ‖r‖_{M⁻¹}: Lanczos starts from v₁ = M⁻¹r / β₁ in the M-inner product.
    std::copy(r.begin(), r.end(), r1.begin());
    precondition(r1, y);
    const T beta1_sq = dot<T>(r1, y, sums);
    if (!std::isfinite(beta1_sq))
      return Outcome::stopped(KrylovReason::non_finite,
                              "non_finite: r^T M^-1 r = " + trncore::detail::sci(beta1_sq) + at());
    if (!(beta1_sq > 0))
      return Outcome::stopped(KrylovReason::breakdown, "breakdown: r^T M^-1 r = " + trncore::detail::sci(beta1_sq) +
                                                           " <= 0" + at() +
                                                           " (the preconditioner is not positive definite)");
    const T beta1 = std::sqrt(beta1_sq);
    const double to_estimate = rnorm / static_cast<double>(beta1);  // φ_k → φ_k/φ₀·‖r₀‖₂
    std::copy(r1.begin(), r1.end(), r2.begin());
    std::fill(w.begin(), w.end(), T(0));
    std::fill(w2.begin(), w2.end(), T(0));
    T oldb = 0, beta = beta1, dbar = 0, epsln = 0, phibar = beta1, cs = -1, sn = 0;
    for (std::int64_t k = 1;; ++k) {
      if (mon.exhausted()) return limit_outcome(mon);
      const T s = T(1) / beta;
      for (std::size_t i = 0; i < n; ++i) v[i] = s * y[i];
      a.callback()(v, y);
      if (k >= 2) axpy<T>(-(beta / oldb), r1, y);
      const T alfa = dot<T>(v, y, sums);
      axpy<T>(-(alfa / beta), r2, y);
      std::swap(r1, r2);  // r1 := r2
      std::copy(y.begin(), y.end(), r2.begin());
      precondition(r2, y);
      oldb = beta;
      const T beta_sq = dot<T>(r2, y, sums);
      if (!std::isfinite(beta_sq) || !std::isfinite(alfa))
        return Outcome::stopped(KrylovReason::non_finite, "non_finite: the Lanczos coefficients are " +
                                                              trncore::detail::sci(alfa) + ", " +
                                                              trncore::detail::sci(beta_sq) + at());
      if (beta_sq < 0)
        return Outcome::stopped(KrylovReason::breakdown, "breakdown: r^T M^-1 r = " + trncore::detail::sci(beta_sq) +
                                                             " < 0" + at() +
                                                             " (the preconditioner is not positive definite)");
      beta = std::sqrt(beta_sq);
      // Apply the previous rotation, then the new one that annihilates beta.
      const T oldeps = epsln;
      const T delta = cs * dbar + sn * alfa;
      const T gbar = sn * dbar - cs * alfa;
      epsln = sn * beta;
      dbar = -cs * beta;
      const T gamma = std::hypot(gbar, beta);
      if (gamma == 0)
        return Outcome::stopped(KrylovReason::breakdown,
                                "breakdown: gamma = 0" + at() + " (A is singular on the Krylov space)");
      cs = gbar / gamma;
      sn = beta / gamma;
      const T phi = cs * phibar;
      phibar = sn * phibar;
      const T denom = T(1) / gamma;
      std::swap(w1, w2);  // w1 := w2, w2 := w (then w is recomputed)
      std::swap(w2, w);
      for (std::size_t i = 0; i < n; ++i) w[i] = (v[i] - oldeps * w1[i] - delta * w2[i]) * denom;
      if (!std::isfinite(phi))
        return Outcome::stopped(KrylovReason::non_finite, "non_finite: phi = " + trncore::detail::sci(phi) + at());
      axpy<T>(phi, w, x);
      ++mon.result.iterations;
      const Status st = mon.record(std::fabs(static_cast<double>(phibar)) * to_estimate);
      if (st == Status::met) return Outcome::estimate_met();
      if (st != Status::go) return status_outcome(st, mon);
      if (beta == 0)  // invariant subspace: phibar = 0 unless A is singular there
        return Outcome::estimate_met();
    }
  });
}

}  // namespace

KrylovResult minres(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                    const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return run_minres<double>(a, b, x, options, preconditioner);
}
KrylovResult minres(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                    const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return run_minres<float>(a, b, x, options, preconditioner);
}
KrylovResult minres(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                    const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return with_matrix<double>(
      "trnsolver::minres", a, [&](const auto& op) { return run_minres<double>(op, b, x, options, preconditioner); },
      options);
}
KrylovResult minres(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                    const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return with_matrix<float>(
      "trnsolver::minres", a, [&](const auto& op) { return run_minres<float>(op, b, x, options, preconditioner); },
      options);
}

}  // namespace trnsolver
