// Damped Jacobi x ← x + ω·D⁻¹(b − A x) in the bf16 model (krylov.hpp, richardson_bf16): the stationary
// iteration in which round-to-nearest's loss of small updates is cleanest to see. Compiled with
// -ffp-contract=off: every fp32 operation of the model rounds on its own.
#include "bf16_model.hpp"
#include "common.hpp"

#include <trncore/error.hpp>
#include <trncore/detail/format_number.hpp>

#include <cmath>
#include <string>

namespace trnsolver {

namespace {

using namespace detail;

constexpr const char* kFn = "trnsolver::richardson_bf16";

template <class In>
KrylovResult run(trncore::MatrixView<const In> a, std::span<const In> b, std::span<In> x, double omega,
                 const KrylovOptions& options) {
  check_bf16_shapes(kFn, a, b, x, options);
  if (!(omega > 0.0) || !std::isfinite(omega))
    throw trncore::InvalidArgument(kFn, "omega = " + trncore::detail::sci(omega),
                                   "pass a finite damping factor omega > 0");
  check_bf16_values(kFn, a, b, x);
  const std::int64_t n = a.rows();
  const auto un = static_cast<std::size_t>(n);
  Model model = make_model(a, options);
  std::vector<float> bb(un), xb(un), w(un), r(un), t(un), xnew(un);
  for (std::size_t i = 0; i < un; ++i) {
    const float d = model.a[i * un + i];
    if (d == 0.0f)
      throw trncore::InvalidArgument(kFn, "a(" + std::to_string(i) + ", " + std::to_string(i) + ") is 0 in bf16",
                                     "Jacobi scaling needs a nonzero diagonal");
    w[i] = static_cast<float>(omega) / d;  // ω/a_ii once, in fp32
    bb[i] = to_bf16(static_cast<double>(b[i]));
    xb[i] = to_bf16(static_cast<double>(x[i]));
  }

  KrylovResult result;
  double bnorm = 0;
  for (In v : b) bnorm += static_cast<double>(v) * static_cast<double>(v);
  bnorm = std::sqrt(bnorm);
  const auto true_residual = [&] { return true_residual_norm(a, b, xb); };
  const auto finish = [&](KrylovReason reason, std::string detail) {
    for (std::size_t i = 0; i < un; ++i) x[i] = static_cast<In>(xb[i]);
    const double truth = true_residual();
    result.relative_residual = bnorm > 0 ? truth / bnorm : 0.0;
    result.converged = truth <= std::max(options.rtol * bnorm, options.atol);
    result.reason = result.converged ? KrylovReason::converged : reason;
    result.detail = result.converged ? "converged: true residual " + trncore::detail::sci(result.relative_residual) +
                                           " after " + std::to_string(result.iterations) + " iterations"
                                     : std::move(detail);
    return result;
  };
  if (n == 0 || bnorm == 0) {
    std::fill(xb.begin(), xb.end(), 0.0f);
    result.residual_history.push_back(0.0);
    result.true_residual_history.push_back(0.0);
    return finish(KrylovReason::converged, "");
  }
  const std::int64_t limit = options.max_iterations > 0 ? options.max_iterations : 10 * n;
  const double tol = std::max(options.rtol * bnorm, options.atol);
  std::int64_t frozen = 0;
  trncore::detail::ProgressMonitor progress(options.monitor, kFn);
  for (;; ++result.iterations) {
    // r = b − A x in fp32 (TensorEngine product, then one VectorEngine subtraction), kept in fp32.
    model.matvec(xb, t);
    for (std::size_t i = 0; i < un; ++i) r[i] = bb[i] - t[i];
    const double model_norm = std::sqrt(static_cast<double>(Model::dot32(r, r)));
    const double truth = true_residual();
    result.residual_history.push_back(model_norm / bnorm);
    result.true_residual_history.push_back(truth / bnorm);
    // The monitor sees the true relative residual the stopping test uses, once per iteration.
    const bool stop_asked = result.iterations > 0 && progress.stop_requested(result.iterations, truth / bnorm);
    if (!std::isfinite(model_norm))
      return finish(KrylovReason::non_finite,
                    "non_finite: the model's residual is " + trncore::detail::sci(model_norm));
    if (truth <= tol) return finish(KrylovReason::converged, "");
    if (stop_asked) {
      result.stopped_by_monitor = true;
      return finish(KrylovReason::stopped_by_monitor,
                    "stopped_by_monitor: options.monitor asked to stop at iteration " +
                        std::to_string(result.iterations) + ", true residual " + trncore::detail::sci(truth / bnorm));
    }
    if (result.iterations == limit)
      return finish(KrylovReason::max_iterations, "max_iterations: " + std::to_string(limit) +
                                                      " iterations, true residual " +
                                                      trncore::detail::sci(truth / bnorm));
    if (options.stagnation_window > 0 && frozen >= options.stagnation_window)
      return finish(KrylovReason::stagnation,
                    "stagnation: x has not changed for " + std::to_string(frozen) +
                        " iterations (every update below half an ulp of x is lost), true residual " +
                        trncore::detail::sci(truth / bnorm));
    for (std::size_t i = 0; i < un; ++i) {
      const float step = w[i] * r[i];
      t[i] = xb[i] + step;
    }
    model.round(t, xnew, options.rounding, static_cast<std::uint64_t>(result.iterations));
    frozen = std::equal(xnew.begin(), xnew.end(), xb.begin()) ? frozen + 1 : 0;
    std::swap(xb, xnew);
  }
}

}  // namespace

KrylovResult richardson_bf16(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                             double omega, const KrylovOptions& options) {
  return run<float>(a, b, x, omega, options);
}

KrylovResult richardson_bf16(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                             double omega, const KrylovOptions& options) {
  return run<double>(a, b, x, omega, options);
}

}  // namespace trnsolver
