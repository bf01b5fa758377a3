// Right-preconditioned BiCGStab (van der Vorst 1992; Saad, Iterative Methods for Sparse Linear Systems,
// Alg. 7.7).
#include "common.hpp"

namespace trnsolver {

namespace {

using namespace detail;

template <class T>
KrylovResult run_bicgstab(const LinearOperator<T>& a, std::span<const T> b, std::span<T> x,
                          const KrylovOptions& options, const LinearOperator<T>& m) {
  constexpr const char* fn = "trnsolver::bicgstab";
  check_solver_call<T>(fn, a, b, x, options, m);
  const auto n = static_cast<std::size_t>(a.size());
  const Sums sums(options);
  std::vector<T> rhat(n), p(n), v(n), s(n), t(n), phat(m ? n : 0), shat(m ? n : 0);

  return drive<T>(fn, a, b, x, options, [&](std::span<T> r, double, Monitor& mon) {
    auto at = [&] { return " at iteration " + std::to_string(mon.result.iterations + 1); };
    auto stop_non_finite = [&](const char* what, T value) {
      return Outcome::stopped(KrylovReason::non_finite, std::string("non_finite: ") + what + " = " +
                                                            trncore::detail::sci(static_cast<double>(value)) + at());
    };
    std::copy(r.begin(), r.end(), rhat.begin());
    T rho_old = 1, alpha = 1, omega = 1;
    bool first = true;
    for (;;) {
      if (mon.exhausted()) return limit_outcome(mon);
      const T rho = dot<T>(rhat, r, sums);
      if (!std::isfinite(rho)) return stop_non_finite("rho", rho);
      if (rho == 0)
        return Outcome::stopped(KrylovReason::breakdown,
                                "breakdown: rho = r0^T r = 0" + at() + " (the shadow residual is orthogonal to r)");
      if (first) {
        std::copy(r.begin(), r.end(), p.begin());
        first = false;
      } else {
        const T beta = (rho / rho_old) * (alpha / omega);
        if (!std::isfinite(beta)) return stop_non_finite("beta", beta);
        for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
      }
      std::span<const T> pp = p;
      if (m) {
        m.callback()(p, phat);
        pp = phat;
      }
      a.callback()(pp, v);
      const T sigma = dot<T>(rhat, v, sums);
      if (!std::isfinite(sigma)) return stop_non_finite("r0^T v", sigma);
      if (sigma == 0)
        return Outcome::stopped(KrylovReason::breakdown, "breakdown: r0^T A M^-1 p = 0" + at() + " (alpha = rho / 0)");
      alpha = rho / sigma;
      if (!std::isfinite(alpha)) return stop_non_finite("alpha", alpha);
      for (std::size_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
      const double snorm = norm2<T>(s, sums);
      if (std::isfinite(snorm) && snorm <= mon.tol) {  // converged after the first half step
        axpy<T>(alpha, pp, x);
        std::copy(s.begin(), s.end(), r.begin());
        ++mon.result.iterations;
        mon.record(snorm);
        return Outcome::estimate_met();
      }
      std::span<const T> ss = s;
      if (m) {
        m.callback()(s, shat);
        ss = shat;
      }
      a.callback()(ss, t);
      const T tt = dot<T>(t, t, sums);
      const T ts = dot<T>(t, s, sums);
      if (!std::isfinite(tt) || !std::isfinite(ts)) return stop_non_finite("t^T t", tt);
      if (tt == 0) {
        axpy<T>(alpha, pp, x);
        ++mon.result.iterations;
        mon.record(snorm);
        return Outcome::stopped(KrylovReason::breakdown,
                                "breakdown: t = A M^-1 s = 0 with s != 0" + at() + " (A M^-1 is singular)");
      }
      omega = ts / tt;
      if (!std::isfinite(omega)) return stop_non_finite("omega", omega);
      for (std::size_t i = 0; i < n; ++i) {
        x[i] += alpha * pp[i] + omega * ss[i];
        r[i] = s[i] - omega * t[i];
      }
      ++mon.result.iterations;
      const Status st = mon.record(norm2<T>(r, sums));
      if (st == Status::met) return Outcome::estimate_met();
      if (st != Status::go) return status_outcome(st, mon);
      if (omega == 0)
        return Outcome::stopped(KrylovReason::breakdown, "breakdown: omega = t^T s / t^T t = 0 at iteration " +
                                                             std::to_string(mon.result.iterations) +
                                                             " (the stabilizing step stalls)");
      rho_old = rho;
    }
  });
}

}  // namespace

KrylovResult bicgstab(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                      const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return run_bicgstab<double>(a, b, x, options, preconditioner);
}
KrylovResult bicgstab(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                      const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return run_bicgstab<float>(a, b, x, options, preconditioner);
}
KrylovResult bicgstab(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                      const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return with_matrix<double>(
      "trnsolver::bicgstab", a, [&](const auto& op) { return run_bicgstab<double>(op, b, x, options, preconditioner); },
      options);
}
KrylovResult bicgstab(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                      const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return with_matrix<float>(
      "trnsolver::bicgstab", a, [&](const auto& op) { return run_bicgstab<float>(op, b, x, options, preconditioner); },
      options);
}

}  // namespace trnsolver
