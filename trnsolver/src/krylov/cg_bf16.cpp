// CG with bf16 vectors as a NeuronCore would run it (krylov.hpp, cg_bf16): TensorEngine matvec with exact
// bf16 products and fp32 accumulation, fp32 VectorEngine arithmetic, every vector update rounded to bf16
// to nearest or stochastically with counter-based random bits. Compiled with -ffp-contract=off: every
// fp32 operation of the model rounds on its own.
#include "bf16_model.hpp"
#include "common.hpp"

#include <trncore/convert.hpp>
#include <trncore/error.hpp>
#include <trncore/small_float.hpp>
#include <trncore/detail/format_number.hpp>

namespace trnsolver {

namespace {

using namespace detail;
using trncore::bf16;

constexpr const char* kFn = "trnsolver::cg_bf16";

template <class In>
KrylovResult run_cg_bf16(trncore::MatrixView<const In> a, std::span<const In> b, std::span<In> x,
                         const KrylovOptions& options) {
  check_bf16_shapes(kFn, a, b, x, options);
  check_bf16_values(kFn, a, b, x);
  const std::int64_t n = a.rows();

  KrylovResult result;
  const auto un = static_cast<std::size_t>(n);
  double bnorm = 0;
  for (In v : b) bnorm += static_cast<double>(v) * static_cast<double>(v);
  bnorm = std::sqrt(bnorm);
  if (n == 0 || bnorm == 0) {
    std::fill(x.begin(), x.end(), In(0));
    result.converged = true;
    result.reason = KrylovReason::converged;
    result.residual_history.push_back(0.0);
    result.true_residual_history.push_back(0.0);
    result.detail = n == 0 ? "n = 0: nothing to solve" : "b = 0: x = 0 is the solution";
    return result;
  }

  const trncore::Rounding nearest{};
  Model model = make_model(a, options);
  std::vector<float> bb(un), xb(un), r(un), p(un), q(un), t(un), xnew(un);
  for (std::size_t i = 0; i < un; ++i) {
    bb[i] = to_bf16(static_cast<double>(b[i]));
    xb[i] = to_bf16(static_cast<double>(x[i]));
  }
  const auto true_residual = [&] { return true_residual_norm(a, b, xb); };
  // The model's own residual r = bf16(b − A x), rounded to nearest; returns rᵀr in fp32.
  auto model_residual = [&]() {
    model.matvec(xb, q);
    for (std::size_t i = 0; i < un; ++i) t[i] = bb[i] - q[i];
    model.round(t, r, nearest, 0);
    return Model::dot32(r, r);
  };

  Monitor mon{result, bnorm, std::max(options.rtol * bnorm, options.atol),
              options.max_iterations > 0 ? options.max_iterations : 10 * n, options.stagnation_window};
  float rr = model_residual();
  double truth = true_residual();
  result.residual_history.push_back(std::sqrt(static_cast<double>(rr)) / bnorm);
  result.true_residual_history.push_back(truth / bnorm);
  mon.best = std::sqrt(static_cast<double>(rr));
  trncore::detail::ProgressMonitor progress(options.monitor, kFn);
  mon.progress = &progress;
  std::copy(r.begin(), r.end(), p.begin());
  double last_failed = std::numeric_limits<double>::infinity();
  std::int64_t frozen = 0;  // consecutive iterations in which x did not change
  auto at = [&] { return " at iteration " + std::to_string(result.iterations + 1); };
  auto stop = [&](KrylovReason reason, std::string detail) {
    result.reason = reason;
    result.detail = std::move(detail);
  };
  bool done = truth <= mon.tol;
  if (done) stop(KrylovReason::converged, "converged: the initial guess meets the tolerance");
  while (!done) {
    if (mon.exhausted()) {
      stop(KrylovReason::max_iterations, limit_outcome(mon).detail);
      break;
    }
    const auto k = static_cast<std::uint64_t>(result.iterations);
    model.matvec(p, q);
    const float pq = Model::dot32(p, q);
    if (!std::isfinite(pq)) {
      stop(KrylovReason::non_finite, "non_finite: p^T A p = " + trncore::detail::sci(pq) + at());
      break;
    }
    if (!(pq > 0)) {
      stop(KrylovReason::breakdown, "breakdown: p^T A p = " + trncore::detail::sci(pq) + " <= 0" + at() +
                                        " (A is not positive definite in bf16)");
      break;
    }
    const float alpha = rr / pq;
    if (!std::isfinite(alpha) || alpha == 0) {
      stop(alpha == 0 ? KrylovReason::stagnation : KrylovReason::non_finite,
           "alpha = " + trncore::detail::sci(alpha) + at() + " (fp32 underflow or overflow of r^T r / p^T A p)");
      break;
    }
    for (std::size_t i = 0; i < un; ++i) {
      const float step = alpha * p[i];
      t[i] = xb[i] + step;
    }
    model.round(t, xnew, options.rounding, 4 * k + 0);
    const bool changed = !std::equal(xnew.begin(), xnew.end(), xb.begin());
    std::swap(xb, xnew);
    for (std::size_t i = 0; i < un; ++i) {
      const float step = alpha * q[i];
      t[i] = r[i] - step;
    }
    model.round(t, r, options.rounding, 4 * k + 1);
    const float rr_next = Model::dot32(r, r);
    ++result.iterations;
    truth = true_residual();
    result.true_residual_history.push_back(truth / bnorm);
    const Status st = mon.record(std::sqrt(static_cast<double>(rr_next)));
    frozen = changed ? 0 : frozen + 1;
    if (st == Status::non_finite) {
      stop(KrylovReason::non_finite, status_outcome(st, mon).detail);
      break;
    }
    if (st == Status::met) {  // confirm against the truth; else restart from the model's true residual
      if (truth <= mon.tol) {
        stop(KrylovReason::converged, "converged: true residual " + trncore::detail::sci(truth / bnorm) + " after " +
                                          std::to_string(result.iterations) + " iterations");
        break;
      }
      if (truth > 0.5 * last_failed) {
        stop(KrylovReason::stagnation, "stagnation: the bf16 residual met the tolerance but the true residual " +
                                           trncore::detail::sci(truth / bnorm) +
                                           " did not (twice, without halving): the attainable accuracy is reached");
        break;
      }
      if (mon.stop) {  // asked while the estimate met the tolerance that the truth did not confirm
        stop(KrylovReason::stopped_by_monitor, status_outcome(Status::stopped, mon).detail);
        break;
      }
      last_failed = truth;
      ++result.restarts;
      rr = model_residual();
      std::copy(r.begin(), r.end(), p.begin());
      continue;
    }
    if (st == Status::stagnated || st == Status::stopped) {
      stop(st == Status::stopped ? KrylovReason::stopped_by_monitor : KrylovReason::stagnation,
           status_outcome(st, mon).detail);
      break;
    }
    if (options.stagnation_window > 0 && frozen >= options.stagnation_window) {
      stop(KrylovReason::stagnation, "stagnation: x has not changed for " + std::to_string(frozen) +
                                         " iterations (every update rounded away)" + at());
      break;
    }
    const float beta = rr_next / rr;
    rr = rr_next;
    for (std::size_t i = 0; i < un; ++i) {
      const float step = beta * p[i];
      t[i] = r[i] + step;
    }
    model.round(t, p, options.rounding, 4 * k + 2);
  }
  for (std::size_t i = 0; i < un; ++i) x[i] = static_cast<In>(xb[i]);
  result.relative_residual = truth / bnorm;
  result.converged = truth <= mon.tol;
  result.stopped_by_monitor = mon.stop;
  if (result.converged && result.reason != KrylovReason::converged) {
    result.detail += "; the true residual meets the tolerance nonetheless";
    result.reason = KrylovReason::converged;
  }
  return result;
}

}  // namespace

KrylovResult cg_bf16(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                     const KrylovOptions& options) {
  return run_cg_bf16<float>(a, b, x, options);
}
KrylovResult cg_bf16(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                     const KrylovOptions& options) {
  return run_cg_bf16<double>(a, b, x, options);
}

}  // namespace trnsolver
