// Preconditioned conjugate gradients (Saad, Iterative Methods for Sparse Linear Systems, Alg. 9.1).
#include "common.hpp"

namespace trnsolver {

namespace {

using namespace detail;

template <class T>
KrylovResult run_cg(const LinearOperator<T>& a, std::span<const T> b, std::span<T> x, const KrylovOptions& options,
                    const LinearOperator<T>& m) {
  constexpr const char* fn = "trnsolver::cg";
  check_solver_call<T>(fn, a, b, x, options, m);
  const auto n = static_cast<std::size_t>(a.size());
  const Sums sums(options);
  std::vector<T> z(m ? n : 0), p(n), q(n);

  return drive<T>(fn, a, b, x, options, [&](std::span<T> r, double, Monitor& mon) {
    auto precondition = [&]() -> std::span<const T> {
      if (!m) return r;
      m.callback()(r, z);
      return z;
    };
    auto at = [&] { return " at iteration " + std::to_string(mon.result.iterations); };
    std::span<const T> zr = precondition();
    T rz = dot<T>(r, zr, sums);
    if (!std::isfinite(rz))
      return Outcome::stopped(KrylovReason::non_finite, "non_finite: r^T M^-1 r = " + trncore::detail::sci(rz) + at());
    if (!(rz > 0))
      return Outcome::stopped(KrylovReason::breakdown, "breakdown: r^T M^-1 r = " + trncore::detail::sci(rz) + " <= 0" +
                                                           at() + " (the preconditioner is not positive definite)");
    std::copy(zr.begin(), zr.end(), p.begin());
    for (;;) {
      if (mon.exhausted()) return limit_outcome(mon);
      a.callback()(p, q);
      const T pq = dot<T>(p, q, sums);
      if (!std::isfinite(pq))
        return Outcome::stopped(KrylovReason::non_finite, "non_finite: p^T A p = " + trncore::detail::sci(pq) + at());
      if (!(pq > 0))
        return Outcome::stopped(KrylovReason::breakdown, "breakdown: p^T A p = " + trncore::detail::sci(pq) + " <= 0" +
                                                             at() + " (A is not positive definite)");
      const T alpha = rz / pq;
      if (!std::isfinite(alpha))
        return Outcome::stopped(KrylovReason::non_finite, "non_finite: alpha = " + trncore::detail::sci(alpha) + at());
      axpy<T>(alpha, p, x);
      axpy<T>(-alpha, q, r);
      ++mon.result.iterations;
      const Status st = mon.record(norm2<T>(r, sums));
      if (st == Status::met) return Outcome::estimate_met();
      if (st != Status::go) return status_outcome(st, mon);
      zr = precondition();
      const T rz_next = dot<T>(r, zr, sums);
      if (!std::isfinite(rz_next))
        return Outcome::stopped(KrylovReason::non_finite,
                                "non_finite: r^T M^-1 r = " + trncore::detail::sci(rz_next) + at());
      if (!(rz_next > 0))
        return Outcome::stopped(KrylovReason::breakdown, "breakdown: r^T M^-1 r = " + trncore::detail::sci(rz_next) +
                                                             " <= 0" + at() +
                                                             " (the preconditioner is not positive definite)");
      const T beta = rz_next / rz;
      rz = rz_next;
      for (std::size_t i = 0; i < n; ++i) p[i] = zr[i] + beta * p[i];
    }
  });
}

}  // namespace

KrylovResult cg(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return run_cg<double>(a, b, x, options, preconditioner);
}
KrylovResult cg(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return run_cg<float>(a, b, x, options, preconditioner);
}
KrylovResult cg(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return with_matrix<double>(
      "trnsolver::cg", a, [&](const auto& op) { return run_cg<double>(op, b, x, options, preconditioner); }, options);
}
KrylovResult cg(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return with_matrix<float>(
      "trnsolver::cg", a, [&](const auto& op) { return run_cg<float>(op, b, x, options, preconditioner); }, options);
}

}  // namespace trnsolver
